/**
 * The in-memory Excel in a thread of its own, as Excel is a process of its own: the add-in's thread runs
 * Microsoft's Office.js client (loaded by bench/run.ts), whose requests (their JSON text, as Office.js sends
 * them) go to the protocol host in a worker thread (excel-worker.ts), which answers them. The cells, and the
 * CPU that applies a request to them, are then Excel's, not the add-in's: the benchmark's heap and CPU figures
 * are the add-in's alone, and a load's fetching can overlap Excel's work as it does in Excel.
 */
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import type { ExcelHost, XContext } from "../src/sheets/excel/api";
import { FakeExcel, type RequestRecord, type WorkbookModel } from "../src/workbench/fake-excel";

export type ToWorker =
  | { type: "query"; request: number; body: string; flags: number }
  | { type: "stats"; request: number }
  | { type: "reset"; request: number }
  | { type: "save"; request: number }
  | { type: "restore"; request: number }
  | { type: "dump"; request: number };

export type FromWorker =
  | { request: number; answer: string }
  | { request: number; stats: ExcelStats }
  | { request: number; dump: WorkbookDump }
  | { request: number; done: true };

/** A workbook's content, to compare two Excels (tests): every sheet's cells and every table's place. */
export interface WorkbookDump {
  sheets: { name: string; visibility: string; cells: [number, number, string | number | boolean, string | null, string][] }[];
  tables: { name: string; sheet: string; area: string }[];
}

/** What the worker's Excel received (its requests, the add-in's work apart from Office.js's cleanups), the cells it holds, and its thread's live heap. */
export interface ExcelStats {
  requests: RequestRecord[];
  syncs: number;
  requestBytes: number[];
  responseBytes: number[];
  largestRequestBytes: number;
  cleanups: number;
  calculationSuspensions: number;
  cells: number;
  heapBytes: number;
}

/** The workbook's content (see WorkbookDump). */
export function dumpOf(model: WorkbookModel): WorkbookDump {
  return {
    sheets: model.sheets.map((sheet) => ({
      name: sheet.name,
      visibility: sheet.visibility,
      cells: [...sheet.cells].sort(([a], [b]) => a - b).flatMap(([row, line]) =>
        [...line].map(([column, cell]): WorkbookDump["sheets"][number]["cells"][number] => [row, column, cell.value, cell.formula ?? null, cell.numberFormat])),
    })),
    tables: model.tables.map((t) => ({ name: t.name, sheet: t.sheet.name, area: `${t.area.row},${t.area.column},${t.area.rowCount},${t.area.columnCount}` })),
  };
}

/** An Excel host (what `new ExcelWorkbook(...)` takes) whose workbook lives in a worker thread. */
export class RemoteExcel implements ExcelHost {
  private readonly worker: Worker;
  private readonly excel: FakeExcel;
  private nextRequest = 1;
  private readonly waiting = new Map<number, (reply: FromWorker) => void>();
  /** Requests sent and not answered yet, and since when one has been: Excel's busy time (see excelMs). */
  private outstanding = 0;
  private busySince = 0;
  private busyMs = 0;

  /** `latencyMs` gives every request the cost of a round trip to Excel, spent in the worker. */
  constructor(latencyMs = 0) {
    // tsx's require hook in the worker, so that it runs the TypeScript sources as they are.
    this.worker = new Worker(`require("tsx/cjs"); require(${JSON.stringify(join(__dirname, "excel-worker.ts"))});`, { eval: true, workerData: { latencyMs }, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
    this.worker.on("message", (reply: FromWorker) => {
      const resolve = this.waiting.get(reply.request);
      this.waiting.delete(reply.request);
      resolve?.(reply);
    });
    this.excel = new FakeExcel(undefined, {
      endpoint: () => ({ processQuery: (body, flags) => this.processQuery(body, flags) }),
    });
  }

  /** One request's JSON text, as Office.js sent it, answered by the worker's Excel (also for an add-in in another thread). */
  async processQuery(body: string, flags: number): Promise<string> {
    if (this.outstanding++ === 0) this.busySince = performance.now();
    try {
      const reply = await this.ask({ type: "query", request: 0, body, flags });
      if (!("answer" in reply)) throw new Error("the Excel worker did not answer the request");
      return reply.answer;
    } finally {
      if (--this.outstanding === 0) this.busyMs += performance.now() - this.busySince;
    }
  }

  private ask(message: ToWorker): Promise<FromWorker> {
    const request = this.nextRequest++;
    return new Promise((resolve) => {
      this.waiting.set(request, resolve);
      this.worker.postMessage({ ...message, request });
    });
  }

  /**
   * Wall time during which at least one request was with Excel (sent, not yet answered) since the last
   * call: the add-in's wait for Excel, however many requests were out at once.
   */
  takeExcelMs(): number {
    const ms = this.busyMs;
    this.busyMs = 0;
    return ms;
  }

  /** Microsoft's Excel.run, its requests answered by the worker's Excel. */
  run<T>(options: Excel.RunOptions, batch: (context: XContext) => Promise<T>): Promise<T> {
    return this.excel.run(options, batch);
  }

  /** The worker's counts, its cells, and its heap once collected (see ExcelStats). */
  async stats(): Promise<ExcelStats> {
    const reply = await this.ask({ type: "stats", request: 0 });
    if (!("stats" in reply)) throw new Error("the Excel worker gave no stats");
    return reply.stats;
  }

  async dump(): Promise<WorkbookDump> {
    const reply = await this.ask({ type: "dump", request: 0 });
    if (!("dump" in reply)) throw new Error("the Excel worker gave no dump");
    return reply.dump;
  }

  /** A fresh, empty workbook in the same worker (the old one is left to the worker's collector). */
  async reset(): Promise<void> {
    await this.ask({ type: "reset", request: 0 });
  }

  /** Keeps a copy of the worker's workbook as it is now (restore starts from it). */
  async save(): Promise<void> {
    await this.ask({ type: "save", request: 0 });
  }

  /** A copy of the saved workbook, with a fresh count of requests. */
  async restore(): Promise<void> {
    await this.ask({ type: "restore", request: 0 });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
