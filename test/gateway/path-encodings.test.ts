/**
 * Every spelling of a path separator or a dot segment a caller can put in a path, and what the gateway does
 * with it. The rule (forward.ts): the URL parser resolves `.` and `..` (in any encoding) before routing, so a
 * path that climbs out of /public/v1 is the gateway's 404; an encoded slash or backslash (%2f, %5c, any case)
 * is refused with 400, since the service could decode it into a separator. Everything else under /public/v1
 * is forwarded byte for byte: the gateway never decodes a path, so it can never make a separator itself.
 */
import { request } from "node:http";
import { createGateway } from "../../src/gateway";
import { startGateway } from "../../src/gateway/node-server";
import { withSandbox } from "../support/sandbox";
import { collectLogs, serveStub, stubUpstream } from "./doubles";

const TARGET = "https://api.example.com/spend";
const GATEWAY = "http://gateway.test";
const ENCODED_SEPARATOR = { status: 400, error: "A path with an encoded slash or backslash is not forwarded." };
const NOTHING_HERE = { status: 404, error: "Nothing here: the gateway forwards /public/v1/* and answers /healthz." };
const UPSTREAM_BODY = '{"ok":true}';

function setUp(target = TARGET, fetch = stubUpstream(() => new Response(UPSTREAM_BODY, { headers: { "content-type": "application/json" } }))) {
  const logs = collectLogs();
  const gateway = createGateway({ target, allowOrigins: ["https://addin.example.com"], log: logs.log, fetch: fetch.fetch });
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await gateway.fetch(new Request(`${GATEWAY}${path}`, init));
    return { res, text: await res.text(), upstream: fetch.calls.map((c) => c.url), logs: logs.entries };
  };
  return send;
}

describe("an encoded slash or backslash is refused with 400, before anything goes upstream", () => {
  it.each([
    "/public/v1/a%2fb/",
    "/public/v1/a%2Fb/",
    "/public/v1/a%5cb/",
    "/public/v1/a%5Cb/",
    "/public/v1/%2fadmin",
    "/public/v1/x/%2F",
    "/public/v1/..%2f..%2fadmin",
    "/public/v1/%2e%2e%2fadmin",
    "/public/v1/%2E%2E%5Cadmin",
    "/public/v1/enterprises/e/cards/3fa85f64%2f5717/",
  ])("%s", async (path) => {
    const { res, text, upstream, logs } = await setUp()(path, { headers: { Authorization: "Api-Key k" } });
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toEqual(ENCODED_SEPARATOR);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(upstream).toEqual([]);
    // The operator's one line names the path as it came, encoded.
    expect(logs.map((e) => [e.method, e.path, e.status])).toEqual([["GET", path, 400]]);
  });

  it("is checked before the method and the body: a DELETE is 400, not 405, and a PATCH body over the limit is never read", async () => {
    const send = setUp();
    const deleted = await send("/public/v1/a%2Fb/", { method: "DELETE" });
    expect([deleted.res.status, JSON.parse(deleted.text)]).toEqual([400, ENCODED_SEPARATOR]);
    const patched = await send("/public/v1/a%5cb/", { method: "PATCH", body: "x".repeat(2 * 1024 * 1024) });
    expect([patched.res.status, JSON.parse(patched.text)]).toEqual([400, ENCODED_SEPARATOR]);
    expect(patched.upstream).toEqual([]);
  });

  it("outside /public/v1 an encoded slash is not routed at all: 404, not 400", async () => {
    const send = setUp();
    for (const path of ["/public%2fv1/x/", "/public%2Fv1/x/", "/public/v1%2f..%2fadmin", "/public/v1%5cx"]) {
      const { res, text, upstream } = await send(path);
      expect([path, res.status, JSON.parse(text), upstream]).toEqual([path, 404, NOTHING_HERE, []]);
    }
  });
});

describe("dot segments are resolved before routing, in every spelling", () => {
  it.each([
    ["/public/v1/../admin", "/public/admin"],
    ["/public/v1/..", "/public/"],
    ["/public/v1/%2e%2e/admin", "/public/admin"],
    ["/public/v1/%2E%2E/admin", "/public/admin"],
    ["/public/v1/.%2E/admin", "/public/admin"],
    ["/public/v1/%2e./admin", "/public/admin"],
    ["/public/v1/x/%2e%2e/%2e%2e/%2e%2e/admin", "/admin"],
    ["/public/v1\\..\\..\\admin", "/admin"],
  ])("%s climbs out of /public/v1: 404, logged as %s", async (path, resolved) => {
    const { res, text, upstream, logs } = await setUp()(path, { headers: { Authorization: "Api-Key k" } });
    expect(res.status).toBe(404);
    expect(JSON.parse(text)).toEqual(NOTHING_HERE);
    expect(upstream).toEqual([]);
    expect(logs.map((e) => [e.path, e.status])).toEqual([[resolved, 404]]);
  });

  it.each([
    ["/public/v1/./x/", "/public/v1/x/"],
    ["/public/v1/%2e/x/", "/public/v1/x/"],
    ["/public/v1/%2E/x/", "/public/v1/x/"],
    ["/public/v1/x/.", "/public/v1/x/"],
    ["/public/v1/x/..", "/public/v1/"],
    ["/public/v1/x/%2E%2e/y/", "/public/v1/y/"],
    ["/public/v1/x/../../v1/y/", "/public/v1/y/"],
    ["/public/v1/a\\b/", "/public/v1/a/b/"],
  ])("%s stays inside: forwarded as %s", async (path, resolved) => {
    const { res, text, upstream } = await setUp()(path);
    expect([res.status, text]).toEqual([200, UPSTREAM_BODY]);
    expect(upstream).toEqual([`${TARGET}${resolved}`]);
  });
});

describe("near misses are forwarded byte for byte: the gateway never decodes a path", () => {
  it.each([
    "/public/v1/receipts/receipt.v2.pdf",
    "/public/v1/x/.hidden",
    "/public/v1/x/...",
    "/public/v1/x/%2e%2e.pdf",
    "/public/v1/enterprises/3fa85f64-5717-4562-b3fc-2c963f66afa6/corporate-cards/",
    "/public/v1/cards/2f5c2F5Cdeadbeef/",
    "/public/v1/x/?q=%2f..%2f&r=%5C",
    "/public/v1/x/%252f",
    "/public/v1/x/%255C",
    "/public/v1/%252e%252e/admin",
    "/public/v1/%c0%ae%c0%ae/admin",
    "/public/v1/%c0%af",
    "/public/v1/..;/admin",
    "/public/v1/%25",
    "/public/v1//x/",
    "/%70ublic/v1/x/",
  ])("%s", async (path) => {
    const { res, text, upstream } = await setUp()(path);
    expect([res.status, text]).toEqual([200, UPSTREAM_BODY]);
    expect(upstream).toEqual([`${TARGET}${path}`]);
  });

  it("at the real service, the forms let through stay inside /public/v1: its own 404, not the gateway's", async () => {
    const f = await withSandbox();
    try {
      const send = setUp(f.sandbox.baseUrl, stubUpstream((call) => fetch(call.url, { method: call.method, headers: call.headers })));
      for (const tail of ["..;/cards/", "%252e%252e/%252e%252e/healthz", "%c0%ae%c0%ae/x/"]) {
        const path = `${f.prefix}/${tail}`;
        const direct = await f.call("GET", path);
        const { res, text, upstream } = await send(path, { headers: { Authorization: `Api-Key ${f.enterprise.api_key}` } });
        expect(upstream.at(-1)).toBe(`${f.sandbox.baseUrl}${path}`);
        expect([res.status, JSON.parse(text)]).toEqual([404, direct.json]);
        expect(JSON.parse(text)).not.toEqual(NOTHING_HERE);
      }
    } finally {
      await f.sandbox.close();
    }
  });
});

describe("on Node's HTTP server, the raw request line", () => {
  /** The path goes on the request line exactly as written (no URL parsing on the way). */
  function rawGet(baseUrl: string, path: string): Promise<{ status: number; text: string; type: string | undefined }> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const req = request({ host: hostname, port, path, agent: false }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, type: res.headers["content-type"] }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it.each(["fast", "fetch"] as const)("on the %s path, refuses a backslash, an encoded slash and a climbing dot segment with the gateway's JSON, forwarding none", async (handler) => {
    const upstream = await serveStub(() => new Response(UPSTREAM_BODY));
    const logs = collectLogs();
    const gw = await startGateway({ target: `${upstream.target}/spend`, allowOrigins: ["https://addin.example.com"], log: logs.log }, { handler });
    try {
      const cases: Array<[string, number, object]> = [
        ["/public/v1\\..\\admin", 400, { status: 400, error: "A path with a backslash is not forwarded." }],
        ["/public/v1/a\\b/", 400, { status: 400, error: "A path with a backslash is not forwarded." }],
        ["/public/v1/a%2Fb/", 400, ENCODED_SEPARATOR],
        ["/public/v1/%2e%2e/admin", 404, NOTHING_HERE],
        ["/public/v1/../admin", 404, NOTHING_HERE],
      ];
      for (const [path, status, body] of cases) {
        const answer = await rawGet(gw.baseUrl, path);
        expect([path, answer.status, answer.type, JSON.parse(answer.text)]).toEqual([path, status, "application/json", body]);
      }
      expect(upstream.calls).toEqual([]);
      expect(logs.entries.map((e) => [e.path, e.status, e.event])).toEqual([
        ["/public/admin", 400, "backslash in path"],
        ["/public/v1/a/b/", 400, "backslash in path"],
        ["/public/v1/a%2Fb/", 400, undefined],
        ["/public/admin", 404, undefined],
        ["/public/admin", 404, undefined],
      ]);
      // A backslash in the query is data, not a separator.
      expect(await rawGet(gw.baseUrl, "/public/v1/x/?q=a\\b")).toMatchObject({ status: 200, text: UPSTREAM_BODY });
      expect(upstream.calls.map((c) => c.url)).toEqual([`${upstream.target}/spend/public/v1/x/?q=a\\b`]);
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});
