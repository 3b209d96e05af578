/** Starts the sandbox on a real HTTP server; used by the CLI, the tests and the benchmarks. */
import { getRequestListener } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import { generateDemoData } from "./demo-data";
import { FaultInjector, NO_FAULTS, type FaultOptions } from "./faults";
import type { SandboxData } from "./model";
import { DataFile, loadData } from "./persistence";
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
  faults?: Partial<FaultOptions>;
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
  let data: SandboxData | undefined = options.dataFile ? loadData(options.dataFile) : undefined;
  data ??= generateDemoData({ seed, scale: options.scale ?? 1, anchor: options.anchor ?? defaultAnchor() });
  const store = new Store(data);
  let file: DataFile | undefined;
  if (options.dataFile) {
    file = new DataFile(options.dataFile, data);
    file.saveNow();
    store.onChange(() => file?.schedule());
  }
  const faults = new FaultInjector({ ...NO_FAULTS, ...options.faults }, seed);
  const listener = faults.wrap(getRequestListener(createApp(store).fetch));
  const server: Server = createServer((req, res) => void listener(req, res));
  // A client that drops its side mid-request must not take the process down.
  server.on("clientError", (_err, socket) => socket.destroy());
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
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
      await file?.flush();
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
