/**
 * Issue 49: the Node fast path (node-fast.ts) answers every caller as the fetch handler does. The same corpus of
 * requests goes to a gateway on each path, both in front of the same service stub: a list (links rewritten), an
 * error quoting the key (redacted, in the body and a Location), an error body too large to redact, a redirect,
 * a 204, a 429, a PATCH; preflights and actual requests from allowed and other origins; refusals (key in the
 * URL, encoded slash, method, body size, path); health. Status, the headers a caller acts on, body and the
 * access-log entry must be the same, request by request.
 */
import { request } from "node:http";
import type { AccessLogEntry } from "../../src/gateway";
import { startGateway, type RunningGateway } from "../../src/gateway/node-server";
import { serveStub } from "./doubles";

const ADDIN = "https://addin.example.com";
const KEY = "sk_live_fastpath_0123456789abcdef";
const AUTH = { authorization: `Api-Key ${KEY}` };
const HOST = "gateway.test";
/** The headers a caller (or its browser) acts on; framing (Content-Length, Transfer-Encoding) and Date differ by nature. */
const COMPARED = [
  "content-type", "cache-control", "etag", "last-modified", "location", "retry-after", "allow", "vary", "connection",
  "x-content-type-options", "access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers",
  "access-control-max-age", "access-control-expose-headers",
];

let stub: Awaited<ReturnType<typeof serveStub>>;
const gateways: Partial<Record<"fast" | "fetch", { gateway: RunningGateway; logs: AccessLogEntry[] }>> = {};

beforeAll(async () => {
  stub = await serveStub((call) => {
    const path = new URL(call.url).pathname;
    const json = { "content-type": "application/json" };
    if (path.endsWith("/list/")) {
      const link = (page: number) => `${stub.target}/public/v1/list/?page=${page}`;
      return new Response(JSON.stringify({ count: 3, next: link(3), previous: link(1), results: [{ id: "a", url: link(9) }] }), { headers: { ...json, etag: '"v1"', "cache-control": "private" } });
    }
    if (path.endsWith("/quote/")) return new Response(JSON.stringify({ status: 400, error: `bad key ${KEY}` }), { status: 400, headers: { ...json, location: `/x?k=${KEY}` } });
    if (path.endsWith("/huge/")) return new Response("x".repeat(70_000), { status: 500, headers: { "retry-after": "7" } });
    if (path.endsWith("/moved/")) return new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } });
    if (path.endsWith("/bare-error/")) return new Response(new TextEncoder().encode("no such thing"), { status: 404 });
    if (path.endsWith("/bare/")) return new Response(new TextEncoder().encode("[1, 2]"), { status: 200 });
    if (path.endsWith("/none/")) return new Response(null, { status: 204 });
    if (path.endsWith("/slow-down/")) return new Response('{"status": 429, "error": "slow down"}', { status: 429, headers: { ...json, "retry-after": "3" } });
    if (call.method === "PATCH") return new Response(JSON.stringify({ got: call.body }), { headers: json });
    return new Response("plain text", { headers: { "content-type": "text/plain", "set-cookie": "a=b", "access-control-allow-origin": "*" } });
  });
  for (const handler of ["fast", "fetch"] as const) {
    const logs: AccessLogEntry[] = [];
    const gateway = await startGateway({ target: stub.target, allowOrigins: [ADDIN], log: (e) => logs.push(e), now: () => Date.UTC(2026, 4, 1), maxBodyBytes: 64 }, { handler });
    gateways[handler] = { gateway, logs };
  }
});
afterAll(async () => {
  for (const running of Object.values(gateways)) await running?.gateway.close();
  await stub?.close();
});

interface Asked {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What a caller sees of one answer, and the log entries it left. */
async function ask(handler: "fast" | "fetch", asked: Asked) {
  const { gateway, logs } = gateways[handler]!;
  const before = logs.length;
  const port = Number(new URL(gateway.baseUrl).port);
  const answer = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: asked.method, path: asked.path, headers: { host: HOST, ...asked.headers }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(asked.body);
  });
  // (The entry is written before the head goes out: it is there once the answer has been read.)
  return { status: answer.status, headers: Object.fromEntries(COMPARED.map((name) => [name, answer.headers[name]])), body: answer.body, log: logs.slice(before) };
}

const CORPUS: [string, Asked][] = [
  ["a list, links rewritten", { method: "GET", path: "/public/v1/list/?page=2", headers: AUTH }],
  ["a list from the add-in's page", { method: "GET", path: "/public/v1/list/?page=2", headers: { ...AUTH, origin: ADDIN } }],
  ["a list, HEAD", { method: "HEAD", path: "/public/v1/list/", headers: AUTH }],
  ["a list through an encoded path", { method: "GET", path: "/%70ublic/v1/list/", headers: AUTH }],
  ["another origin's request", { method: "GET", path: "/public/v1/list/", headers: { ...AUTH, origin: "https://evil.example" } }],
  ["the add-in's preflight", { method: "OPTIONS", path: "/public/v1/list/", headers: { origin: ADDIN, "access-control-request-method": "PATCH", "access-control-request-headers": "authorization, content-type" } }],
  ["another origin's preflight", { method: "OPTIONS", path: "/public/v1/list/", headers: { origin: "https://evil.example", "access-control-request-method": "GET" } }],
  ["a preflight for DELETE", { method: "OPTIONS", path: "/public/v1/list/", headers: { origin: ADDIN, "access-control-request-method": "DELETE" } }],
  ["a preflight for a cookie", { method: "OPTIONS", path: "/public/v1/list/", headers: { origin: ADDIN, "access-control-request-method": "GET", "access-control-request-headers": "cookie" } }],
  ["an error quoting the key", { method: "GET", path: "/public/v1/quote/", headers: { ...AUTH, origin: ADDIN } }],
  ["an error too large to redact", { method: "GET", path: "/public/v1/huge/", headers: AUTH }],
  ["a redirect", { method: "GET", path: "/public/v1/moved/", headers: AUTH }],
  ["an error without a type", { method: "GET", path: "/public/v1/bare-error/", headers: AUTH }],
  ["a body without a type", { method: "GET", path: "/public/v1/bare/", headers: AUTH }],
  ["a 204", { method: "GET", path: "/public/v1/none/", headers: AUTH }],
  ["a 429", { method: "GET", path: "/public/v1/slow-down/", headers: { ...AUTH, origin: ADDIN } }],
  ["plain text, the service's cookie and CORS dropped", { method: "GET", path: "/public/v1/text/", headers: AUTH }],
  ["a PATCH", { method: "PATCH", path: "/public/v1/item/", headers: { ...AUTH, "content-type": "application/json" }, body: '{"state":"paid"}' }],
  ["a PATCH over the cap, declared", { method: "PATCH", path: "/public/v1/item/", headers: { ...AUTH, "content-length": "65" }, body: "x".repeat(65) }],
  ["a PATCH over the cap, chunked", { method: "PATCH", path: "/public/v1/item/", headers: { ...AUTH, "transfer-encoding": "chunked" }, body: "y".repeat(200) }],
  ["the key in the query", { method: "GET", path: `/public/v1/list/?k=${KEY}`, headers: { origin: ADDIN } }],
  ["the key in the path", { method: "GET", path: `/public/v1/${KEY}/` }],
  ["an encoded slash", { method: "GET", path: "/public/v1/a%2Fb/", headers: AUTH }],
  ["DELETE", { method: "DELETE", path: "/public/v1/item/", headers: { ...AUTH, origin: ADDIN } }],
  ["a path not forwarded", { method: "GET", path: "/admin/", headers: AUTH }],
  ["health", { method: "GET", path: "/healthz" }],
  ["health, HEAD", { method: "HEAD", path: "/healthz", headers: { origin: ADDIN } }],
  ["health, POST", { method: "POST", path: "/healthz" }],
];

describe("the fast path and the fetch handler answer alike", () => {
  it.each(CORPUS)("%s", async (_what, asked) => {
    const fast = await ask("fast", asked);
    const viaFetch = await ask("fetch", asked);
    expect(fast).toEqual(viaFetch);
    // Each was logged, once, without the key.
    expect(fast.log).toHaveLength(1);
    expect(JSON.stringify(fast)).not.toContain(KEY);
  });

  it("rewrote the list's links and kept a record's URL (the corpus is not trivially alike)", async () => {
    const { body } = await ask("fast", CORPUS[0][1]);
    expect(JSON.parse(body)).toEqual({
      count: 3, next: `http://${HOST}/public/v1/list/?page=3`, previous: `http://${HOST}/public/v1/list/?page=1`, results: [{ id: "a", url: `${stub.target}/public/v1/list/?page=9` }],
    });
  });
});
