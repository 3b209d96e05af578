/** Starts the sandbox on a real HTTP server; used by the CLI, the tests and the benchmarks. */
import { getRequestListener } from "@hono/node-server";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createApp } from "./app";
import type { CardCloseOptions } from "./demo-card-close";
import { generateDemoData } from "./demo-data";
import { FaultInjector, NO_FAULTS, type FaultOptions, type FaultTiming } from "./faults";
import { continueOrRefuse, guard, sendError } from "./http-guard";
import { DEFAULT_CONNECTION_LIMITS, MAX_HEADER_BYTES, type ConnectionLimits } from "./limits";
import type { SandboxData } from "./model";
import { DataFile } from "./persistence";
import { clientErrorAnswerer, endWith, rawResponse, refuseConnect } from "./raw-answers";
import { Store } from "./store";

/** Limits that cannot work together, refused before the sandbox listens. */
class LimitsError extends Error {
  override readonly name = "LimitsError";
}

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  scale?: number;
  /** YYYY-MM-DD the demo dates lead up to; default: the first day of the current month (UTC). */
  anchor?: string;
  /** Adds the card-close cards with their hidden truth (`--card-close N`: N movements in the first one's period). */
  cardClose?: CardCloseOptions;
  /** Persist state to this JSON file and reload it on start. */
  dataFile?: string;
  /** With dataFile: changes logged between two snapshots (default COMPACT_EVERY). */
  compactEvery?: number;
  faults?: Partial<FaultOptions>;
  /** Clock and sleep of fault injection; tests replace them so nothing depends on wall-clock time. */
  faultTiming?: Partial<FaultTiming>;
  /** Time and connection limits (DEFAULT_CONNECTION_LIMITS for what is not given). */
  limits?: Partial<ConnectionLimits>;
  /** Told, one line each, of the connections the sandbox ends itself (timeouts, the cap); never a header. Default: nothing. */
  log?: (line: string) => void;
}

/** The start-up line of `--json` (the contract tests and tools rely on). */
export interface SandboxManifest {
  base_url: string;
  enterprises: {
    id: string;
    api_key: string;
    subsidiaries: string[];
    cards: { id: string; billing_periods: string[] }[];
    /**
     * What a person calls each subsidiary, card and billing period above ("Andes Logistics Chile (CLP)",
     * "•••• 9575 — Sebastián Rojas", "2026-10-06 to 2026-11-05"): the service lists no subsidiaries and no
     * billing periods, so npm start hands these to the workbench's pickers (tools/demo-ids.ts). Never a key.
     */
    names: Record<string, string>;
  }[];
}

export interface RunningSandbox {
  baseUrl: string;
  store: Store;
  faults: FaultInjector;
  manifest(): SandboxManifest;
  close(): Promise<void>;
}

function defaultAnchor(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? 1;
  const fresh = () => generateDemoData({
    seed, scale: options.scale ?? 1, anchor: options.anchor ?? defaultAnchor(), cardClose: options.cardClose,
  });
  const file = options.dataFile ? DataFile.open(options.dataFile, fresh, options.compactEvery) : undefined;
  const data: SandboxData = file?.data ?? fresh();
  const store = new Store(data);
  if (file) store.onChange((change) => file.append(change));
  const faults = new FaultInjector({ ...NO_FAULTS, ...options.faults }, seed, options.faultTiming);
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) {
    throw new LimitsError(`The request timeout (${limits.requestTimeoutMs} ms) must be at least the headers timeout (${limits.headersTimeoutMs} ms).`);
  }
  const log = options.log ?? (() => undefined);
  // The handler needs the listening address (links are built from it), known only once listening.
  let handle = (_req: IncomingMessage, res: ServerResponse) => sendError(res, 503, "The sandbox is starting.");
  // requireHostHeader off: the guard answers a missing Host itself, as JSON, and lets HTTP/1.0 through.
  const server: Server = createServer({
    requireHostHeader: false, maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs,
    // Node checks the two timeouts only this often (30 s by default): a tenth of the shorter keeps a stalled
    // client within 10% of its limit.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 10))),
  }, (req, res) => void handle(req, res));
  server.on("clientError", clientErrorAnswerer(limits, log));
  server.on("connect", refuseConnect);
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open++;
    socket.once("close", () => open--);
    if (open > limits.maxConnections) {
      log(`503 over connection cap (${limits.maxConnections})`);
      endWith(socket, rawResponse(503, `The sandbox is at its limit of ${limits.maxConnections} connections; try again in a moment.`, { "Retry-After": "1" }));
    }
  });
  server.on("checkContinue", (req, res) => continueOrRefuse(handle)(req, res));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const baseUrl = `http://${authority}`;
  handle = faults.wrap(guard(authority, getRequestListener(createApp(store).fetch), limits.idleTimeoutMs, log));
  return {
    baseUrl,
    store,
    faults,
    manifest: () => manifestOf(baseUrl, store),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await file?.close();
    },
  };
}

function manifestOf(baseUrl: string, store: Store): SandboxManifest {
  return {
    base_url: baseUrl,
    enterprises: store.data.enterprises.map((e) => ({
      id: e.id,
      api_key: e.api_key,
      subsidiaries: store.subsidiariesOf(e.id).map((s) => s.id),
      cards: store.cardsOf(e.id).map((c) => ({ id: c.id, billing_periods: store.billingPeriodsOf(c.id).map((p) => p.id) })),
      names: namesOf(store, e.id),
    })),
  };
}

/** Each subsidiary's, card's and billing period's name in one enterprise, by id (SandboxManifest.names). */
function namesOf(store: Store, enterpriseId: string): Record<string, string> {
  const names: Record<string, string> = {};
  for (const s of store.subsidiariesOf(enterpriseId)) names[s.id] = `${s.name} (${s.currency})`;
  for (const c of store.cardsOf(enterpriseId)) {
    const holder = store.person(c.user_id);
    names[c.id] = `•••• ${c.last_four_digits}${holder ? ` — ${holder.first_name} ${holder.last_name}` : ""}`;
    for (const p of store.billingPeriodsOf(c.id)) names[p.id] = `${p.start_date} to ${p.end_date}`;
  }
  return names;
}
