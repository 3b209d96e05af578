/**
 * The platform entries around the one fetch handler: Cloudflare Workers (`export default { fetch }` with
 * variables), Azure Functions (HttpRequest-like in, HttpResponseInit out), and the configuration checks each
 * runs at start-up. (The rule that lets the handler run on Workers, no Node module or global, is eslint's.)
 */
import { azureHandler, checkOrigin, checkTarget, configFromEnv, createGateway, GatewayConfigError } from "../../src/gateway";
import worker from "../../src/gateway/worker";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

const ADDIN = "https://addin.example.com";
let f: SandboxFixture;
beforeAll(async () => {
  f = await withSandbox();
});
afterAll(() => f.sandbox.close());

const listPath = () => `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/allowances/?page_size=3`;

describe("Cloudflare Workers entry", () => {
  const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
  const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
  afterAll(() => {
    log.mockRestore();
    error.mockRestore();
  });

  it("forwards with the configuration from its variables and logs JSON lines without the key", async () => {
    const env = { GATEWAY_TARGET: f.sandbox.baseUrl, GATEWAY_ALLOW_ORIGINS: `${ADDIN}, https://other-addin.example.com` };
    const res = await worker.fetch(new Request(`https://gw.example.workers.dev${listPath()}`, { headers: { Authorization: `Api-Key ${f.enterprise.api_key}`, Origin: ADDIN } }), env);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ADDIN);
    expect((await res.json()).results).toHaveLength(3);
    const line = JSON.parse(log.mock.calls.at(-1)![0] as string);
    expect(line).toMatchObject({ method: "GET", status: 200, origin: ADDIN });
    expect(JSON.stringify(log.mock.calls)).not.toContain(f.enterprise.api_key);
  });

  it("answers 500 naming the variable to fix when it is misconfigured", async () => {
    const res = await worker.fetch(new Request("https://gw.example.workers.dev/healthz"), { GATEWAY_TARGET: "http://api.example.com", GATEWAY_ALLOW_ORIGINS: ADDIN });
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(/^The gateway is misconfigured: GATEWAY_TARGET: The target must be an https URL \(http only on loopback\)/);
  });
});

describe("Azure Functions adapter", () => {
  it("turns an HttpRequest into a Request and the answer into an HttpResponseInit, body streamed", async () => {
    const handler = azureHandler(createGateway({ target: f.sandbox.baseUrl, allowOrigins: [ADDIN], log: () => undefined }));
    const sub = f.enterprise.subsidiaries[0];
    const pending = f.sandbox.store.allowancesOf(sub).find((a) => a.state === "approved" || a.state === "pending")!;
    const body = JSON.stringify({ state: "accounted", accounted_id: "AZ-1" });
    const answer = await handler({
      url: `https://spend-gw.azurewebsites.net${f.prefix}/subsidiaries/${sub}/allowances/${pending.id}/`,
      method: "PATCH",
      headers: new Headers({ Authorization: `Api-Key ${f.enterprise.api_key}`, "Content-Type": "application/json", Origin: ADDIN }),
      arrayBuffer: async () => new TextEncoder().encode(body).buffer as ArrayBuffer,
    });
    const text = await new Response(answer.body).text();
    expect({ status: answer.status, origin: answer.headers["access-control-allow-origin"] }).toEqual({ status: pending.state === "approved" ? 200 : 400, origin: ADDIN });
    expect(JSON.parse(text)).toHaveProperty(pending.state === "approved" ? "state" : "error");
  });
});

describe("configuration checks (start-up, not first request)", () => {
  it.each([
    ["http://api.example.com", /https URL/],
    ["https://user:pw@api.example.com", /user name or password/],
    ["https://api.example.com/?key=1", /no query or fragment/],
    ["not a url", /https URL/],
  ])("refuses the target %s", (target, message) => {
    expect(() => checkTarget(target)).toThrow(message);
  });

  it("takes https targets, and http on loopback, without a trailing slash", () => {
    expect(checkTarget("https://api.example.com/")).toBe("https://api.example.com");
    expect(checkTarget("https://api.example.com/spend/")).toBe("https://api.example.com/spend");
    expect(checkTarget("http://127.0.0.1:3100")).toBe("http://127.0.0.1:3100");
  });

  it.each(["*", "null", "https://addin.example.com/taskpane.html", "http://addin.example.com", "addin.example.com"])("refuses the allowed origin %s", (origin) => {
    expect(() => checkOrigin(origin)).toThrow(GatewayConfigError);
  });

  it("normalizes an origin written with a trailing slash or default port", () => {
    expect(checkOrigin("https://addin.example.com/")).toBe(ADDIN);
    expect(checkOrigin("https://addin.example.com:443")).toBe(ADDIN);
    expect(checkOrigin("http://localhost:3000")).toBe("http://localhost:3000");
  });

  it("refuses a gateway with no allowed origin", () => {
    expect(() => createGateway({ target: "https://api.example.com", allowOrigins: [] })).toThrow(/at least one allowed origin/);
  });

  it("reads the platform variables", () => {
    expect(configFromEnv({ GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: "https://a.example.com,https://b.example.com https://c.example.com", GATEWAY_TIMEOUT_MS: "15000" }))
      .toEqual({ target: "https://api.example.com", allowOrigins: ["https://a.example.com", "https://b.example.com", "https://c.example.com"], timeoutMs: 15000 });
  });

  it("reads the optional limits and the public URL, and names the variable of a bad one", () => {
    const env = {
      GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: "https://a.example.com", GATEWAY_IDLE_TIMEOUT_MS: "5000",
      GATEWAY_ANSWER_TIMEOUT_MS: "60000", GATEWAY_PUBLIC_URL: "https://gw.example.com",
    };
    expect(configFromEnv(env)).toMatchObject({ idleTimeoutMs: 5000, answerTimeoutMs: 60000, publicUrl: "https://gw.example.com" });
    const error = (() => {
      try {
        createGateway(configFromEnv({ ...env, GATEWAY_ANSWER_TIMEOUT_MS: "10" }));
      } catch (e) {
        return e as GatewayConfigError;
      }
      throw new Error("accepted");
    })();
    expect(error.field).toBe("answerTimeoutMs");
    expect(error.message).toBe("answerTimeoutMs (10) must be at least timeoutMs (30000): the whole answer cannot take less than its start.");
  });
});

// Web-standard only, so that it runs on Workers: eslint.config.mjs refuses, in every gateway file but the Node entries,
// an import other than ./x and hono and any Node global (Buffer, process, require, __dirname...).
