/**
 * The in-memory Excel in a thread of its own, as Excel is a process of its own: the add-in's thread only
 * queues operations and, at each sync, sends them (structured-cloned, as Office.js serialises its request)
 * and receives what was loaded. The cells, and the CPU that applies a request to them, are then Excel's,
 * not the add-in's: the benchmark's heap and CPU figures are the add-in's alone, and a load's fetching can
 * overlap Excel's work as it does in Excel.
 *
 * The proxies speak the subset of the Excel API the adapter uses (src/sheets/excel-api.ts). Navigation
 * properties give proxies, methods queue a call, scalar properties answer what the last syncs loaded and
 * refuse the rest (PropertyNotLoaded), as Office.js does. The worker (excel-worker.ts) replays every
 * operation on a real FakeExcel, so each of its rules (payload limits, shapes, typing) still applies.
 */
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import type { ExcelHost, XContext } from "../src/sheets/excel-api";
import type { WorkbookModel } from "../src/workbench/fake-excel";
import type { SyncStats } from "../src/workbench/fake-excel/client-object";

/** One queued operation; every object the add-in reaches has an id (the request context is 0). */
export type Operation =
  | { op: "get"; id: number; parent: number; name: string }
  | { op: "call"; id: number; parent: number; name: string; args: unknown[] }
  /** The value travels as its JSON text: cheap to post, parsed once in the worker, its size known there. */
  | { op: "set"; parent: number; name: string; json: string };

export type ToWorker =
  | { type: "begin"; run: number; options: Excel.RunOptions }
  | { type: "sync"; run: number; request: number; ops: Operation[] }
  | { type: "end"; run: number }
  | { type: "stats"; request: number }
  | { type: "reset"; request: number }
  | { type: "dump"; request: number };

export type WorkerError = { name: string; code: string; message: string };

export type FromWorker =
  | { request: number; ok: true; loaded: [number, Record<string, unknown>][] }
  | { request: number; ok: false; error: WorkerError }
  | { request: number; ok: true; stats: ExcelStats }
  | { request: number; ok: true; dump: WorkbookDump };

/** A workbook's content, to compare two Excels (tests): every sheet's cells and every table's place. */
export interface WorkbookDump {
  sheets: { name: string; visibility: string; cells: [number, number, string | number | boolean, string | null, string][] }[];
  tables: { name: string; sheet: string; area: string }[];
}

/** The worker's FakeExcel counters, the cells its workbook holds, and its thread's live heap. */
export type ExcelStats = SyncStats & { largestRequestBytes: number; cells: number; heapBytes: number };

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

/** Properties that lead to another object (everything else the adapter reads is a loaded scalar). */
const NAVIGATION = new Set(["workbook", "application", "worksheets", "tables", "settings", "format", "fill", "font", "dataValidation", "worksheet", "freezePanes"]);
/** Methods of the subset: each queues a call whose result, if any, is an object the add-in may go on using. */
const METHODS = new Set([
  "load", "clear", "select", "getColumn", "getRow", "getCell", "getRange", "getHeaderRowRange", "getDataBodyRange", "resize", "delete", "add",
  "getItemOrNullObject", "getRangeByIndexes", "freezeRows", "activate", "suspendApiCalculationUntilNextSync", "calculate",
]);

class RemoteRun {
  private ops: Operation[] = [];
  private nextId = 1;
  private readonly loaded = new Map<number, Record<string, unknown>>();
  private readonly children = new Map<string, object>();
  readonly context: XContext;

  constructor(readonly run: number, private readonly host: RemoteExcel) {
    this.context = this.proxy(0) as XContext;
  }

  private proxy(id: number): object {
    const self: object = new Proxy(
      {},
      {
        get: (_target, name) => {
          if (typeof name !== "string" || name === "then") return undefined;
          if (name === "toJSON") return () => ({ ...this.loaded.get(id) });
          if (id === 0 && name === "sync") return <T>(pass?: T) => this.sync().then(() => pass as T);
          if (NAVIGATION.has(name)) return this.child(id, name);
          if (METHODS.has(name)) {
            return (...args: unknown[]) => {
              const call = this.nextId++;
              this.ops.push({ op: "call", id: call, parent: id, name, args });
              return name === "load" ? self : this.proxy(call);
            };
          }
          const values = this.loaded.get(id);
          if (values && name in values) return values[name];
          throw Object.assign(new Error(`The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`), { name: "RichApi.Error", code: "PropertyNotLoaded" });
        },
        set: (_target, name, value) => {
          if (typeof name !== "string") return false;
          // Serialised as the add-in queues it. Office.js keeps the reference and serialises the whole request at
          // sync() (EXCEL-FACTS, "Setter arguments"): the same work on the add-in's thread, done a little earlier.
          this.ops.push({ op: "set", parent: id, name, json: JSON.stringify(value) });
          return true;
        },
      },
    );
    return self;
  }

  private child(parent: number, name: string): object {
    const key = `${parent}.${name}`;
    let child = this.children.get(key);
    if (!child) {
      const id = this.nextId++;
      this.ops.push({ op: "get", id, parent, name });
      child = this.proxy(id);
      this.children.set(key, child);
    }
    return child;
  }

  async sync(): Promise<void> {
    const ops = this.ops;
    this.ops = [];
    if (ops.length === 0) return;
    const reply = await this.host.ask({ type: "sync", run: this.run, request: 0, ops });
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), { name: reply.error.name, code: reply.error.code });
    if ("loaded" in reply) for (const [id, values] of reply.loaded) this.loaded.set(id, { ...this.loaded.get(id), ...values });
  }
}

/** An Excel host (what `new ExcelWorkbook(...)` takes) whose workbook lives in a worker thread. */
export class RemoteExcel implements ExcelHost {
  private readonly worker: Worker;
  private nextRun = 1;
  private nextRequest = 1;
  private readonly waiting = new Map<number, (reply: FromWorker) => void>();

  /** `latencyMs` gives every sync the cost of a round trip to Excel, spent in the worker. */
  constructor(latencyMs = 0) {
    // tsx's require hook in the worker, so that it runs the TypeScript sources as they are.
    this.worker = new Worker(`require("tsx/cjs"); require(${JSON.stringify(join(__dirname, "excel-worker.ts"))});`, { eval: true, workerData: { latencyMs }, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
    this.worker.on("message", (reply: FromWorker) => {
      const resolve = this.waiting.get(reply.request);
      this.waiting.delete(reply.request);
      resolve?.(reply);
    });
  }

  ask(message: Extract<ToWorker, { request: number }>): Promise<FromWorker> {
    const request = this.nextRequest++;
    return new Promise((resolve) => {
      this.waiting.set(request, resolve);
      this.worker.postMessage({ ...message, request });
    });
  }

  async run<T>(options: Excel.RunOptions, batch: (context: XContext) => Promise<T>): Promise<T> {
    const run = new RemoteRun(this.nextRun++, this);
    this.worker.postMessage({ type: "begin", run: run.run, options } satisfies ToWorker);
    try {
      const result = await batch(run.context);
      await run.sync();
      return result;
    } finally {
      this.worker.postMessage({ type: "end", run: run.run } satisfies ToWorker);
    }
  }

  /** The worker's FakeExcel counters, its cells, and its heap once collected (see ExcelStats). */
  async stats(): Promise<ExcelStats> {
    const reply = await this.ask({ type: "stats", request: 0 });
    if (!reply.ok || !("stats" in reply)) throw new Error("the Excel worker gave no stats");
    return reply.stats;
  }

  async dump(): Promise<WorkbookDump> {
    const reply = await this.ask({ type: "dump", request: 0 });
    if (!reply.ok || !("dump" in reply)) throw new Error("the Excel worker gave no dump");
    return reply.dump;
  }

  /** A fresh, empty workbook in the same worker (the old one is left to the worker's collector). */
  async reset(): Promise<void> {
    await this.ask({ type: "reset", request: 0 });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
