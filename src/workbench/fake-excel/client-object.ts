/** The request-context machinery: queued operations, load(), sync(), payload accounting, cell edit mode. */
import { FakeExcelError, notLoaded } from "./errors";
import type { WorkbookModel } from "./model";

/**
 * Excel on the web refuses a request or a response over 5 MB:
 * https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization#excel-add-ins
 * "5 MB" is read as 5,000,000 bytes of UTF-8 JSON, the stricter of its two readings.
 */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;

/**
 * What one queued operation costs beyond its own arguments: Office.js sends each as an action
 * (`{"Id":..,"ActionType":..,"Name":..,"ObjectPathId":..,"ArgumentInfo":{..}}`) plus an object path for
 * the object it acts on. Not documented as a number; 200 bytes is above what those two JSON objects take.
 */
export const OPERATION_OVERHEAD_BYTES = 200;

const encoder = new TextEncoder();
const SLICE = 1 << 16;
/** Room for any slice: a UTF-16 unit never takes more than 3 bytes. */
const scratch = new Uint8Array(SLICE * 3);

/**
 * The UTF-8 size of `text`, as TextEncoder encodes it (a lone surrogate becomes U+FFFD, 3 bytes), without
 * allocating its bytes: a chunk of a load is megabytes of JSON. Encoded a slice at a time into one scratch
 * buffer; a slice never ends between the two halves of a surrogate pair.
 */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    bytes += encoder.encodeInto(start === 0 && end === text.length ? text : text.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}

interface Operation {
  bytes: number;
  run(): void;
}

export interface SyncStats {
  /** Requests sent (syncs that carried at least one operation). */
  syncs: number;
  /** Size of every request, in order (UTF-8 bytes). */
  requestBytes: number[];
  /** Operations (loads, writes, calls) of every request, in order. */
  operations: number[];
  /** Size of every response Excel sent, in order (UTF-8 bytes of the loaded values). */
  responseBytes: number[];
  /** Responses refused as over the limit (their request failed with ResponsePayloadSizeLimitExceeded). */
  refusedResponses: number;
  /** suspendApiCalculationUntilNextSync calls. */
  calculationSuspensions: number;
}

export interface RunSettings {
  /** Excel.RunOptions.delayForCellEdit: wait for the user to leave cell edit mode instead of failing. */
  delayForCellEdit: boolean;
  /** The cost of a round trip to Excel (benchmarks). */
  latencyMs: number;
  /** A request's size already known to whoever sent it (bench/excel-worker.ts, which receives it as text). */
  knownBytes?: PayloadSize;
}

/** The UTF-8 JSON size of an operation's payload when the caller knows it, else undefined (then it is counted here). */
export type PayloadSize = (payload: unknown) => number | undefined;

export class Context {
  private queue: Operation[] = [];
  private responseBytes = 0;
  /** Set while a sync runs its operations: what those operations loaded, to forget if the response is refused. */
  private loadedNow: (() => void)[] = [];
  private suspendedNow = false;

  constructor(readonly stats: SyncStats, readonly model: WorkbookModel, private readonly settings: RunSettings) {}

  /** Queues an operation; `payload` is what would travel to Excel (its UTF-8 JSON size is counted). */
  enqueue(payload: unknown, run: () => void): void {
    const known = payload === undefined ? 0 : this.settings.knownBytes?.(payload);
    const bytes = known ?? utf8Bytes(JSON.stringify(payload) ?? "");
    this.queue.push({ bytes: OPERATION_OVERHEAD_BYTES + bytes, run });
  }

  /** Called by a load while it runs: the loaded value travels back in the response. */
  respond(value: unknown, forget: () => void): void {
    this.responseBytes += OPERATION_OVERHEAD_BYTES + utf8Bytes(JSON.stringify(value) ?? "");
    this.loadedNow.push(forget);
  }

  /** Called by suspendApiCalculationUntilNextSync while it runs. */
  suspendCalculation(): void {
    this.suspendedNow = true;
  }

  /** Called by application.calculate while it runs: recalculation happens unless this very request suspended it. */
  calculate(): void {
    if (!this.suspendedNow) this.model.recalculationPending = false;
  }

  async sync(): Promise<void> {
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0) return;
    const bytes = ops.reduce((sum, op) => sum + op.bytes, 0);
    this.stats.syncs++;
    this.stats.requestBytes.push(bytes);
    this.stats.operations.push(ops.length);
    await (this.settings.latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.settings.latencyMs)) : Promise.resolve());
    // A batch sent while the user edits a cell fails, unless the run asked to wait (Excel.RunOptions in the d.ts:
    // "When false, if the user is in cell edit when the batch request is processed by the host, the batch automatically fails").
    while (this.model.cellEdit) {
      if (!this.settings.delayForCellEdit) {
        throw new FakeExcelError(
          "InvalidOperationInCellEditMode",
          "Excel is in cell-editing mode. Please exit the edit mode by pressing ENTER or TAB or selecting another cell, and then try again.",
        );
      }
      const edit = this.model.cellEdit;
      edit.waiting++;
      await edit.ended;
      edit.waiting--;
    }
    if (bytes > PAYLOAD_LIMIT_BYTES) {
      throw new FakeExcelError(
        "RequestPayloadSizeLimitExceeded",
        `The request payload size has exceeded the limit (${bytes} bytes > ${PAYLOAD_LIMIT_BYTES}). Split the work into smaller requests.`,
      );
    }
    this.responseBytes = 0;
    this.loadedNow = [];
    this.suspendedNow = false;
    try {
      // Operations run in order; one that fails stops the rest, as in Excel.
      for (const op of ops) op.run();
    } finally {
      if (this.suspendedNow) this.model.recalculationPending = true;
      this.model.normaliseTables();
      this.model.flushChanges();
    }
    if (this.responseBytes > PAYLOAD_LIMIT_BYTES) {
      this.stats.refusedResponses++;
      for (const forget of this.loadedNow) forget();
      throw new FakeExcelError(
        "ResponsePayloadSizeLimitExceeded",
        `The response payload size has exceeded the limit (${this.responseBytes} bytes > ${PAYLOAD_LIMIT_BYTES}). Read less per request.`,
      );
    }
    this.stats.responseBytes.push(this.responseBytes);
  }
}

/** Base of every proxy: properties must be loaded and synced before they are read. */
export abstract class ClientObject {
  private readonly loaded = new Map<string, unknown>();

  constructor(protected readonly ctx: Context) {}

  /** Scalar properties loaded when load() is called with no argument. */
  protected abstract readonly scalarProperties: readonly string[];

  /** The property's current value in the model (runs inside sync). */
  protected abstract snapshot(property: string): unknown;

  load(propertyNames?: string | string[]): this {
    const names = normalise(propertyNames) ?? [...this.scalarProperties];
    this.ctx.enqueue({ load: names }, () => {
      for (const name of names) {
        const value = this.snapshot(name);
        this.loaded.set(name, value);
        this.ctx.respond(value, () => this.loaded.delete(name));
      }
    });
    return this;
  }

  /**
   * Reading a property that was not loaded and synced throws PropertyNotLoaded:
   * https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-core-concepts#sync-and-load
   */
  protected read<T>(property: string): T {
    if (!this.loaded.has(property)) throw notLoaded(property);
    return this.loaded.get(property) as T;
  }

  /** Known after a sync only, for objects got with a *OrNullObject method (they redefine it on the instance). */
  get isNullObject(): boolean {
    return this.read("isNullObject");
  }

  /** For null objects and collections' items: answers after sync, whatever was loaded. */
  markLoaded(property: string, value: unknown): void {
    this.loaded.set(property, value);
  }

  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.loaded);
  }
}

function normalise(properties?: string | string[]): string[] | undefined {
  if (properties === undefined) return undefined;
  const list = typeof properties === "string" ? properties.split(",") : properties;
  return list.map((p) => p.trim()).filter(Boolean);
}
