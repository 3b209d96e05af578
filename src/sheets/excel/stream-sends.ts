/**
 * The requests of one streamed table (a TableStream of excel/create-table.ts): rows go below those sent before,
 * one request at a time and in order, and a write resolves once its last request is sent, so that the next
 * rows are made ready while Excel is still at work on it. Rows that would only fill part of a request may
 * wait for more (see `Hold`): fewer, fuller round trips.
 * Pipelined, not queued: a write is called at once and waits itself for the request ahead (`after`), and a
 * refusal goes down the chain so that nothing is sent after it. A SerialQueue (serial-queue.ts) only follows
 * the writes, for `abandon` to wait until all of them have settled, whatever their outcome.
 */
import { SerialQueue } from "../port/serial-queue";
import type { CellValue, TableStart } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/** How a write's requests follow others: after which request, and who to tell once its last one is sent. */
export interface RequestOrder {
  /** Back (or failed) before this write's first request is sent; a failure stops this write. */
  after?: Promise<unknown>;
  /** Called once the last request is sent (it may still be in Excel). */
  onAllSent?: () => void;
}

export type Hold = TableStart["holdPartial"];

export class StreamSends {
  /** Rows given to requests so far (sent, being sent, or refused: a refused request may have landed part of them). */
  written = 0;
  /** Rows appended but not sent: nothing of them is in the workbook to take back. */
  private held: CellValue[][] = [];
  /**
   * Settles once every request given so far is back or failed (never before the one ahead of it); rejects
   * with the first failure, which the next append and `settled` throw.
   */
  private tail: Promise<void> = Promise.resolve();
  /** Every write given so far, for `abandon` to wait until each is back or failed. */
  private readonly allWrites = new SerialQueue();
  /** A request of this table is in Excel. */
  private busy = false;
  /** The first refused request's error: nothing more is sent or held after it. */
  private failure: { error: unknown } | null = null;
  /** Finished or discarded: nothing more is sent. */
  private closed = false;

  constructor(
    /** Writes `rows` below `below` rows, in requests ordered as `order` says; resolves once all are back. */
    private readonly write: (below: number, rows: CellValue[][], order: RequestOrder) => Promise<void>,
    /** How many of `rows`, from the first, fill whole requests (the rest would be a partial one). */
    private readonly wholeRequests: (rows: CellValue[][]) => number,
    private readonly hold: Hold,
  ) {}

  /**
   * Sends what fills whole requests, and the rest unless `hold` says it waits; resolves once sent. Throws a
   * refusal of any request before it, at once, even when these rows would only be held.
   */
  async append(rows: CellValue[][]): Promise<void> {
    if (this.closed) throw new WorkbookError("internal", "This table is already finished or taken back: no rows can be added to it.");
    if (this.failure) throw this.failure.error;
    if (rows.length === 0) return;
    let batch = this.held.length > 0 ? this.held.concat(rows) : rows;
    let rest: CellValue[][] = [];
    if (this.hold === "untilFinish" || (this.hold === "whileExcelBusy" && this.busy)) {
      const whole = this.wholeRequests(batch);
      rest = batch.slice(whole);
      batch = batch.slice(0, whole);
    }
    this.held = rest;
    if (batch.length > 0) await this.send(batch);
  }

  /** Sends whatever is held, then waits until every request is back; throws the first failure. Nothing more is sent after. */
  async settled(): Promise<void> {
    this.closed = true;
    if (this.failure) throw this.failure.error;
    if (this.held.length > 0) {
      const rows = this.held;
      this.held = [];
      await this.send(rows);
    }
    await this.tail;
  }

  /** Drops what is held, sends nothing more, and waits until what was sent is back or failed (before the table is taken back). */
  async abandon(): Promise<void> {
    this.closed = true;
    this.held = [];
    await this.allWrites.settled();
  }

  /** Gives `rows` to the next request, behind every one given before; resolves once they are sent (or refused). */
  private send(rows: CellValue[][]): Promise<void> {
    const { sent, back } = this.request(rows);
    return Promise.race([sent, back]);
  }

  /** Gives `rows` to a write behind those given before: `sent` once its last request is sent, `back` once all are back. */
  private request(rows: CellValue[][]): { sent: Promise<void>; back: Promise<void> } {
    const after = this.tail;
    const below = this.written;
    this.written += rows.length;
    let allSent!: () => void;
    const sent = new Promise<void>((resolve) => (allSent = resolve));
    const back = this.write(below, rows, { after, onAllSent: allSent });
    // Settled only once the request ahead is too, even if this write failed before waiting for it.
    const tail = Promise.allSettled([after, back]).then(() => back);
    this.tail = tail;
    this.allWrites.follow(tail);
    this.busy = true;
    tail.then(
      () => {
        if (this.tail !== tail) return; // more was sent behind it: still busy
        this.busy = false;
        // Excel is idle now: rows held for a fuller request go at once rather than wait for more.
        if (this.hold === "whileExcelBusy" && !this.closed && !this.failure && this.held.length > 0) {
          const waiting = this.held;
          this.held = [];
          this.request(waiting); // its failure is kept, and thrown by the next append or settled
        }
      },
      (error: unknown) => {
        this.failure ??= { error };
        this.held = []; // nothing goes after a refusal; the load that appended them fails and takes the table back
      },
    );
    return { sent, back };
  }
}
