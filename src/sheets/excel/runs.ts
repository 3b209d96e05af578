/**
 * Every Excel.run of the adapter: each waits for the user to leave cell edit mode instead of failing, and each
 * of its requests is watched, so that the taskpane can say why nothing moves while Excel keeps one waiting.
 */
import type { ExcelHost, XContext } from "./api";

/** https://learn.microsoft.com/javascript/api/excel/excel.runoptions: without it a batch fails while the user types in a cell. */
export const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };
/**
 * A request Excel has not answered after this long may be waiting for the person to leave a cell: with
 * delayForCellEdit, Excel delays it "until the user exits cell edit mode", and says nothing (no event tells an
 * add-in). On Windows, clicking the taskpane does not end cell edit (office-js #806), so the taskpane says so.
 * @internal wait-notice tests and the ledger's break advance fake timers by it.
 */
export const WAIT_NOTICE_MS = 2_000;

/** One Excel.run, as the adapter's writes and reads take it. */
export type Run = <T>(batch: (context: XContext) => Promise<T>) => Promise<T>;

/** The runs of one workbook, and whether one of their requests has waited past WAIT_NOTICE_MS. */
export class WatchedRuns {
  /** Requests sent and not answered yet, each with the timer that turns it into a wait. */
  private pending = 0;
  private waiting = false;
  private readonly waitListeners = new Set<(waiting: boolean) => void>();

  constructor(private readonly excel: ExcelHost) {}

  /** Tells `listener` when the wait notice goes up (true) and down (false); returns how to stop. */
  onExcelWait(listener: (waiting: boolean) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  private setWaiting(waiting: boolean): void {
    if (this.waiting === waiting) return;
    this.waiting = waiting;
    for (const listener of this.waitListeners) listener(waiting);
  }

  /** Every run waits for cell edit (RUN_OPTIONS); each of its requests is watched for a long wait (WAIT_NOTICE_MS). */
  run<T>(batch: (context: XContext) => Promise<T>): Promise<T> {
    return this.excel.run(RUN_OPTIONS, (context) => {
      const sync = context.sync.bind(context);
      context.sync = <S>(passThrough?: S) => this.watched(sync(passThrough));
      return batch(context);
    });
  }

  /** A request: the wait notice goes up if it is unanswered after WAIT_NOTICE_MS, and down once no request is. */
  private watched<T>(request: Promise<T>): Promise<T> {
    this.pending++;
    const timer = setTimeout(() => this.setWaiting(true), WAIT_NOTICE_MS);
    const done = () => {
      clearTimeout(timer);
      if (--this.pending === 0) this.setWaiting(false);
    };
    request.then(done, done);
    return request;
  }
}
