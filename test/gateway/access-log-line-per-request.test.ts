/**
 * Rule: every request gets exactly one access-log entry, whole and exact (time, method, path with query, status,
 * ms, origin, event), cut to a readable length, with the values of secret-looking query parameters and the
 * caller's key removed; an entry has no `event` key unless the gateway ended the exchange itself. An
 * unexpected failure inside the gateway is answered 500 in JSON and told on stderr by its name only.
 */
import { createGateway, formatJson, formatText, type GatewayConfig } from "../../src/gateway";
import { collectLogs, steppingClock, stubUpstream } from "./doubles";

const ADDIN = "https://addin.example.com";
const KEY = "sk_live_accesslog_0123456789";

function setUp(overrides: Partial<GatewayConfig> = {}) {
  const upstream = stubUpstream(() => new Response("{}", { headers: { "content-type": "application/json" } }));
  const logs = collectLogs();
  const gateway = createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: logs.log, now: steppingClock(), fetch: upstream.fetch, ...overrides });
  const send = (path: string, init: RequestInit = {}) => gateway.fetch(new Request(`http://gateway.test${path}`, init));
  return { send, logs: logs.entries, upstream };
}

const entry = (path: string, more: Record<string, unknown> = {}) => ({ time: "2026-05-01T10:00:00.000Z", method: "GET", path, status: 200, ms: 7, ...more });

describe("the query in the log", () => {
  it.each([
    ["/public/v1/x/?token=abc123&page=2", "/public/v1/x/?token=[redacted]&page=2"],
    ["/public/v1/x/?page=2&Session_Id=s-9&sort=asc", "/public/v1/x/?page=2&Session_Id=[redacted]&sort=asc"],
    ["/public/v1/x/?a%70i_key=k1", "/public/v1/x/?a%70i_key=[redacted]"],
    // A name that cannot be decoded is judged as written.
    ["/public/v1/x/?access_token%E0=t1", "/public/v1/x/?access_token%E0=[redacted]"],
    ["/public/v1/x/?signature=a=b=c&x=1", "/public/v1/x/?signature=[redacted]&x=1"],
    // A flag without a value has nothing to hide, and an empty name is no secret.
    ["/public/v1/x/?token&page=2", "/public/v1/x/?token&page=2"],
    ["/public/v1/x/?=token&page=2", "/public/v1/x/?=token&page=2"],
    ["/public/v1/x/?state=approved&page_size=5", "/public/v1/x/?state=approved&page_size=5"],
  ])("%s is logged as %s", async (path, logged) => {
    const { send, logs } = setUp();
    await send(path);
    expect(logs).toStrictEqual([entry(logged)]);
  });

  it("a path longer than 2048 characters is logged cut at 2048", async () => {
    const { send, logs } = setUp();
    const path = `/public/v1/${"p/".repeat(1500)}`;
    await send(path);
    expect(logs).toStrictEqual([entry(path.slice(0, 2048))]);
  });
});

describe("what the log says of the caller", () => {
  it("a method is logged cut at 20 characters, and refused with 405 naming it so", async () => {
    const { send, logs } = setUp();
    const res = await send("/public/v1/x/", { method: "PROPFINDWITHAVERYLONGNAME" });
    expect(await res.json()).toEqual({ status: 405, error: "Method PROPFINDWITHAVERYLON is not forwarded; the gateway forwards GET, HEAD, PATCH." });
    expect(logs).toStrictEqual([entry("/public/v1/x/", { method: "PROPFINDWITHAVERYLON", status: 405 })]);
  });

  it("an origin is logged cut at 200 characters, the key redacted from it", async () => {
    const { send, logs } = setUp();
    const origin = `https://${KEY}.${"o.".repeat(125)}example.net`;
    await send("/public/v1/x/", { headers: { Origin: origin, Authorization: `Api-Key ${KEY}` } });
    expect(logs).toStrictEqual([entry("/public/v1/x/", { status: 403, origin: `https://[redacted].${"o.".repeat(125)}`.slice(0, 200) })]);
  });
});

describe("a key the gateway holds itself (team mode's)", () => {
  it("is refused in the URL and redacted from the line, though no header carries it and it has no key's shape", async () => {
    const { send, logs, upstream } = setUp({ knownKeys: ["team-k3y"] });
    const res = await send(`/public/v1/x/?note=${encodeURIComponent("team-k3y")}`);
    expect(res.status).toBe(400);
    await send("/public/v1/x/", { headers: { Origin: "https://team-k3y.example.net" } });
    expect(upstream.calls).toEqual([]);
    expect(logs).toStrictEqual([entry("/public/v1/x/?note=[redacted]", { status: 400 }), entry("/public/v1/x/", { time: "2026-05-01T10:00:00.014Z", status: 403, origin: "https://[redacted].example.net" })]);
  });
});

describe("the health check", () => {
  it("answers JSON that no cache keeps", async () => {
    const { send } = setUp();
    const res = await send("/healthz");
    expect({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }).toEqual({
      status: 200, headers: { "content-type": "application/json", "cache-control": "no-store", vary: "Origin" }, body: '{"status":"ok"}',
    });
  });
});

describe("an exchange the gateway cuts after the head went out", () => {
  it("gets a second entry, with its own duration and the event", async () => {
    let fail!: () => void;
    const upstream = stubUpstream(() => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"results": ['));
        fail = () => controller.error(new Error("reset"));
      },
    }), { headers: { "content-type": "application/json" } }));
    const timers: Array<() => void> = [];
    const { send, logs } = setUp({ fetch: upstream.fetch, timer: { set: (fire) => timers.push(fire), clear: () => undefined } });
    const res = await send("/public/v1/x/");
    const reader = res.body!.getReader();
    await reader.read();
    const next = reader.read();
    // The idle timers, fired in turn: the last one is the pause after the first chunk.
    timers.at(-1)!();
    await expect(next).rejects.toThrow("answer idle");
    fail();
    expect(logs).toStrictEqual([entry("/public/v1/x/"), entry("/public/v1/x/", { ms: 14, event: "answer idle: cut after the head was sent" })]);
  });
});

describe("an unexpected failure inside the gateway", () => {
  it("is answered 500 in JSON and told on stderr by its name, method and path, the key redacted", async () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { send } = setUp({ log: () => { throw new RangeError(`log full ${KEY}`); } });
      const res = await send(`/public/v1/x/?q=${KEY}&api_key=k2`, { method: "PROPFINDWITHAVERYLONGNAME", headers: { Authorization: `Api-Key ${KEY}` } });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { status: 500, error: "Unexpected gateway error." } });
      expect(error.mock.calls).toEqual([["gateway: unexpected RangeError on PROPFINDWITHAVERYLON /public/v1/x/?q=[redacted]&api_key=[redacted]"]]);
    } finally {
      error.mockRestore();
    }
  });
});

describe("the CLI's two forms of an entry", () => {
  const full = { time: "2026-05-01T10:00:00.000Z", method: "GET", path: "/public/v1/x/", status: 504, ms: 12, origin: ADDIN, event: "answer idle" };

  it("the text form names each part, origin and event only when there are some", () => {
    expect(formatText(full)).toBe(`2026-05-01T10:00:00.000Z GET /public/v1/x/ 504 12ms origin=${ADDIN} (answer idle)`);
    expect(formatText({ ...full, origin: undefined, event: undefined })).toBe("2026-05-01T10:00:00.000Z GET /public/v1/x/ 504 12ms");
  });

  it("the JSON form is one object", () => {
    expect(formatJson(full)).toBe(JSON.stringify(full));
  });
});
