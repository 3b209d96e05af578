/** The one redaction point: every registered key, in every spelling, anywhere in a text. */
import { inspect } from "node:util";
import * as api from "../../src/api";
import { REDACTED, SpendClient, base64Cores, forgetSecret, literalForms, redact, redactSecrets, registerSecret } from "../../src/api";
import { containsSecret } from "./helpers/leaks";

const KEY = "sk_live_4f9a+Zq/8w=Tx 7&Lm~Qp";
const b64 = (text: string) => Buffer.from(text).toString("base64");

beforeAll(() => registerSecret(KEY));

describe("redactSecrets", () => {
  it.each([
    ["raw", KEY],
    ["in a header", `Authorization: Api-Key ${KEY}`],
    ["encodeURIComponent", encodeURIComponent(KEY)],
    ["encodeURI", encodeURI(KEY)],
    ["form encoding", new URLSearchParams({ api_key: KEY }).toString()],
    ["lower-case percent escapes", encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ["encoded twice", encodeURIComponent(encodeURIComponent(KEY))],
    ["JSON-escaped", JSON.stringify({ key: KEY })],
    ["base64", b64(KEY)],
    ["base64 without padding", b64(KEY).replace(/=+$/, "")],
    ["base64 url-safe", Buffer.from(KEY).toString("base64url")],
    ["basic auth enterprise:key", `Basic ${b64(`ent-1:${KEY}`)}`],
    ["basic auth with a longer enterprise id", `Basic ${b64(`0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d:${KEY}`)}`],
    ["basic auth key:", `Basic ${b64(`${KEY}:`)}`],
    ["base64 of the whole header", b64(`Api-Key ${KEY}`)],
  ])("%s", (_name, echo) => {
    const text = `The proxy said: [${echo}] (request 7).`;
    const out = redactSecrets(text);
    expect(containsSecret(out, KEY)).toBe(false);
    expect(out).toContain(REDACTED);
    expect(out.startsWith("The proxy said: [")).toBe(true);
    expect(out.endsWith("] (request 7).")).toBe(true);
  });

  it("every occurrence, and leaves text without the key alone", () => {
    expect(redactSecrets(`${KEY} and ${KEY}`)).toBe(`${REDACTED} and ${REDACTED}`);
    expect(redactSecrets("The service failed (HTTP 500) on GET /x; try again later.")).toBe("The service failed (HTTP 500) on GET /x; try again later.");
  });

  it("covers every key a client was built with, until forgotten", () => {
    const other = "sk_live_second_key_998877";
    new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "e", apiKey: ` ${other} ` });
    expect(redactSecrets(`${KEY} / ${other} / ${b64(other)}`)).toBe(`${REDACTED} / ${REDACTED} / ${REDACTED}`);
    forgetSecret(other);
    expect(redactSecrets(other)).toBe(other);
  });

  it("a very short key is redacted raw, but its derived forms do not eat ordinary words", () => {
    expect(literalForms("k")).toEqual(["k"]);
    expect(base64Cores("k")).toEqual([]);
    expect(redact("a key", "k")).toBe(`a ${REDACTED}ey`);
  });

  it("skips the pattern only where it could not match: the same result as running it on every text", () => {
    // Texts around every spelling of the key, cut at every length from either end, and ordinary text.
    const spellings = [...literalForms(KEY), ...base64Cores(KEY), b64(`ent-1:${KEY}`), Buffer.from(`x${KEY}`).toString("base64url"), KEY.toUpperCase()];
    const texts = spellings.flatMap((s) => Array.from({ length: s.length + 1 }, (_, i) => [`«${s.slice(i)}»`, `«${s.slice(0, s.length - i)}»`, `a ${s} b ${s.slice(i)}`]).flat());
    texts.push("", "The service failed (HTTP 500).", "x".repeat(40_000), `${"y".repeat(40_000)}${KEY}`);
    let changed = 0;
    for (const text of texts) {
      const out = redactSecrets(text);
      expect(out).toBe(redact(text, KEY)); // redact() always runs the pattern
      if (out !== text) changed++;
    }
    // Both kinds are there: texts the pattern changes and texts it leaves alone.
    expect(changed).toBeGreaterThan(100);
    expect(texts.length - changed).toBeGreaterThan(100);
  });

  it("redact() works on a key that was never registered", () => {
    expect(redact(`x ${b64("unregistered-key-123")} y`, "unregistered-key-123")).toBe(`x ${REDACTED} y`);
    expect(redactSecrets("unregistered-key-123")).toBe("unregistered-key-123");
  });
});

describe("every error class of src/api passes what it is given through redactSecrets", () => {
  const request = { method: "GET", url: `/x?key=${encodeURIComponent(KEY)}` };
  const echo = `key ${KEY} / ${b64(`ent-1:${KEY}`)}`;
  it.each([
    ["SpendSyncError", () => new api.SpendSyncError(echo)],
    ["HttpError", () => new api.HttpError(echo, 500, echo, request)],
    ["AuthError", () => new api.AuthError(echo, 403, echo, request)],
    ["NotFoundError", () => new api.NotFoundError(echo, 404, echo, request)],
    ["RejectedError", () => new api.RejectedError(echo, 400, echo, request)],
    ["RateLimitError", () => new api.RateLimitError(echo, 429, echo, request, 1000)],
    ["ServerError", () => new api.ServerError(echo, 500, echo, request)],
    ["RedirectError", () => new api.RedirectError(echo, 302, echo, request)],
    ["NetworkError", () => new api.NetworkError(echo, request)],
    ["TimeoutError", () => new api.TimeoutError(echo, request, 5)],
    ["CancelledError", () => new api.CancelledError(echo)],
    ["CrossOriginError", () => new api.CrossOriginError(echo, echo)],
    ["DataMovedError", () => new api.DataMovedError(echo, 1, 2)],
    ["PaginationError", () => new api.PaginationError(echo, 2)],
    ["SchemaError", () => new api.SchemaError(echo, "cards", echo, echo)],
    ["InvalidRequestError", () => new api.InvalidRequestError(echo)],
  ])("%s", (_name, make) => {
    const error = make();
    for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), error.stack ?? ""]) {
      expect(containsSecret(text, KEY)).toBe(false);
    }
  });
});
