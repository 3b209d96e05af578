/**
 * The gateway's fetch handler in Node with no listening server: `gateway.fetch(new Request(...))`, in front of
 * the real sandbox on loopback (forwarding, Authorization, PATCH) or an upstream stub (timeouts, hostile
 * answers, streaming). The same handler runs on Workers, Lambda and Azure Functions.
 */
import { createGateway, type GatewayConfig } from "../../src/gateway";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { collectLogs, ManualTimer, silentUpstream, steppingClock, stubUpstream } from "./doubles";

const ADDIN = "https://addin.example.com";
const OTHER = "https://evil.example.net";
const GATEWAY = "http://gateway.test";

let f: SandboxFixture;
beforeAll(async () => {
  f = await withSandbox();
});
afterAll(() => f.sandbox.close());

function setUp(overrides: Partial<GatewayConfig> = {}) {
  const logs = collectLogs();
  const gateway = createGateway({ target: f.sandbox.baseUrl, allowOrigins: [ADDIN], log: logs.log, now: steppingClock(), ...overrides });
  const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => gateway.fetch(new Request(`${GATEWAY}${path}`, init));
  return { gateway, logs: logs.entries, send };
}

const auth = () => ({ Authorization: `Api-Key ${f.enterprise.api_key}` });
const expensesPath = () => `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/expenses/`;

describe("forwarding to the service", () => {
  it("relays a list as the service answers it, with the caller's Authorization", async () => {
    const { send } = setUp();
    const through = await send(`${expensesPath()}?state=approved&page_size=5`, { headers: auth() });
    const direct = await f.call("GET", `${expensesPath()}?state=approved&page_size=5`);
    expect(through.status).toBe(200);
    expect(through.headers.get("content-type")).toMatch(/^application\/json/);
    // The next link points at the gateway, as every list link does (links.test.ts).
    expect(await through.json()).toEqual({ ...direct.json, next: direct.json.next.replace(f.sandbox.baseUrl, GATEWAY) });
  });

  it("adds no credentials of its own: without Authorization the service's 403 comes back", async () => {
    const { send } = setUp();
    const res = await send(expensesPath());
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ status: 403, error: "Authentication credentials were not provided: send the header Authorization: Api-Key <key>." });
  });

  it("carries a PATCH and its JSON body: the service applies it", async () => {
    const { send } = setUp();
    const sub = f.enterprise.subsidiaries[0];
    const approved = f.sandbox.store.expensesOf(sub).find((e) => e.state === "approved")!;
    const res = await send(`${expensesPath()}${approved.id}/`, {
      method: "PATCH", headers: { ...auth(), "Content-Type": "application/json", Origin: ADDIN }, body: JSON.stringify({ state: "paid", paid_id: "GW-1" }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).state).toBe("paid");
    expect(f.sandbox.store.expense(sub, approved.id)).toMatchObject({ state: "paid", paid_id: "GW-1" });
  });

  it("forwards to a target with a path prefix, with the query intact", async () => {
    const upstream = stubUpstream(() => new Response("{}", { headers: { "content-type": "application/json" } }));
    const { send } = setUp({ target: "https://api.example.com/spend/", fetch: upstream.fetch });
    await send("/public/v1/enterprises/e/cards/?page=2&page_size=50");
    expect(upstream.calls.map((c) => c.url)).toEqual(["https://api.example.com/spend/public/v1/enterprises/e/cards/?page=2&page_size=50"]);
  });

  it("sends up only the headers the service reads: no cookies, no forwarding headers", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    await send("/public/v1/x/", { headers: { ...auth(), Accept: "application/json", Cookie: "session=1", "X-Forwarded-For": "10.0.0.1", "X-Other": "y" } });
    expect([...upstream.calls[0].headers.keys()].sort()).toEqual(["accept", "authorization"]);
  });

  it("streams a success body: the first bytes reach the client before the service has finished", async () => {
    let finish!: () => void;
    const upstream = stubUpstream(() => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"results": ['));
        finish = () => {
          controller.enqueue(new TextEncoder().encode("]}"));
          controller.close();
        };
      },
    }), { headers: { "content-type": "application/json" } }));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: auth() });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"results": [');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("]}");
    expect((await reader.read()).done).toBe(true);
  });

  it("relays a 429's Retry-After and exposes it to the add-in's page", async () => {
    const upstream = stubUpstream(() => new Response(JSON.stringify({ status: 429, error: "Slow down." }), { status: 429, headers: { "Retry-After": "3", "content-type": "application/json" } }));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: { ...auth(), Origin: ADDIN } });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("access-control-expose-headers")).toBe("Retry-After");
  });

  it("does not follow a redirect: it is relayed, so the key goes nowhere else", async () => {
    const upstream = stubUpstream(() => new Response(null, { status: 302, headers: { Location: "https://elsewhere.example/x" } }));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: auth() });
    expect(res.status).toBe(302);
    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0].url).toBe(`${f.sandbox.baseUrl}/public/v1/x/`);
  });

  it("answers 502 when the service cannot be reached", async () => {
    const upstream = stubUpstream(() => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } })));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: auth() });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ status: 502, error: "The service could not be reached (ECONNREFUSED)." });
  });

  it.each([
    ["/public/v1/../../admin", 404],
    ["/public/v1/%2e%2e/%2e%2e/admin", 404],
    ["/public/v1/enterprises%2f..%2fadmin", 400],
    ["/admin/public/v1/", 404],
    ["/", 404],
  ])("forwards nothing outside /public/v1: %s -> %i", async (path, status) => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send(path, { headers: auth() });
    expect(res.status).toBe(status);
    expect((await res.json()).status).toBe(status);
    expect(upstream.calls).toHaveLength(0);
  });

  it("forwards only the service's methods: DELETE is 405 naming what is allowed", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { method: "DELETE", headers: auth() });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, PATCH, OPTIONS");
    expect(upstream.calls).toHaveLength(0);
  });
});

describe("CORS for the configured origins only", () => {
  const preflight = (origin: string, method = "PATCH", headers = "authorization,content-type") => ({
    method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
  });

  it("answers the add-in's preflight (PATCH with authorization, content-type) with 204 naming its origin", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send(`${expensesPath()}some-id/`, preflight(ADDIN));
    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "access-control-allow-origin": ADDIN,
      "access-control-allow-methods": "GET, HEAD, PATCH",
      "access-control-allow-headers": "authorization, content-type, accept",
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    });
    expect(res.headers.has("access-control-allow-credentials")).toBe(false);
    expect(upstream.calls).toHaveLength(0); // a preflight never reaches the service
  });

  it.each([
    ["another origin", preflight(OTHER)],
    ["the add-in's host on another scheme", preflight("http://addin.example.com")],
    ["the opaque origin null", preflight("null")],
    ["a method the gateway does not forward", preflight(ADDIN, "DELETE")],
    ["a header the add-in never sends", preflight(ADDIN, "PATCH", "authorization,x-debug")],
  ])("refuses the preflight of %s with 403 and no Access-Control-Allow-Origin", async (_what, init) => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send, logs } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", init);
    expect(res.status).toBe(403);
    expect(res.headers.has("access-control-allow-origin")).toBe(false);
    expect((await res.json()).status).toBe(403);
    expect(upstream.calls).toHaveLength(0);
    expect(logs).toEqual([expect.objectContaining({ method: "OPTIONS", status: 403, origin: init.headers.Origin })]);
  });

  it("adds Access-Control-Allow-Origin for the add-in's actual requests, replacing the service's own CORS headers", async () => {
    const upstream = stubUpstream(() => new Response("{}", { headers: { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Credentials": "true" } }));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: { ...auth(), Origin: ADDIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ADDIN);
    expect(res.headers.has("access-control-allow-credentials")).toBe(false);
    expect(res.headers.get("vary")).toBe("Origin");
  });

  it("refuses another origin's actual request before it reaches the service (a PATCH would otherwise apply)", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { method: "PATCH", headers: { ...auth(), Origin: OTHER, "Content-Type": "text/plain" }, body: "{}" });
    expect(res.status).toBe(403);
    expect(res.headers.has("access-control-allow-origin")).toBe(false);
    expect(upstream.calls).toHaveLength(0);
  });

  it("forwards a request with no Origin (curl, a server) without CORS headers", async () => {
    const { send } = setUp();
    const res = await send(`${expensesPath()}?page_size=1`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.has("access-control-allow-origin")).toBe(false);
  });

  it("answers each of several configured origins with its own origin", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const second = "https://excel-addin.example.org";
    const { send } = setUp({ fetch: upstream.fetch, allowOrigins: [ADDIN, second] });
    for (const origin of [ADDIN, second]) {
      const res = await send("/public/v1/x/", preflight(origin));
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    }
  });
});

describe("the body cap (1 MB)", () => {
  const MB = 1024 * 1024;

  it("refuses a larger PATCH body with 413 JSON, sending nothing upstream", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { method: "PATCH", headers: { ...auth(), "Content-Type": "application/json" }, body: "x".repeat(MB + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status: 413, error: `The request body is larger than ${MB} bytes.` });
    expect(upstream.calls).toHaveLength(0);
  });

  it("refuses a chunked body (no Content-Length) as soon as it passes the cap, without reading the rest", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024);
    const body = new ReadableStream<Uint8Array>({ pull(controller) { pulled++; controller.enqueue(chunk); } }); // endless
    // Node's fetch needs `duplex: "half"` for a stream body; lib.dom's RequestInit does not list it yet.
    const res = await send("/public/v1/x/", { method: "PATCH", headers: auth(), body, duplex: "half" } as RequestInit & { headers: Record<string, string> });
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(8); // 4 chunks reach the cap; it stopped reading right after
    expect(upstream.calls).toHaveLength(0);
  });

  it("forwards a body of exactly 1 MB", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { method: "PATCH", headers: { ...auth(), "Content-Type": "application/json" }, body: "x".repeat(MB) });
    expect(res.status).toBe(200);
    expect(upstream.calls[0].body).toHaveLength(MB);
  });
});

describe("the upstream timeout (a manual timer: nothing waits on the clock)", () => {
  it("answers 504 JSON when the service has not answered when the deadline fires, and the upstream request is aborted", async () => {
    const timer = new ManualTimer();
    const upstream = silentUpstream();
    const { send } = setUp({ fetch: upstream.fetch, timer, timeoutMs: 5000 });
    const answer = send("/public/v1/x/", { headers: auth() });
    await new Promise((resolve) => setImmediate(resolve));
    // The head's deadline, and the whole answer's (answer-timeouts.test.ts).
    expect([...timer.pending.values()].map((t) => t.ms)).toEqual([5000, 120_000]);
    timer.fireAll();
    const res = await answer;
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ status: 504, error: "The service did not answer within 5000 ms." });
    expect(upstream.calls[0].signal?.aborted).toBe(true);
  });

  it("clears the deadlines once the service's answer is relayed", async () => {
    const timer = new ManualTimer();
    const upstream = stubUpstream(() => new Response("{}"));
    const { send } = setUp({ fetch: upstream.fetch, timer });
    const res = await send("/public/v1/x/", { headers: auth() });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("{}");
    expect(timer.pending.size).toBe(0);
  });

  it("answers 504 when an error body stalls past the deadline (error bodies are read to redact them)", async () => {
    const timer = new ManualTimer();
    const upstream = stubUpstream((call) => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status": 500, '));
        call.signal?.addEventListener("abort", () => controller.error(call.signal!.reason), { once: true });
      },
    }), { status: 500 }));
    const { send } = setUp({ fetch: upstream.fetch, timer });
    const answer = send("/public/v1/x/", { headers: auth() });
    for (let i = 0; i < 5 && timer.pending.size === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    timer.fireAll();
    expect((await answer).status).toBe(504);
  });

  it("uses 30 s by default", async () => {
    const timer = new ManualTimer();
    const upstream = silentUpstream();
    const { send } = setUp({ fetch: upstream.fetch, timer });
    const answer = send("/public/v1/x/", { headers: auth() });
    await new Promise((resolve) => setImmediate(resolve));
    expect([...timer.pending.values()].map((t) => t.ms)).toEqual([30_000, 120_000]);
    timer.fireAll();
    expect((await answer).status).toBe(504);
  });
});

describe("health", () => {
  it("answers GET /healthz with 200 {status: ok} without calling the service", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send, logs } = setUp({ fetch: upstream.fetch });
    const res = await send("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(upstream.calls).toHaveLength(0);
    expect(logs).toEqual([expect.objectContaining({ method: "GET", path: "/healthz", status: 200 })]);
  });
});

describe("the access log", () => {
  it("writes one entry per request: time, method, path with query, status, ms, origin", async () => {
    const { send, logs } = setUp();
    await send(`${expensesPath()}?state=approved&page_size=2`, { headers: { ...auth(), Origin: ADDIN } });
    expect(logs).toEqual([{
      time: "2026-05-01T10:00:00.000Z", method: "GET", path: `${expensesPath()}?state=approved&page_size=2`, status: 200, ms: 7, origin: ADDIN,
    }]);
  });
});

describe("the key is never logged, stored or echoed", () => {
  const KEY = "sk_live_Gw4y-SECRET+key/42";
  const forms = [KEY, encodeURIComponent(KEY), btoa(KEY), btoa(`enterprise:${KEY}`).slice(12), JSON.stringify(KEY).slice(1, -1)];

  it("redacts the key in every form from a relayed error body and a Location header", async () => {
    const upstream = stubUpstream((call) => {
      const sent = call.headers.get("authorization")!;
      const body = JSON.stringify({ status: 400, error: `Bad key ${sent}; encoded ${encodeURIComponent(KEY)}; basic ${btoa(`enterprise:${KEY}`)}; b64 ${btoa(KEY)}` });
      return new Response(body, { status: 400, headers: { "content-type": "application/json", Location: `https://x.example/?k=${encodeURIComponent(KEY)}` } });
    });
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: { Authorization: `Api-Key ${KEY}` } });
    expect(upstream.calls[0].headers.get("authorization")).toBe(`Api-Key ${KEY}`); // passed through intact
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain("[redacted]");
    for (const form of forms) expect(text).not.toContain(form);
    expect(res.headers.get("location")).not.toContain(encodeURIComponent(KEY));
    expect(JSON.parse(text).status).toBe(400);
  });

  it("keeps the key out of every log entry, also when a page puts it in the query", async () => {
    const upstream = stubUpstream(() => new Response("{}"));
    const { send, logs } = setUp({ fetch: upstream.fetch });
    await send(`/public/v1/x/?api_key=${encodeURIComponent(KEY)}&page=1`, { headers: { Authorization: `Api-Key ${KEY}` } });
    await send(`/public/v1/x/?q=${encodeURIComponent(KEY)}`, { headers: { Authorization: `Api-Key ${KEY}` } });
    await send("/public/v1/x/", { method: "OPTIONS", headers: { Origin: OTHER, "Access-Control-Request-Method": "GET" } });
    expect(logs.map((l) => l.path)).toEqual(["/public/v1/x/?api_key=[redacted]&page=1", "/public/v1/x/?q=[redacted]", "/public/v1/x/"]);
    const all = JSON.stringify(logs);
    for (const form of forms) expect(all).not.toContain(form);
  });

  it("does not relay an error body too large to redact safely; says so instead", async () => {
    const upstream = stubUpstream(() => new Response("x".repeat(65 * 1024), { status: 500, headers: { "Retry-After": "1" } }));
    const { send } = setUp({ fetch: upstream.fetch });
    const res = await send("/public/v1/x/", { headers: { Authorization: `Api-Key ${KEY}` } });
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ status: 500, error: "The service answered 500 with an error body over 65536 bytes; it is not relayed." });
  });

  it("the service's own refusal of a wrong key does not quote it back through the gateway either", async () => {
    const { send, logs } = setUp();
    const res = await send(expensesPath(), { headers: { Authorization: `Api-Key ${KEY}` } });
    expect(res.status).toBe(403);
    const text = await res.text();
    for (const form of forms) expect(text).not.toContain(form);
    expect(JSON.stringify(logs)).not.toContain(KEY);
  });
});
