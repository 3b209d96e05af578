/**
 * Team mode on real sockets: the real sandbox behind a counting proxy (how many PATCHes reach it, per path),
 * the local identity provider, and one or more gateways in team mode on a shared database.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AccessLogEntry } from "../../../src/gateway";
import { startGateway, type NodeListen, type RunningGateway } from "../../../src/gateway/node-server";
import type { TeamConfig } from "../../../src/gateway/team/config";
import { openPglite as openPgliteInNode } from "../../../src/gateway/team/databases";
import { createTeamGate, type TeamGate } from "../../../src/gateway/team/gate";
import type { SqlClient } from "../../../src/gateway/team/sql";
import { startIdp, type RunningIdp } from "../../../src/idp/server";
import { withSandbox, type SandboxFixture } from "../../support/sandbox";
import { teamConfigFor } from "./team-fixture";

const ORIGIN = "http://127.0.0.1:3000";

/** A proxy that counts every PATCH reaching the sandbox, per path. */
interface CountingProxy {
  baseUrl: string;
  patches: Map<string, number>;
  /** Every request that reached it, PATCH or not ("GET /public/v1/..."). */
  seen: string[];
  /** PATCH answers to lose (the service applied the change; its answer never reaches the gateway). */
  losePatchAnswers: number;
  /** PATCH requests to drop before they reach the service (nothing applied; the gateway's connection breaks). */
  dropPatchRequests: number;
  close(): Promise<void>;
}

async function countingProxy(target: string): Promise<CountingProxy> {
  const patches = new Map<string, number>();
  const seen: string[] = [];
  const proxy = { losePatchAnswers: 0, dropPatchRequests: 0 };
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "PATCH") patches.set(req.url ?? "", (patches.get(req.url ?? "") ?? 0) + 1);
      if (req.method === "PATCH" && proxy.dropPatchRequests > 0) {
        proxy.dropPatchRequests--;
        return void res.socket?.destroy();
      }
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type", "accept"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
      fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }).then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        if (req.method === "PATCH" && proxy.losePatchAnswers > 0) {
          proxy.losePatchAnswers--;
          return void res.socket?.destroy();
        }
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(body);
      }, () => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(proxy, {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    patches,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  });
}

export interface TeamWorld {
  sandbox: SandboxFixture;
  proxy: CountingProxy;
  idp: RunningIdp;
  config: TeamConfig;
  /** Log lines of every gateway started, as they were written. */
  logs: string[];
  startGateway(db: SqlClient, options?: { now?: () => number; listen?: NodeListen; inFlightWaitMs?: number }): Promise<{ gateway: RunningGateway; gate: TeamGate }>;
  close(): Promise<void>;
}

export async function teamWorld(overrides: Partial<TeamConfig> = {}): Promise<TeamWorld> {
  const sandbox = await withSandbox();
  const proxy = await countingProxy(sandbox.sandbox.baseUrl);
  const idp = await startIdp();
  const config = teamConfigFor(idp, { enterpriseKey: sandbox.enterprise.api_key, enterpriseId: sandbox.enterprise.id, ...overrides });
  const logs: string[] = [];
  const gateways: RunningGateway[] = [];
  return {
    sandbox, proxy, idp, config, logs,
    async startGateway(db, options = {}) {
      const gate = await createTeamGate(config, db, { now: options.now, inFlightWaitMs: options.inFlightWaitMs });
      const gateway = await startGateway({ target: proxy.baseUrl, allowOrigins: [ORIGIN], team: gate, log: (entry: AccessLogEntry) => logs.push(JSON.stringify(entry)) }, options.listen);
      gateways.push(gateway);
      return { gateway, gate };
    },
    async close() {
      for (const g of gateways) await g.close();
      await proxy.close();
      await idp.close();
      await sandbox.sandbox.close();
    },
  };
}

/**
 * PGlite in memory. Jest's environment here carries a `window` (for Office.js), which makes PGlite take
 * itself for a browser page and look for `window.location`; these tests use no Office.js, so it goes.
 */
export function openPglite(dataDir?: string): Promise<SqlClient> {
  Reflect.deleteProperty(globalThis, "window");
  return openPgliteInNode(dataDir);
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request to a gateway, as the add-in would make it. */
export async function call(baseUrl: string, method: string, path: string, options: { token?: string; body?: unknown; batch?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.batch !== undefined) headers["X-Spend-Batch"] = options.batch;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A batch marking `count` approved expenses of the first subsidiary accounted, as the add-in's Preview would freeze it. */
export async function batchOfApproved(world: TeamWorld, count: number, skip = 0): Promise<{ requests: { method: string; path: string; body: string }[]; rows: unknown[] }> {
  const sub = world.sandbox.enterprise.subsidiaries[0];
  const path = `${world.sandbox.prefix}/subsidiaries/${sub}/expenses/`;
  const list = await world.sandbox.call("GET", `${path}?state=approved&page_size=1000`);
  const expenses = (list.json.results as { id: string; amount: string; currency: string; description?: string }[]).slice(skip, skip + count);
  if (expenses.length < count) throw new RangeError(`Only ${expenses.length} approved expenses to batch.`);
  const requests = expenses.map((e, i) => ({ method: "PATCH", path: `${path}${e.id}/`, body: JSON.stringify({ state: "accounted", accounted_id: `ACC-${skip + i + 1}` }) }));
  const rows = expenses.map((e, i) => ({ request: i, id: e.id, label: e.description ?? "", from: "approved", to: "accounted", amount: String(e.amount), currency: e.currency }));
  return { requests, rows };
}
