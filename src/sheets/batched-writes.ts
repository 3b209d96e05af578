/**
 * Pages of rows written in the order they come, by one writer, while the caller goes on: a first load renders
 * and fetches the next pages while the previous ones travel to Excel. Pages that arrive while a write is
 * under way go together in the next one, so when Excel is the slower side it makes fewer, fuller round trips
 * instead of falling further behind. At most `ahead` pages wait; beyond that `push` waits, so rendered rows
 * never pile up in memory. The first failure stops the writing and is thrown by the next `push` and by `drain`.
 */
export class BatchedWrites<T> {
  private pending: T[] = [];
  private running: Promise<void> | null = null;
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
    this.running ??= this.run();
  }

  /** Waits until every queued page is written; throws the first failure. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    this.throwIfFailed();
  }

  /** Waits for the write under way, whatever its outcome, and drops what was still queued (before taking it back). */
  async settle(): Promise<void> {
    this.failure ??= { error: new Error("stopped") };
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.failure) {
        const batch = this.pending;
        this.pending = [];
        this.wake();
        await this.write(batch);
      }
    } catch (error) {
      this.failure ??= { error };
    } finally {
      this.pending = [];
      this.running = null;
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
