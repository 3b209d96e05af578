/**
 * Rule: a browser's preflight is answered 204 only for an allowed origin asking for a forwarded method and the
 * headers the add-in sends; any other is refused 403 with a JSON message naming what was refused (cut to a
 * readable length) and a Vary that keeps caches from mixing origins. A request that is not a preflight (no
 * Origin, or no Access-Control-Request-Method) is never answered as one: it goes on to be forwarded or refused.
 */
import { createGateway } from "../../src/gateway";
import { collectLogs, stubUpstream } from "./doubles";

const ADDIN = "https://addin.example.com";
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

function setUp() {
  const upstream = stubUpstream(() => new Response('{"ok":true}', { headers: { "content-type": "application/json" } }));
  const logs = collectLogs();
  const gateway = createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: logs.log, fetch: upstream.fetch });
  const send = async (init: RequestInit & { headers: Record<string, string> }) => {
    const res = await gateway.fetch(new Request("http://gateway.test/public/v1/x/", init));
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  return { send, upstream, logs: logs.entries };
}

const preflight = (headers: Record<string, string>) => ({ method: "OPTIONS", headers });

describe("a refused preflight names what was refused", () => {
  it("another origin, cut at 200 characters", async () => {
    const origin = `https://${"a".repeat(250)}.example.net`;
    const { send } = setUp();
    expect(await send(preflight({ Origin: origin, "Access-Control-Request-Method": "GET" }))).toEqual({
      status: 403,
      headers: { "content-type": "application/json", "x-content-type-options": "nosniff", vary: PREFLIGHT_VARY },
      body: JSON.stringify({ status: 403, error: `Origin ${origin.slice(0, 200)} is not allowed by this gateway.` }),
    });
  });

  it("a method the gateway does not forward, cut at 20 characters", async () => {
    const { send } = setUp();
    expect(await send(preflight({ Origin: ADDIN, "Access-Control-Request-Method": "PROPPATCHVERYLONGMETHODNAME" }))).toEqual({
      status: 403,
      headers: { "content-type": "application/json", "x-content-type-options": "nosniff", vary: PREFLIGHT_VARY },
      body: JSON.stringify({ status: 403, error: "Method PROPPATCHVERYLONGMET is not allowed; the gateway forwards GET, HEAD, PATCH." }),
    });
  });

  it("every header the add-in never sends, and only those, cut at 200 characters", async () => {
    const { send } = setUp();
    const many = Array.from({ length: 30 }, (_, i) => `x-custom-${i}`);
    const res = await send(preflight({ Origin: ADDIN, "Access-Control-Request-Method": "PATCH", "Access-Control-Request-Headers": `Authorization, X-Debug ,content-type,${many.join(",")}` }));
    expect(res).toEqual({
      status: 403,
      headers: { "content-type": "application/json", "x-content-type-options": "nosniff", vary: PREFLIGHT_VARY },
      body: JSON.stringify({ status: 403, error: `Request header ${["x-debug", ...many].join(", ").slice(0, 200)} is not allowed; the gateway forwards authorization, content-type, accept.` }),
    });
  });
});

describe("an allowed preflight", () => {
  it.each([
    ["asks for no headers", undefined],
    ["lists its headers with spaces and empty items", " Authorization ,, Content-Type , Accept,"],
  ])("is answered 204 when it %s", async (_what, asked) => {
    const { send, upstream } = setUp();
    const res = await send(preflight({ Origin: ADDIN, "Access-Control-Request-Method": "GET", ...(asked === undefined ? {} : { "Access-Control-Request-Headers": asked }) }));
    expect(res).toEqual({
      status: 204,
      headers: {
        "access-control-allow-origin": ADDIN, "access-control-allow-methods": "GET, HEAD, PATCH", "access-control-allow-headers": "authorization, content-type, accept",
        "access-control-max-age": "600", vary: PREFLIGHT_VARY,
      },
      body: "",
    });
    expect(upstream.calls).toEqual([]);
  });
});

describe("what is not a preflight", () => {
  it("an OPTIONS with no Origin (curl) is not forwarded: 405 naming what is", async () => {
    const { send, upstream } = setUp();
    const res = await send(preflight({ "Access-Control-Request-Method": "GET" }));
    expect(res).toEqual({
      status: 405,
      headers: { "content-type": "application/json", "x-content-type-options": "nosniff", allow: "GET, HEAD, PATCH, OPTIONS", vary: "Origin" },
      body: JSON.stringify({ status: 405, error: "Method OPTIONS is not forwarded; the gateway forwards GET, HEAD, PATCH." }),
    });
    expect(upstream.calls).toEqual([]);
  });

  it("an OPTIONS from the add-in without Access-Control-Request-Method is not answered as a preflight", async () => {
    const { send } = setUp();
    const res = await send(preflight({ Origin: ADDIN }));
    expect(res.status).toBe(405);
    expect(res.headers["access-control-allow-origin"]).toBe(ADDIN);
    expect(res.headers["access-control-allow-methods"]).toBeUndefined();
  });

  it("a GET from the add-in that carries Access-Control-Request-Method is forwarded, not answered 204", async () => {
    const { send, upstream } = setUp();
    const res = await send({ headers: { Origin: ADDIN, "Access-Control-Request-Method": "GET" } });
    expect(res).toEqual({
      status: 200,
      headers: {
        "content-type": "application/json", "x-content-type-options": "nosniff", vary: "Origin",
        "access-control-allow-origin": ADDIN, "access-control-expose-headers": "Retry-After",
      },
      body: '{"ok":true}',
    });
    expect(upstream.calls).toHaveLength(1);
  });
});

describe("an actual request from another origin", () => {
  it("is refused 403 naming the origin, cut at 200 characters, with Vary: Origin", async () => {
    const origin = `https://${"b".repeat(250)}.example.net`;
    const { send, upstream } = setUp();
    expect(await send({ headers: { Origin: origin } })).toEqual({
      status: 403,
      headers: { "content-type": "application/json", "x-content-type-options": "nosniff", vary: "Origin" },
      body: JSON.stringify({ status: 403, error: `Origin ${origin.slice(0, 200)} is not allowed by this gateway.` }),
    });
    expect(upstream.calls).toEqual([]);
  });
});
