/** Starts the sandbox on a real HTTP server; used by the CLI, the tests and the benchmarks. */
import { getRequestListener } from "@hono/node-server";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import { generateDemoData } from "./demo-data";
import { FaultInjector, NO_FAULTS, type FaultOptions, type FaultTiming } from "./faults";
import { continueOrRefuse, guard, sendError } from "./http-guard";
import { MAX_HEADER_BYTES } from "./limits";
import type { SandboxData } from "./model";
import { DataFile } from "./persistence";
import { answerClientError, refuseConnect } from "./raw-answers";
import { Store } from "./store";

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  scale?: number;
  /** YYYY-MM-DD the demo dates lead up to; default: the first day of the current month (UTC). */
  anchor?: string;
  /** Persist state to this JSON file and reload it on start. */
  dataFile?: string;
  /** With dataFile: changes logged between two snapshots (default COMPACT_EVERY). */
  compactEvery?: number;
  faults?: Partial<FaultOptions>;
  /** Clock and sleep of fault injection; tests replace them so nothing depends on wall-clock time. */
  faultTiming?: Partial<FaultTiming>;
}

/** The start-up line of `--json` (the contract tests and tools rely on). */
export interface SandboxManifest {
  base_url: string;
  enterprises: {
    id: string;
    api_key: string;
    subsidiaries: string[];
    cards: { id: string; billing_periods: string[] }[];
  }[];
}

export interface RunningSandbox {
  baseUrl: string;
  store: Store;
  faults: FaultInjector;
  manifest(): SandboxManifest;
  close(): Promise<void>;
}

export function defaultAnchor(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? 1;
  const fresh = () => generateDemoData({ seed, scale: options.scale ?? 1, anchor: options.anchor ?? defaultAnchor() });
  const file = options.dataFile ? DataFile.open(options.dataFile, fresh, options.compactEvery) : undefined;
  const data: SandboxData = file?.data ?? fresh();
  const store = new Store(data);
  if (file) store.onChange((change) => file.append(change));
  const faults = new FaultInjector({ ...NO_FAULTS, ...options.faults }, seed, options.faultTiming);
  // The handler needs the listening address (links are built from it), known only once listening.
  let handle = (_req: IncomingMessage, res: ServerResponse) => sendError(res, 503, "The sandbox is starting.");
  // requireHostHeader off: the guard answers a missing Host itself, as JSON, and lets HTTP/1.0 through.
  const server: Server = createServer({ requireHostHeader: false, maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => void handle(req, res));
  server.on("clientError", answerClientError);
  server.on("connect", refuseConnect);
  server.on("checkContinue", (req, res) => continueOrRefuse(handle)(req, res));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const baseUrl = `http://${authority}`;
  handle = faults.wrap(guard(authority, getRequestListener(createApp(store).fetch)));
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
    })),
  };
}
