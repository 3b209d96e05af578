/**
 * Tasks run one after another, in the order they were queued: each starts once the one before it has settled,
 * whatever its outcome. A failure goes to the task's own caller and does not stop the tasks behind it. The
 * writers that must not overlap in Excel use it for that part: the first load's pages (batched-writes.ts), a
 * streamed table's requests (stream-sends.ts, which only waits on it) and the journal's appends (sync/journal.ts).
 */
const ignore = (): void => undefined;

export class SerialQueue {
  /** Settles once every task queued so far has; never rejects. */
  private last: Promise<void> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled; resolves or rejects as the task does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.last.then(task);
    this.last = result.then(ignore, ignore);
    return result;
  }

  /** Counts work that was started elsewhere (and orders itself) among what `settled` waits for. */
  follow(work: Promise<unknown>): void {
    this.last = Promise.allSettled([this.last, work]).then(ignore);
  }

  /** Resolves once every task has settled, those queued while it waits included; never rejects. */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.last;
      await last;
    } while (last !== this.last);
  }
}
