/**
 * Rule: whatever form the caller's key comes back in (the whole Authorization value, the credentials after its
 * scheme, URL-encoded once or twice in either hex case, form-encoded, JSON-escaped, base64 at any byte offset,
 * standard or url-safe, with or without padding), the error body the caller gets has exactly that form replaced
 * by [redacted] and every other byte as the service sent it; forms too short to be told from ordinary text are
 * left alone, and a key's characters are taken literally, never as a pattern.
 */
import { createGateway } from "../../src/gateway";
import { stubUpstream } from "./doubles";

/** The error body the caller gets when the service quotes `text` back to a caller sending `authorization`. */
async function relayed(authorization: string | undefined, text: string): Promise<string> {
  const upstream = stubUpstream(() => new Response(text, { status: 400, headers: { "content-type": "text/plain" } }));
  const gateway = createGateway({ target: "https://api.example.com", allowOrigins: ["https://addin.example.com"], log: () => undefined, fetch: upstream.fetch });
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  return (await gateway.fetch(new Request("http://gateway.test/public/v1/x/", { headers }))).text();
}

const KEY = "sk_live_Gw4y-SECRET+key/42";
const AUTH = `Api-Key ${KEY}`;
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const urlSafe = (text: string) => text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("each form of the key", () => {
  it.each([
    ["the whole header value", `got "${AUTH}".`, 'got "[redacted]".'],
    ["the key", `key=${KEY};`, "key=[redacted];"],
    ["the key URL-encoded", `?k=${encodeURIComponent(KEY)}&x=1`, "?k=[redacted]&x=1"],
    ["the key URL-encoded in lower-case hex", `?k=${encodeURIComponent(KEY).toLowerCase().replace("sk_live_gw4y-secret", "sk_live_Gw4y-SECRET")}&x=1`, "?k=[redacted]&x=1"],
    ["the key URL-encoded with escapes in both cases", `?k=${encodeURIComponent(KEY).replace("%2B", "%2b")}&x=1`, "?k=[redacted]&x=1"],
    ["the key URL-encoded twice", `?next=${encodeURIComponent(`/x?k=${encodeURIComponent(KEY)}`)}`, `?next=${encodeURIComponent("/x?k=")}[redacted]`],
    ["the whole value form-encoded", `?auth=${new URLSearchParams({ a: AUTH }).toString().slice(2)}!`, "?auth=[redacted]!"],
    ["the whole value URL-encoded", `?auth=${encodeURIComponent(AUTH)}!`, "?auth=[redacted]!"],
    ["the key in base64", `b64 ${b64(KEY)} end`, "b64 [redacted] end"],
    ["the key in url-safe base64 without padding", `b64 ${urlSafe(b64(KEY))} end`, "b64 [redacted] end"],
    ["the key in a Basic header (base64 at another offset)", `Basic ${b64(`enterprise:${KEY}`)} end`, "Basic ZW50ZXJwcmlzZT[redacted] end"],
    ["the key in a longer base64 text at the third offset", `t ${b64(`ab${KEY}`)} end`, "t YW[redacted] end"],
  ])("%s", async (_what, text, expected) => {
    expect(await relayed(AUTH, text)).toBe(expected);
  });

  it("URL-encoded whole, when the key itself is a prefix of its encoding", async () => {
    expect(await relayed("Bearer abcdef%", "?k=abcdef%25&x=1 abcdef%")).toBe("?k=[redacted]&x=1 [redacted]");
  });

  it("in url-safe base64, where the standard one has + and /", async () => {
    const key = "sk_>>>???_key";
    expect(b64(key)).toMatch(/\+.*\//);
    expect(await relayed(`Api-Key ${key}`, `u ${urlSafe(b64(key))} s ${b64(key)} end`)).toBe("u [redacted] s [redacted] end");
  });

  it("in base64, for a key of 5 bytes (6 base64 characters)", async () => {
    expect(await relayed("Bearer abcde", `b64 ${b64("abcde")} end`)).toBe("b64 [redacted] end");
  });

  it("JSON-escaped, when the key has quotes and backslashes", async () => {
    const key = 'sk_"quoted"\\key_123';
    expect(await relayed(`Api-Key ${key}`, JSON.stringify({ error: `bad key ${key}` }))).toBe('{"error":"bad key [redacted]"}');
  });

  it("as sent, whatever spaces surround it in the header", async () => {
    expect(await relayed(`  Api-Key   ${KEY}  `, `k ${KEY} and Api-Key   ${KEY}`)).toBe("k [redacted] and [redacted]");
  });

  it("a header with no scheme is one secret", async () => {
    expect(await relayed(KEY, `k ${KEY} ${encodeURIComponent(KEY)} 2026`)).toBe("k [redacted] [redacted] 2026");
  });
});

describe("what is not the key", () => {
  it("is relayed as sent, with no Authorization at all", async () => {
    expect(await relayed(undefined, "nothing secret here: abc")).toBe("nothing secret here: abc");
  });

  it("is relayed as sent, with an empty Authorization", async () => {
    expect(await relayed("   ", "nothing secret here: abc")).toBe("nothing secret here: abc");
  });

  it("a key's characters are taken literally: a dot is no wildcard, a plus no repetition", async () => {
    expect(await relayed("Bearer sk.li+ve(1)", "skXlive(1) sk.liive(1) sk.li+ve(1)")).toBe("skXlive(1) sk.liive(1) [redacted]");
  });

  it("derived forms shorter than 6 characters are left alone; the key itself never is", async () => {
    // "a/b" URL-encoded is a%2Fb (5 characters, left); "a/bc" URL-encoded is a%2Fbc (6, redacted).
    expect(await relayed("Bearer a/b", "a/b a%2Fb")).toBe("[redacted] a%2Fb");
    expect(await relayed("Bearer a/bc", "a/bc a%2Fbc")).toBe("[redacted] [redacted]");
  });

  it("the base64 of a short key is left alone: it would match ordinary text", async () => {
    expect(await relayed("Bearer abcd", `${b64("abcd")} abcd`)).toBe(`${b64("abcd")} [redacted]`);
  });
});
