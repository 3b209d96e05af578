/**
 * Rule: each platform entry runs the one fetch handler with the configuration its platform gives, and a
 * configuration mistake names the variable to fix (Workers: a 500 and a line on stderr; Lambda: the function's
 * start fails). A Worker picks up changed variables; Azure's GET and HEAD carry no body; and the default
 * timer works where setTimeout gives a number (Workers), not only Node's handle.
 */
import { azureHandler, createGateway } from "../../src/gateway";
import worker from "../../src/gateway/worker";
import { collectLogs, stubUpstream } from "./doubles";

const ADDIN = "https://addin.example.com";
const OTHER = "https://other-addin.example.com";

describe("Cloudflare Workers entry", () => {
  let error: jest.SpyInstance;
  let log: jest.SpyInstance;
  beforeEach(() => {
    error = jest.spyOn(console, "error").mockImplementation(() => undefined);
    log = jest.spyOn(console, "log").mockImplementation(() => undefined);
  });
  afterEach(() => {
    error.mockRestore();
    log.mockRestore();
  });

  const base = { GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: ADDIN };
  const healthz = () => new Request("https://gw.example.workers.dev/healthz");

  it.each([
    [{ ...base, GATEWAY_ALLOW_ORIGINS: " , " }, "GATEWAY_ALLOW_ORIGINS: Name at least one allowed origin: the add-in's (where dist/ is hosted)."],
    [{ ...base, GATEWAY_TIMEOUT_MS: "0" }, "GATEWAY_TIMEOUT_MS: timeoutMs must be a whole number above 0; got 0."],
    [{ ...base, GATEWAY_IDLE_TIMEOUT_MS: "ten" }, "GATEWAY_IDLE_TIMEOUT_MS: idleTimeoutMs must be a whole number above 0; got NaN."],
    [{ ...base, GATEWAY_ANSWER_TIMEOUT_MS: "2.5" }, "GATEWAY_ANSWER_TIMEOUT_MS: answerTimeoutMs must be a whole number above 0; got 2.5."],
    [{ ...base, GATEWAY_PUBLIC_URL: "http://gw.example.com" }, "GATEWAY_PUBLIC_URL: The public URL must be the gateway's own https URL (http only on loopback), with no user info, query or fragment, like https://gateway.example.com; got 'http://gw.example.com'."],
    [{}, "GATEWAY_TARGET: The target must be an https URL (http only on loopback), like https://api.example.com; got ''."],
  ])("answers 500 naming the variable to fix: %j", async (env, message) => {
    const res = await worker.fetch(healthz(), env);
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { status: 500, error: `The gateway is misconfigured: ${message}` } });
    expect(error.mock.calls).toEqual([[`gateway: ${message}`]]);
  });

  it("with no variables at all, names the target", async () => {
    const res = await worker.fetch(healthz());
    expect((await res.json()).error).toBe("The gateway is misconfigured: GATEWAY_TARGET: The target must be an https URL (http only on loopback), like https://api.example.com; got ''.");
  });

  it.each([
    ["GATEWAY_TARGET", "http://api.example.com", "GATEWAY_TARGET: The target must be an https URL (http only on loopback), like https://api.example.com; got 'http://api.example.com'."],
    ["GATEWAY_ALLOW_ORIGINS", "*", "GATEWAY_ALLOW_ORIGINS: An allowed origin must be scheme://host[:port] with no path, https (http only on loopback), like https://addin.example.com; got '*'."],
    ["GATEWAY_TIMEOUT_MS", "0", "GATEWAY_TIMEOUT_MS: timeoutMs must be a whole number above 0; got 0."],
    ["GATEWAY_IDLE_TIMEOUT_MS", "0", "GATEWAY_IDLE_TIMEOUT_MS: idleTimeoutMs must be a whole number above 0; got 0."],
    ["GATEWAY_ANSWER_TIMEOUT_MS", "10", "GATEWAY_ANSWER_TIMEOUT_MS: answerTimeoutMs (10) must be at least timeoutMs (30000): the whole answer cannot take less than its start."],
    ["GATEWAY_PUBLIC_URL", "gw.example.com", "GATEWAY_PUBLIC_URL: The public URL must be the gateway's own https URL (http only on loopback), with no user info, query or fragment, like https://gateway.example.com; got 'gw.example.com'."],
  ])("notices %s changed to a bad value after it ran with a good one", async (name, value, message) => {
    expect((await worker.fetch(healthz(), base)).status).toBe(200);
    const res = await worker.fetch(healthz(), { ...base, [name]: value });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { status: 500, error: `The gateway is misconfigured: ${message}` } });
  });

  it("answers 500 for a variable bound to something that is not text, in the platform's words", async () => {
    const res = await worker.fetch(healthz(), { ...base, GATEWAY_TIMEOUT_MS: BigInt(5) });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { status: 500, error: "The gateway is misconfigured: Do not know how to serialize a BigInt" } });
    expect(error.mock.calls).toEqual([["gateway: Do not know how to serialize a BigInt"]]);
  });

  it("follows a change of its variables: the origins allowed are the current ones", async () => {
    const preflight = (origin: string) => new Request("https://gw.example.workers.dev/public/v1/x/", { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "GET" } });
    expect((await worker.fetch(preflight(OTHER), base)).status).toBe(403);
    expect((await worker.fetch(preflight(OTHER), { ...base, GATEWAY_ALLOW_ORIGINS: OTHER })).status).toBe(204);
    expect((await worker.fetch(preflight(ADDIN), { ...base, GATEWAY_ALLOW_ORIGINS: OTHER })).status).toBe(403);
    expect((await worker.fetch(preflight(ADDIN), { ...base, GATEWAY_PUBLIC_URL: "https://gw.example.com" })).status).toBe(204);
    expect((await worker.fetch(preflight(ADDIN), base)).status).toBe(204);
  });
});

describe("AWS Lambda entry", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  type Handler = (event: unknown, context: unknown) => Promise<Record<string, unknown>>;
  /** Loads the entry as Lambda does when the function starts, with process.env as it is now. */
  function load(): { handler?: Handler; error?: unknown } {
    let loaded: { handler?: Handler; error?: unknown } = {};
    jest.isolateModules(() => {
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
        loaded = { handler: require("../../src/gateway/lambda").handler };
      } catch (error) {
        loaded = { error };
      }
    });
    return loaded;
  }

  it("fails the function's start naming the variable to fix", async () => {
    Object.assign(process.env, { GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: ADDIN, GATEWAY_ANSWER_TIMEOUT_MS: "10" });
    const { error } = load();
    expect(String(error)).toBe("GatewayConfigError: GATEWAY_ANSWER_TIMEOUT_MS: answerTimeoutMs (10) must be at least timeoutMs (30000): the whole answer cannot take less than its start.");
  });

  it("an unexpected failure at start is left as it is, not dressed as a variable to fix", () => {
    const env = process.env;
    // A fault that is not a configuration mistake (here the environment itself cannot be read).
    process.env = new Proxy({ ...env }, {
      get: (target, name) => {
        if (name === "GATEWAY_TARGET") throw new TypeError("the environment cannot be read");
        return target[name as string];
      },
    });
    try {
      const { error } = load();
      expect(error).toBeInstanceOf(TypeError);
      expect(String(error)).toBe("TypeError: the environment cannot be read");
    } finally {
      process.env = env;
    }
  });

  it("answers a Function URL's event, and logs the request on console.log", async () => {
    Object.assign(process.env, { GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: ADDIN });
    const { handler } = load();
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const result = await handler!({
        version: "2.0", rawPath: "/healthz", rawQueryString: "", headers: { host: "abc.lambda-url.eu-west-1.on.aws" }, isBase64Encoded: false,
        requestContext: { domainName: "abc.lambda-url.eu-west-1.on.aws", http: { method: "GET", path: "/healthz", sourceIp: "203.0.113.1" } },
      }, {});
      expect(result).toMatchObject({ statusCode: 200, body: '{"status":"ok"}', headers: { "content-type": "application/json", "cache-control": "no-store" } });
      expect(log.mock.calls).toHaveLength(1);
      expect(JSON.parse(log.mock.calls[0][0] as string)).toMatchObject({ method: "GET", path: "/healthz", status: 200 });
    } finally {
      log.mockRestore();
    }
  });
});

describe("Azure Functions adapter", () => {
  function setUp() {
    const upstream = stubUpstream(() => new Response('{"count":0}', { headers: { "content-type": "application/json" } }));
    const logs = collectLogs();
    const handler = azureHandler(createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: logs.log, fetch: upstream.fetch }));
    const request = (method: string) => ({
      url: "https://spend-gw.azurewebsites.net/public/v1/x/", method, headers: new Headers({ Origin: ADDIN, "Access-Control-Request-Method": "GET" }),
      arrayBuffer: async () => new ArrayBuffer(0),
    });
    return { handler, request, upstream };
  }

  it.each([["GET", '{"count":0}'], ["HEAD", ""]])("forwards a %s", async (method, body) => {
    const { handler, request, upstream } = setUp();
    const answer = await handler(request(method));
    expect({ status: answer.status, body: answer.body === undefined ? "" : await new Response(answer.body).text() }).toEqual({ status: 200, body });
    expect(upstream.calls.map((c) => c.method)).toEqual([method]);
  });

  it("answers a preflight", async () => {
    const { handler, request } = setUp();
    const answer = await handler(request("OPTIONS"));
    expect({ status: answer.status, origin: answer.headers["access-control-allow-origin"], body: answer.body }).toEqual({ status: 204, origin: ADDIN, body: undefined });
  });
});

describe("the default timer", () => {
  it("works where setTimeout gives a plain number (Workers)", async () => {
    const real = globalThis.setTimeout;
    const numbered = jest.spyOn(globalThis, "setTimeout").mockImplementation(((fire: () => void, ms: number) => Number(real(fire, ms))) as unknown as typeof setTimeout);
    try {
      const upstream = stubUpstream(() => new Response("{}", { headers: { "content-type": "application/json" } }));
      const gateway = createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: () => undefined, fetch: upstream.fetch });
      const res = await gateway.fetch(new Request("http://gateway.test/public/v1/x/"));
      expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: "{}" });
      expect(numbered).toHaveBeenCalled();
    } finally {
      numbered.mockRestore();
    }
  });
});
