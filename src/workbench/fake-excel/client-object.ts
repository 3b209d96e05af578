/** The request-context machinery: queued operations, load(), sync() and its payload accounting. */
import { FakeExcelError, notLoaded } from "./errors";

/** Excel on the web refuses a request larger than this. */
export const PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;

interface Operation {
  bytes: number;
  run(): void;
}

export interface SyncStats {
  /** Requests sent (syncs that carried at least one operation). */
  syncs: number;
  /** Size of every request, in order. */
  requestBytes: number[];
  /** suspendApiCalculationUntilNextSync calls. */
  calculationSuspensions: number;
}

export class Context {
  private queue: Operation[] = [];

  constructor(readonly stats: SyncStats, private readonly latencyMs = 0) {}

  /** Queues an operation; `payload` is what would travel to Excel (its JSON size is counted). */
  enqueue(payload: unknown, run: () => void): void {
    const json = payload === undefined ? "" : JSON.stringify(payload);
    this.queue.push({ bytes: 64 + (json?.length ?? 0), run });
  }

  async sync(): Promise<void> {
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0) return;
    const bytes = ops.reduce((sum, op) => sum + op.bytes, 0);
    this.stats.syncs++;
    this.stats.requestBytes.push(bytes);
    // A round trip to Excel: zero by default; benchmarks set one so that a sync has its real cost.
    await (this.latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.latencyMs)) : Promise.resolve());
    if (bytes > PAYLOAD_LIMIT_BYTES) {
      throw new FakeExcelError(
        "RequestPayloadSizeLimitExceeded",
        `The request payload size has exceeded the limit (${bytes} bytes > ${PAYLOAD_LIMIT_BYTES}). Split the work into smaller requests.`,
      );
    }
    // Operations run in order; one that fails stops the rest, as in Excel.
    for (const op of ops) op.run();
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

  load(properties?: string | string[] | { select?: string }): this {
    const names = normalise(properties) ?? [...this.scalarProperties];
    this.ctx.enqueue({ load: names }, () => {
      for (const name of names) this.loaded.set(name, this.snapshot(name));
    });
    return this;
  }

  protected read<T>(property: string): T {
    if (!this.loaded.has(property)) throw notLoaded(property);
    return this.loaded.get(property) as T;
  }

  /** For null objects: answers after sync, whatever was loaded. */
  protected markLoaded(property: string, value: unknown): void {
    this.loaded.set(property, value);
  }

  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.loaded);
  }
}

function normalise(properties?: string | string[] | { select?: string }): string[] | undefined {
  if (properties === undefined) return undefined;
  const list = typeof properties === "string" ? properties.split(",") : Array.isArray(properties) ? properties : (properties.select ?? "").split(",");
  return list.map((p) => p.trim()).filter(Boolean);
}
