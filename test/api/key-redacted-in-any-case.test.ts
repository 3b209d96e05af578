/**
 * A key in other letters is still the key: the add-in lower-cases what it compares (a record's state is kept
 * lower-cased in the snapshot, and Sync states quotes the server's state as it keeps it), so a key a server echoed in
 * capitals would reach the workbook in small letters if redaction minded the case. Every spelling is redacted in
 * any case, and text that only looks alike is left as it is.
 */
import { forgetSecret, redact, redactSecrets, registerSecret } from "../../src/api";

const KEY = "sk_live_Qw7pL2xR9t";
beforeAll(() => registerSecret(KEY));
afterAll(() => forgetSecret(KEY));

describe("the key is redacted whatever the case of its letters", () => {
  it.each([
    ["as sent", `state ${KEY}`],
    ["lower-cased", `state ${KEY.toLowerCase()}`],
    ["upper-cased", `STATE ${KEY.toUpperCase()}`],
    ["letters swapped", `state ${[...KEY].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("")}`],
  ])("%s", (_how, text) => {
    expect(redactSecrets(text)).toBe(`${text.slice(0, 6)}[redacted]`);
  });

  it("URL-encoded and lower-cased (a query string a proxy normalised)", () => {
    const key = "Ab+Cd/Ef=Gh";
    registerSecret(key);
    try {
      expect(redactSecrets(`q=${encodeURIComponent(key).toLowerCase()}&x=1`)).toBe("q=[redacted]&x=1");
    } finally {
      forgetSecret(key);
    }
  });

  it("inside a longer text, every time it appears", () => {
    expect(redactSecrets(`a ${KEY.toLowerCase()} b ${KEY} c ${KEY.toUpperCase()}`)).toBe("a [redacted] b [redacted] c [redacted]");
  });

  it("redact() of one secret, not registered, also in any case", () => {
    expect(redact("token SECRET-abc123 end", "secret-ABC123")).toBe("token [redacted] end");
  });
});

describe("what is not the key stays as it is", () => {
  it.each([
    ["one letter different", `sk_live_Qw7pL2xR9u`],
    ["shorter", `sk_live_Qw7pL2xR9`],
    ["a word that shares its start", "sk_live_ is the prefix of live keys"],
  ])("%s", (_how, text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("two secrets, one the start of the other", () => {
  it("the longer is redacted whole, whichever was registered first", () => {
    const short = "Zx9Kp4";
    const long = "zx9kp4Q7w";
    registerSecret(short);
    registerSecret(long);
    try {
      expect(redactSecrets(`a ${long} b ${long.toUpperCase()} c ${short}`)).toBe("a [redacted] b [redacted] c [redacted]");
    } finally {
      forgetSecret(short);
      forgetSecret(long);
    }
  });
});
