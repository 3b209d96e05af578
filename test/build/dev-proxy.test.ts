/**
 * The dev server's /proxy forwards the add-in's calls, key included, to a service without CORS. It answers
 * only the add-in's own origin: a page on another origin gets a 403 and no CORS grant, and the service's own
 * `Access-Control-Allow-Origin: *` is replaced. A real webpack-dev-server with the project's devServer
 * options (a one-line bundle instead of the add-in), in front of a real upstream on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import webpack from "webpack";
import WebpackDevServer from "webpack-dev-server";
import { ROOT } from "../support/process";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, "webpack.config.js"));

jest.setTimeout(60_000);

let upstream: Server;
let upstreamCalls: string[];
let dev: WebpackDevServer;
let base: string;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  upstreamCalls = [];
  upstream = createServer((req, res) => {
    upstreamCalls.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Credentials": "true" });
    res.end(JSON.stringify({ ok: true }));
  });
  const upstreamPort = await listen(upstream);
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((r) => probe.close(r));

  const saved = { ...process.env };
  Object.assign(process.env, { SPEND_SERVICE_URL: `http://127.0.0.1:${upstreamPort}`, SPEND_DEV_PORT: String(port), SPEND_DEV_HOST: "127.0.0.1", SPEND_HTTPS: "0" });
  const options = await config({ WEBPACK_SERVE: true }, { mode: "development" });
  process.env = saved;

  const dir = mkdtempSync(join(tmpdir(), "spend-dev-"));
  writeFileSync(join(dir, "tiny.js"), "console.log(1);\n");
  const compiler = webpack({ mode: "development", context: dir, entry: { tiny: join(dir, "tiny.js") }, output: { path: join(dir, "out") }, devtool: false });
  dev = new WebpackDevServer({ ...options.devServer, hot: false, liveReload: false, client: false }, compiler);
  await dev.start();
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await dev?.stop();
  if (upstream?.listening) await new Promise((r) => upstream.close(r));
});

describe("the dev proxy", () => {
  it("forwards the add-in's own calls, granting CORS to its origin only (never *)", async () => {
    for (const headers of [{ Origin: base }, {} as Record<string, string>]) {
      const response = await fetch(`${base}/proxy/public/v1/enterprises/e/corporate-cards/`, { headers: { ...headers, Authorization: "Api-Key k" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe(base);
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("vary")).toMatch(/Origin/);
    }
    expect(upstreamCalls).toEqual(["GET /public/v1/enterprises/e/corporate-cards/", "GET /public/v1/enterprises/e/corporate-cards/"]);
  });

  it("refuses another origin before anything reaches the service, preflight included", async () => {
    upstreamCalls.length = 0;
    for (const method of ["GET", "OPTIONS", "PATCH"]) {
      const response = await fetch(`${base}/proxy/public/v1/enterprises/e/corporate-cards/`, {
        method, headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET", "Content-Type": "application/json" },
        body: method === "PATCH" ? "{}" : undefined,
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).not.toBe("*");
      expect(response.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
    }
    expect(upstreamCalls).toEqual([]);
  });

  it("does not grant * on the proxy's own error answers either (the service down)", async () => {
    await new Promise((r) => upstream.close(r));
    upstream.closeAllConnections();
    const response = await fetch(`${base}/proxy/public/v1/enterprises/e/corporate-cards/`, { headers: { Origin: base } });
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.headers.get("access-control-allow-origin")).toBe(base);
  });

  it("keeps * on the static files Office fetches (functions.json, scripts)", async () => {
    const response = await fetch(`${base}/tiny.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});
