/**
 * Rule: a configuration the gateway cannot run with is refused when the gateway is created, with a message that
 * names the field and what it takes (the operator reads it at start-up, not on Excel's first request); every
 * configuration it can run with starts, whatever harmless spelling the operator used.
 */
import { checkOrigin, checkTarget, configFromEnv, createGateway, GatewayConfigError, type GatewayConfig } from "../../src/gateway";
import { stubUpstream } from "./doubles";

const ADDIN = "https://addin.example.com";

/** The error creating a gateway with `overrides` throws, as the operator sees it. */
function refusal(overrides: Partial<GatewayConfig>): { field: string; text: string } {
  try {
    createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: () => undefined, ...overrides });
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return { field: (error as GatewayConfigError).field, text: String(error) };
  }
  throw new Error("the configuration was accepted");
}

/** Where a gateway built from `overrides` sends GET /public/v1/x/. */
async function forwardedTo(overrides: Partial<GatewayConfig>): Promise<string> {
  const upstream = stubUpstream(() => new Response("{}"));
  const gateway = createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: () => undefined, fetch: upstream.fetch, ...overrides });
  const res = await gateway.fetch(new Request("http://gateway.test/public/v1/x/"));
  expect(res.status).toBe(200);
  return upstream.calls[0].url;
}

describe("the target", () => {
  it.each([
    ["http://mylocalhost:3000", "a host that only ends in localhost"],
    ["http://localhost.evil.example:3000", "a host that only starts with localhost"],
    ["http://127.0.0.1.evil.example", "a host that only starts with a loopback address"],
    ["ftp://127.0.0.1/", "another scheme on loopback"],
    ["ws://localhost:3000", "a websocket URL on loopback"],
  ])("refuses %s (%s): plain http would carry the key in clear", (target) => {
    expect(refusal({ target })).toEqual({
      field: "target",
      text: `GatewayConfigError: The target must be an https URL (http only on loopback), like https://api.example.com; got '${target}'.`,
    });
  });

  it.each(["https://user@api.example.com", "https://:pw@api.example.com", "https://user:pw@api.example.com"])("refuses %s, with a user name or a password", (target) => {
    expect(refusal({ target })).toEqual({
      field: "target",
      text: "GatewayConfigError: The target must not carry a user name or password; the key travels in each request's Authorization header.",
    });
  });

  it.each(["https://api.example.com/?key=1", "https://api.example.com/#top"])("refuses %s, with a query or fragment", (target) => {
    expect(refusal({ target })).toEqual({ field: "target", text: `GatewayConfigError: The target must have no query or fragment; got '${target}'.` });
  });

  it.each([
    ["http://127.0.0.10:3100", "http://127.0.0.10:3100/public/v1/x/"],
    ["http://127.1.22.255:3100", "http://127.1.22.255:3100/public/v1/x/"],
    ["http://LOCALHOST:3100", "http://localhost:3100/public/v1/x/"],
    ["http://[::1]:3100", "http://[::1]:3100/public/v1/x/"],
    ["https://api.example.com/spend//", "https://api.example.com/spend/public/v1/x/"],
    // Pasted from a web page or a document: a no-break space around it.
    ["\u00a0https://api.example.com/spend\u00a0", "https://api.example.com/spend/public/v1/x/"],
  ])("takes %s and forwards under it", async (target, url) => {
    expect(await forwardedTo({ target })).toBe(url);
  });
});

describe("the public URL", () => {
  it.each([
    "http://gw.example.com", "ftp://localhost", "https://user@gw.example.com", "https://:pw@gw.example.com",
    "https://gw.example.com/?a=1", "https://gw.example.com/#x", "gw.example.com",
  ])("refuses %s", (publicUrl) => {
    expect(refusal({ publicUrl })).toEqual({
      field: "publicUrl",
      text: `GatewayConfigError: The public URL must be the gateway's own https URL (http only on loopback), with no user info, query or fragment, like https://gateway.example.com; got '${publicUrl}'.`,
    });
  });

  it("takes one with trailing slashes and spaces around it, and points the list links there", async () => {
    const upstream = stubUpstream(() => new Response(JSON.stringify({ next: "https://api.example.com/public/v1/x/?page=2" }), { headers: { "content-type": "application/json" } }));
    const gateway = createGateway({ target: "https://api.example.com", allowOrigins: [ADDIN], log: () => undefined, fetch: upstream.fetch, publicUrl: "\u00a0https://gw.example.com/edge//\u00a0" });
    const res = await gateway.fetch(new Request("http://internal:8080/public/v1/x/"));
    expect(await res.json()).toEqual({ next: "https://gw.example.com/edge/public/v1/x/?page=2" });
  });
});

describe("the allowed origins", () => {
  it("refuses an origin with a path, naming what an origin is", () => {
    expect(refusal({ allowOrigins: ["https://addin.example.com/taskpane.html"] })).toEqual({
      field: "allowOrigins",
      text: "GatewayConfigError: An allowed origin must be scheme://host[:port] with no path, https (http only on loopback), like https://addin.example.com; got 'https://addin.example.com/taskpane.html'.",
    });
  });

  it("refuses none at all", () => {
    expect(refusal({ allowOrigins: [] })).toEqual({ field: "allowOrigins", text: "GatewayConfigError: Name at least one allowed origin: the add-in's (where dist/ is hosted)." });
  });

  it("takes one written with spaces around it (no-break ones too)", () => {
    expect(checkOrigin("\u00a0https://addin.example.com\u00a0")).toBe(ADDIN);
  });
});

describe("the limits", () => {
  it.each([
    ["timeoutMs", 0], ["timeoutMs", 1.5], ["idleTimeoutMs", 0], ["idleTimeoutMs", 2.5], ["answerTimeoutMs", -1], ["maxBodyBytes", 0], ["maxBodyBytes", 0.5],
  ] as const)("refuses %s %s: a whole number above 0", (field, value) => {
    expect(refusal({ [field]: value })).toEqual({ field, text: `GatewayConfigError: ${field} must be a whole number above 0; got ${value}.` });
  });

  it("refuses an answer deadline shorter than the time to start answering", () => {
    expect(refusal({ timeoutMs: 5000, answerTimeoutMs: 4999 })).toEqual({
      field: "answerTimeoutMs",
      text: "GatewayConfigError: answerTimeoutMs (4999) must be at least timeoutMs (5000): the whole answer cannot take less than its start.",
    });
  });

  it("takes 1 ms, 1 byte, and an answer deadline equal to the time to start answering", async () => {
    expect(await forwardedTo({ timeoutMs: 1, idleTimeoutMs: 1, answerTimeoutMs: 1, maxBodyBytes: 1 })).toBe("https://api.example.com/public/v1/x/");
  });
});

describe("the platform variables", () => {
  const base = { GATEWAY_TARGET: "https://api.example.com", GATEWAY_ALLOW_ORIGINS: ADDIN };

  it("treat a blank variable as not set: the default, no public URL", () => {
    expect(configFromEnv({ ...base, GATEWAY_TIMEOUT_MS: " ", GATEWAY_IDLE_TIMEOUT_MS: "", GATEWAY_PUBLIC_URL: "  " }))
      .toEqual({ target: "https://api.example.com", allowOrigins: [ADDIN], timeoutMs: undefined, idleTimeoutMs: undefined, answerTimeoutMs: undefined });
  });

  it("read numbers and a public URL written with spaces around them", () => {
    expect(configFromEnv({ ...base, GATEWAY_ANSWER_TIMEOUT_MS: " 60000 ", GATEWAY_PUBLIC_URL: " https://gw.example.com " }))
      .toMatchObject({ answerTimeoutMs: 60000, publicUrl: "https://gw.example.com" });
  });

  it("read origins separated by commas, spaces and newlines, with separators at either end", () => {
    expect(configFromEnv({ ...base, GATEWAY_ALLOW_ORIGINS: ` ,${ADDIN},, \n https://b.example.com , ` }).allowOrigins).toEqual([ADDIN, "https://b.example.com"]);
  });
});

describe("checkTarget and checkOrigin, as platform entries call them", () => {
  it("name the field of what they refuse", () => {
    expect(() => checkTarget("not a url")).toThrow(new GatewayConfigError("target", "The target must be an https URL (http only on loopback), like https://api.example.com; got 'not a url'."));
  });
});
