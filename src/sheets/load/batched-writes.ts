/**
 * Pages of rows written in the order they come, by one writer, while the caller goes on: a first load renders
 * and fetches the next pages while the previous ones travel to Excel. Pages that arrive while a write is
 * under way go together in the next one, so when Excel is the slower side it makes fewer, fuller round trips
 * instead of falling further behind. At most `ahead` pages wait; beyond that `push` waits, so rendered rows
 * never pile up in memory. The first failure stops the writing and is thrown by the next `push` and by `drain`.
 * The writes run one after another on a SerialQueue (serial-queue.ts). What it does not do is kept here: the
 * coalescing (a write queued and not yet started takes every page pushed until it starts) and the stop at the
 * first failure (the queue would run the next write all the same: here it writes nothing).
 */
import { SerialQueue } from "../port/serial-queue";

export class BatchedWrites<T> {
  private pending: T[] = [];
  private readonly writes = new SerialQueue();
  /** A write is queued that has not taken the pending pages yet: pages pushed meanwhile go with it. */
  private writeQueued = false;
  private failure: { error: unknown } | null = null;
  private wakeUps: (() => void)[] = [];

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly ahead: number,
  ) {}

  /** Queues a page behind every page pushed before it; resolves once it is queued, not once it is written. */
  async push(page: T): Promise<void> {
    this.throwIfFailed();
    while (this.pending.length >= this.ahead) {
      await new Promise<void>((resolve) => this.wakeUps.push(resolve));
      this.throwIfFailed();
    }
    this.pending.push(page);
    if (!this.writeQueued) {
      this.writeQueued = true;
      void this.writes.run(() => this.writePending()); // never rejects: a failure is kept for push and drain
    }
  }

  /** Waits until every queued page is written; throws the first failure. */
  async drain(): Promise<void> {
    await this.writes.settled();
    this.throwIfFailed();
  }

  /** Waits for the write under way, whatever its outcome, and drops what was still queued (before taking it back). */
  async settle(): Promise<void> {
    this.failure ??= { error: new Error("stopped") };
    await this.writes.settled();
  }

  /** Writes the pages pushed so far in one write, unless the writing has stopped. */
  private async writePending(): Promise<void> {
    this.writeQueued = false;
    const batch = this.pending;
    this.pending = [];
    this.wake();
    if (this.failure) return;
    try {
      await this.write(batch);
    } catch (error) {
      this.failure ??= { error };
      this.pending = [];
      this.wake();
    }
  }

  private wake(): void {
    const waiting = this.wakeUps;
    this.wakeUps = [];
    for (const resolve of waiting) resolve();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
