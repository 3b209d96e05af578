/**
 * The requests of one streamed table (a TableStream of excel-adapter.ts): rows go below those sent before,
 * one request at a time and in order, and a write resolves once its last request is sent, so that the next
 * rows are made ready while Excel is still at work on it. Rows that would only fill part of a request may
 * wait for more (see `Hold`): fewer, fuller round trips.
 */
import type { CellValue, TableStart } from "./workbook";

/** How a write's requests follow others: after which request, and who to tell once its last one is sent. */
export interface RequestOrder {
  /** Back (or failed) before this write's first request is sent; a failure stops this write. */
  after?: Promise<unknown>;
  /** Called once the last request is sent (it may still be in Excel). */
  onAllSent?: () => void;
}

export type Hold = TableStart["holdPartial"];

export class StreamSends {
  /** Rows sent (or being sent) so far. */
  written = 0;
  /** Rows appended but not sent: nothing of them is in the workbook to take back. */
  private held: CellValue[][] = [];
  /** Every request sent so far, until the last is back; its failure is thrown by the next send or by `settled`. */
  private tail: Promise<void> = Promise.resolve();
  /** A request of this table is in Excel. */
  private busy = false;
  /** Finished or discarded: nothing is sent on its own any more. */
  private closed = false;

  constructor(
    /** Writes `rows` below `below` rows, in requests ordered as `order` says; resolves once all are back. */
    private readonly write: (below: number, rows: CellValue[][], order: RequestOrder) => Promise<void>,
    /** How many of `rows`, from the first, fill whole requests (the rest would be a partial one). */
    private readonly wholeRequests: (rows: CellValue[][]) => number,
    private readonly hold: Hold,
  ) {}

  /** Sends what fills whole requests, and the rest unless `hold` says it waits; resolves once sent. */
  append(rows: CellValue[][]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    let batch = this.held.length > 0 ? this.held.concat(rows) : rows;
    this.held = [];
    if (this.hold === "untilFinish" || (this.hold === "whileExcelBusy" && this.busy)) {
      const whole = this.wholeRequests(batch);
      this.held = batch.slice(whole);
      batch = batch.slice(0, whole);
    }
    return batch.length > 0 ? this.send(batch) : Promise.resolve();
  }

  /** Sends whatever is held, then waits until every request is back; throws the first failure. No more sends on their own. */
  async settled(): Promise<void> {
    this.closed = true;
    if (this.held.length > 0) {
      const rows = this.held;
      this.held = [];
      await this.send(rows);
    }
    await this.tail;
  }

  /** Drops what is held and waits until what was sent is back or failed (before the table is taken back). */
  async abandon(): Promise<void> {
    this.closed = true;
    this.held = [];
    await this.tail.catch(() => undefined);
  }

  private send(rows: CellValue[][]): Promise<void> {
    const after = this.tail;
    const below = this.written;
    this.written += rows.length;
    let allSent!: () => void;
    const sent = new Promise<void>((resolve) => (allSent = resolve));
    const back = this.write(below, rows, { after, onAllSent: allSent });
    this.tail = back;
    this.busy = true;
    back.then(
      () => {
        if (this.tail !== back) return; // more was sent behind it: still busy
        this.busy = false;
        // Excel is idle now: rows held for a fuller request go at once rather than wait for more.
        if (this.hold === "whileExcelBusy" && !this.closed && this.held.length > 0) {
          const waiting = this.held;
          this.held = [];
          void this.send(waiting).catch(() => undefined); // its failure stays in the tail
        }
      },
      () => undefined, // no unhandled-rejection warning: whoever waits for the tail next throws it
    );
    return Promise.race([sent, back]);
  }
}
