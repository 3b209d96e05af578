/**
 * Rule: the service's answer reaches the caller as the service sent it (plain headers, redacted of the key; a
 * body streamed, or read whole and redacted when it is an error), unless a limit or a failure ends it; then the
 * caller gets the gateway's own JSON answer naming what happened (502 broke off, 504 in time), the service's
 * stream is let go, and the access log says why. A caller's PATCH body is sent up whole, exactly as it came.
 */
import { createGateway, type GatewayConfig } from "../../src/gateway";
import { collectLogs, ManualTimer, steppingClock, stubUpstream, type UpstreamCall } from "./doubles";
import { settle as settleTurns } from "../support/settle";

const KEY = "sk_live_relay_0123456789";
const encode = (text: string) => new TextEncoder().encode(text);
const settle = () => settleTurns(10);

function setUp(answer: (call: UpstreamCall) => Response | Promise<Response>, overrides: Partial<GatewayConfig> = {}) {
  const upstream = stubUpstream(answer);
  const logs = collectLogs();
  const timer = new ManualTimer();
  const gateway = createGateway({
    target: "https://api.example.com", allowOrigins: ["https://addin.example.com"], log: logs.log, now: steppingClock(), fetch: upstream.fetch,
    timer, timeoutMs: 1000, idleTimeoutMs: 2000, answerTimeoutMs: 3000, ...overrides,
  });
  const send = (init: RequestInit & { duplex?: "half" } = {}, path = "/public/v1/x/") =>
    gateway.fetch(new Request(`http://gateway.test${path}`, { ...init, headers: { Authorization: `Api-Key ${KEY}`, ...(init.headers as Record<string, string>) } }));
  const events = () => logs.entries.map((e) => [e.status, e.event]);
  return { send, upstream, logs: logs.entries, timer, events };
}

/** A service body: `chunks` then, when `end` is "stall", nothing; "error" fails it; "close" ends it. */
function serviceBody(chunks: string[], end: "stall" | "error" | "close") {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encode(chunk));
      if (end === "error") controller.error(new Error("connection reset"));
      if (end === "close") controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const whole = async (res: Response) => ({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
const json = { "content-type": "application/json", "x-content-type-options": "nosniff", vary: "Origin" };

describe("the head", () => {
  it("relays the service's plain headers, redacting the key from any of them", async () => {
    const { send } = setUp((call) => new Response("{}", {
      status: 201,
      headers: {
        "content-type": "application/json", "retry-after": "5", "cache-control": "private", etag: `"${call.headers.get("authorization")}"`,
        "last-modified": "Fri, 01 May 2026 10:00:00 GMT", location: `https://api.example.com/?k=${KEY}`, allow: "GET, PATCH",
        "set-cookie": "s=1", "content-length": "2", "access-control-allow-origin": "*", server: "svc/1.0",
      },
    }));
    expect(await whole(await send())).toEqual({
      status: 201,
      headers: {
        "content-type": "application/json", "retry-after": "5", "cache-control": "private", etag: '"[redacted]"',
        "last-modified": "Fri, 01 May 2026 10:00:00 GMT", location: "https://api.example.com/?k=[redacted]", allow: "GET, PATCH",
        "x-content-type-options": "nosniff", vary: "Origin",
      },
      body: "{}",
    });
  });

  it("answers a HEAD with no body, even when the service sends one", async () => {
    const body = serviceBody(['{"count": 3}'], "close");
    const { send, timer } = setUp(() => new Response(body.stream, { headers: { "content-type": "application/json" } }));
    expect(await whole(await send({ method: "HEAD" }))).toEqual({ status: 200, headers: { "content-type": "application/json", "x-content-type-options": "nosniff", vary: "Origin" }, body: "" });
    expect(body.state.cancelled).toBe(true);
    expect(timer.pending.size).toBe(0);
  });

  it("relays a 204 with no body", async () => {
    const { send } = setUp(() => new Response(null, { status: 204, headers: { etag: '"v2"' } }));
    expect(await whole(await send({ method: "PATCH", body: "{}" }))).toEqual({ status: 204, headers: { etag: '"v2"', "x-content-type-options": "nosniff", vary: "Origin" }, body: "" });
  });
});

describe("a success body", () => {
  it("that is empty is relayed empty", async () => {
    const { send, timer } = setUp(() => new Response("", { headers: { "content-type": "application/json" } }));
    expect(await whole(await send())).toEqual({ status: 200, headers: { ...json }, body: "" });
    expect(timer.pending.size).toBe(0);
  });

  it("that breaks before its first byte: 502, and no event in the log", async () => {
    const { send, logs } = setUp(() => new Response(serviceBody([], "error").stream, { headers: { "content-type": "application/json" } }));
    expect(await whole(await send())).toEqual({ status: 502, headers: { ...json }, body: JSON.stringify({ status: 502, error: "The service's answer broke off (Error)." }) });
    expect(logs).toStrictEqual([{ time: "2026-05-01T10:00:00.000Z", method: "GET", path: "/public/v1/x/", status: 502, ms: 7 }]);
  });

  it("that breaks after its first bytes: the caller's stream fails, and the log has no cut event", async () => {
    let fail!: () => void;
    const { send, events } = setUp(() => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode('{"results": ['));
        fail = () => controller.error(new Error("connection reset"));
      },
    }), { headers: { "content-type": "application/json" } }));
    const reader = (await send()).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"results": [');
    const next = reader.read();
    fail();
    await expect(next).rejects.toThrow("broken");
    expect(events()).toEqual([[200, undefined]]);
  });

  it("whose service sends a head and then nothing until the answer deadline: 504, the service let go", async () => {
    const body = serviceBody([], "stall");
    const { send, timer, events } = setUp(() => new Response(body.stream, { headers: { "content-type": "application/json" } }));
    const answer = send();
    await settle();
    timer.fire(3000);
    expect(await whole(await answer)).toEqual({ status: 504, headers: { ...json }, body: JSON.stringify({ status: 504, error: "The service did not finish answering within 3000 ms." }) });
    expect(body.state.cancelled).toBe(true);
    expect(events()).toEqual([[504, "answer timeout"]]);
  });

  it("that pauses past the idle timeout after its first bytes: cut, the service let go", async () => {
    const body = serviceBody(['{"results": ['], "stall");
    const { send, timer } = setUp(() => new Response(body.stream, { headers: { "content-type": "application/json" } }));
    const reader = (await send()).body!.getReader();
    await reader.read();
    const next = reader.read();
    await settle();
    timer.fire(2000);
    await expect(next).rejects.toThrow("answer idle");
    expect(body.state.cancelled).toBe(true);
  });

  it("that the caller stops reading: the service is let go and the deadline cleared", async () => {
    const body = serviceBody(['{"results": ['], "stall");
    const { send, timer, events } = setUp(() => new Response(body.stream, { headers: { "content-type": "application/json" } }));
    const reader = (await send()).body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(body.state.cancelled).toBe(true);
    expect(timer.pending.size).toBe(0);
    expect(events()).toEqual([[200, undefined]]);
  });

  it("that ends inside a list link is relayed as it came", async () => {
    const { send } = setUp(() => new Response('{"count": 2, "next": "https://api.example.com/public/v1/x/?pa', { headers: { "content-type": "application/json" } }));
    expect((await whole(await send())).body).toBe('{"count": 2, "next": "https://api.example.com/public/v1/x/?pa');
  });

  it("comes in chunks that are never empty, also while a link is held back to be rewritten", async () => {
    const { send } = setUp(() => new Response(serviceBody(["", '{"next": "https://api.', "example.com/public/", 'v1/x/?page=2"', "}"], "close").stream, { headers: { "content-type": "application/json" } }));
    const reader = (await send()).body!.getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value));
    expect(chunks).toEqual(['{"next": ', '"http://gateway.test/public/v1/x/?page=2"', "}"]);
  });
});

describe("an error body (read whole, to redact the key)", () => {
  const error = (chunks: string[], end: "stall" | "error" | "close", headers: Record<string, string> = {}) =>
    () => new Response(serviceBody(chunks, end).stream, { status: 500, headers: { "content-type": "application/json", ...headers } });

  it("that pauses past the idle timeout: 504, logged as answer idle", async () => {
    const { send, timer, events } = setUp(error(['{"status": 500, '], "stall"));
    const answer = send();
    await settle();
    timer.fire(2000);
    expect(await whole(await answer)).toEqual({ status: 504, headers: { ...json }, body: JSON.stringify({ status: 504, error: "The service did not finish its 500 answer in time." }) });
    expect(events()).toEqual([[504, "answer idle"]]);
    expect(timer.pending.size).toBe(0);
  });

  it("still running at the answer deadline: 504, logged as answer timeout", async () => {
    const { send, timer, events } = setUp(error(['{"status": 500, '], "stall"));
    const answer = send();
    await settle();
    timer.fire(3000);
    expect(await whole(await answer)).toEqual({ status: 504, headers: { ...json }, body: JSON.stringify({ status: 504, error: "The service did not finish its 500 answer in time." }) });
    expect(events()).toEqual([[504, "answer timeout"]]);
  });

  it("that breaks: 502", async () => {
    const { send, events } = setUp(error(['{"status": 500, '], "error"));
    expect(await whole(await send())).toEqual({ status: 502, headers: { ...json }, body: JSON.stringify({ status: 502, error: "The service's answer broke off (Error)." }) });
    expect(events()).toEqual([[502, undefined]]);
  });

  it("too large to redact, without Retry-After: replaced, and no Retry-After made up", async () => {
    const { send } = setUp(error(["x".repeat(70 * 1024)], "close"));
    expect(await whole(await send())).toEqual({ status: 500, headers: { ...json }, body: JSON.stringify({ status: 500, error: "The service answered 500 with an error body over 65536 bytes; it is not relayed." }) });
  });

  it("of exactly 64 KiB is relayed, the key redacted", async () => {
    const text = `${KEY}${"x".repeat(64 * 1024 - KEY.length)}`;
    const { send } = setUp(error([text.slice(0, 1000), text.slice(1000)], "close"));
    expect(await whole(await send())).toEqual({ status: 500, headers: { ...json }, body: `[redacted]${"x".repeat(64 * 1024 - KEY.length)}` });
  });
});

describe("a service that cannot be reached", () => {
  it.each([
    ["a TypeError without a cause", () => new TypeError("fetch failed"), "TypeError"],
    ["an error with a long code", () => Object.assign(new Error("x"), { cause: { code: "E".repeat(60) } }), "E".repeat(40)],
    ["an error with a numeric code", () => Object.assign(new Error("x"), { cause: { code: 111 } }), "Error"],
    ["an error with a long name", () => Object.assign(new Error("x"), { name: "N".repeat(60) }), "N".repeat(40)],
    ["something that is not an error", () => "refused", "unknown error"],
    ["nothing at all", () => undefined, "unknown error"],
  ])("answers 502 naming the cause, for %s", async (_what, reason, named) => {
    const { send } = setUp(() => Promise.reject(reason()));
    expect(await whole(await send())).toEqual({ status: 502, headers: { ...json }, body: JSON.stringify({ status: 502, error: `The service could not be reached (${named}).` }) });
  });
});

describe("a PATCH body", () => {
  it("sent in several chunks goes up whole and in order", async () => {
    const { send, upstream } = setUp(() => new Response("{}"));
    const res = await send({ method: "PATCH", body: serviceBody(['{"state":', '"paid",', '"paid_id":"P-1"}'], "close").stream, duplex: "half" });
    expect(res.status).toBe(200);
    expect(upstream.calls.map((c) => c.body)).toEqual(['{"state":"paid","paid_id":"P-1"}']);
  });

  it("that is missing is sent up as none", async () => {
    const { send, upstream } = setUp(() => new Response("{}"));
    expect((await send({ method: "PATCH" })).status).toBe(200);
    expect(upstream.calls.map((c) => [c.method, c.body])).toEqual([["PATCH", ""]]);
  });

  it("declared larger than the cap is refused before a byte of it is read", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull(controller) { pulled++; controller.enqueue(encode("{}")); controller.close(); } });
    const { send, upstream } = setUp(() => new Response("{}"), { maxBodyBytes: 10 });
    const res = await send({ method: "PATCH", body, duplex: "half", headers: { "Content-Length": "11" } });
    expect(await whole(res)).toEqual({ status: 413, headers: { ...json }, body: JSON.stringify({ status: 413, error: "The request body is larger than 10 bytes." }) });
    expect(pulled).toBe(0);
    expect(upstream.calls).toEqual([]);
  });

  it("declared larger than the cap and not sent is refused too", async () => {
    const { send, upstream } = setUp(() => new Response("{}"), { maxBodyBytes: 10 });
    const res = await send({ method: "PATCH", headers: { "Content-Length": "11" } });
    expect(await whole(res)).toEqual({ status: 413, headers: { ...json }, body: JSON.stringify({ status: 413, error: "The request body is larger than 10 bytes." }) });
    expect(upstream.calls).toEqual([]);
  });

  it("declared and sent at exactly the cap is forwarded", async () => {
    const { send, upstream } = setUp(() => new Response("{}"), { maxBodyBytes: 10 });
    const res = await send({ method: "PATCH", body: '{"a":"bc"}', headers: { "Content-Length": "10" } });
    expect(res.status).toBe(200);
    expect(upstream.calls.map((c) => c.body)).toEqual(['{"a":"bc"}']);
  });

  it("that breaks off is answered 408 and the connection closed, with no idle event in the log", async () => {
    const { send, upstream, events } = setUp(() => new Response("{}"));
    const res = await send({ method: "PATCH", body: serviceBody(['{"state":'], "error").stream, duplex: "half" });
    expect(await whole(res)).toEqual({ status: 408, headers: { ...json, connection: "close" }, body: JSON.stringify({ status: 408, error: "The request body broke off." }) });
    expect(upstream.calls).toEqual([]);
    expect(events()).toEqual([[408, undefined]]);
  });

  it("is not read for a GET, whatever its Content-Length says", async () => {
    const { send, upstream } = setUp(() => new Response("{}"), { maxBodyBytes: 10 });
    expect((await send({ headers: { "Content-Length": "5000" } })).status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
  });
});
