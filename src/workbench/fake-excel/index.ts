/**
 * An in-memory implementation of the subset of the Excel JavaScript API that the add-in uses, faithful
 * where it matters: properties must be loaded and synced before they are read; values must match the
 * range's dimensions; a naive string such as "=HYPERLINK(...)" becomes a formula; a request over 5 MB
 * fails with RequestPayloadSizeLimitExceeded; syncs and request sizes are counted. Tests and the
 * workbench page use the same object. `user` plays the person at the keyboard (user-actions.ts).
 */
import { Context, PAYLOAD_LIMIT_BYTES, type PayloadSize, type RunSettings, type SyncStats } from "./client-object";
import { FakeExcelError } from "./errors";
import { WorkbookModel, type CellLine, type Scalar, type SheetModel, type TableModel } from "./model";
import { UserActions } from "./user-actions";
import { Application, Workbook } from "./workbook";

export { CELL_TEXT_LIMIT } from "./model";
export { FakeExcelError, PAYLOAD_LIMIT_BYTES, UserActions, WorkbookModel };
export type { SpillInfo } from "./user-actions";
export type { CellLine, Scalar, SheetModel, TableModel };

export class RequestContext {
  readonly workbook: Workbook;
  readonly application: Application;
  private readonly inner: Context;

  constructor(model: WorkbookModel, stats: SyncStats, settings: RunSettings) {
    this.inner = new Context(stats, model, settings);
    this.application = new Application(this.inner);
    this.workbook = new Workbook(this.inner, model, this.application);
  }

  sync<T>(passThroughValue?: T): Promise<T> {
    return this.inner.sync().then(() => passThroughValue as T);
  }
}

export class FakeExcel {
  readonly stats: SyncStats = { syncs: 0, requestBytes: [], operations: [], responseBytes: [], refusedResponses: 0, calculationSuspensions: 0 };
  readonly user: UserActions;
  /** Every Excel.run's options, in order (tests check that each waits for cell edit). */
  readonly runs: Excel.RunOptions[] = [];

  /**
   * `syncLatencyMs` gives every sync the cost of a round trip to Excel (for benchmarks); `knownBytes` takes
   * a payload's size from whoever already measured its text (bench/excel-worker.ts).
   */
  constructor(readonly model: WorkbookModel = new WorkbookModel(), readonly syncLatencyMs = 0, private readonly knownBytes?: PayloadSize) {
    this.user = new UserActions(model);
  }

  /** Excel.run: the batch gets a fresh context; what it leaves queued is synced at the end. */
  run<T>(batch: (context: RequestContext) => Promise<T>): Promise<T>;
  run<T>(options: Excel.RunOptions, batch: (context: RequestContext) => Promise<T>): Promise<T>;
  async run<T>(first: Excel.RunOptions | ((context: RequestContext) => Promise<T>), second?: (context: RequestContext) => Promise<T>): Promise<T> {
    const options = typeof first === "function" ? {} : first;
    const batch = typeof first === "function" ? first : second!;
    this.runs.push(options);
    const context = new RequestContext(this.model, this.stats, { delayForCellEdit: options.delayForCellEdit === true, latencyMs: this.syncLatencyMs, knownBytes: this.knownBytes });
    const result = await batch(context);
    await context.sync();
    return result;
  }

  get largestRequestBytes(): number {
    return Math.max(0, ...this.stats.requestBytes);
  }

  get largestResponseBytes(): number {
    return Math.max(0, ...this.stats.responseBytes);
  }

  resetStats(): void {
    this.stats.syncs = 0;
    this.stats.requestBytes.length = 0;
    this.stats.operations.length = 0;
    this.stats.responseBytes.length = 0;
    this.stats.refusedResponses = 0;
    this.stats.calculationSuspensions = 0;
  }
}
