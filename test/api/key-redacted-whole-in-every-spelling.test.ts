// Rule: the API key never reaches a message, whatever characters it holds: echoed by the service inside a JSON value
// (quotes and backslashes escaped) it is hidden whole, echoed percent-encoded it leaves nothing of its encoding behind,
// and redacting with no key changes nothing.
import { REDACTED, SchemaError, SpendClient, forgetSecret, getCard, redact } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

describe("a key holding quotes and a backslash", () => {
  const KEY = 'sk_live_"quoted"\\path_42';
  afterAll(() => forgetSecret(KEY));

  it("echoed by the service in a field is hidden in the message that quotes the field", async () => {
    const fake = fakeTransport(() => ({ body: { ...card("c1"), billing_day: `Api-Key ${KEY}` } }));
    const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport });
    const error = await getCard(c, "c1").then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`The service's answer for corporate card does not match the API: billing_day: Invalid input: expected number, received string (got "Api-Key ${REDACTED}").`);
  });
});

describe("redact", () => {
  it("a key ending in % echoed percent-encoded leaves nothing of it", () => {
    const key = "sk_live_cut50%";
    expect(redact(`token=${encodeURIComponent(key)}&page=2`, key)).toBe(`token=${REDACTED}&page=2`);
    expect(redact(`token=${encodeURIComponent(encodeURIComponent(key))}&page=2`, key)).toBe(`token=${REDACTED}&page=2`);
  });

  it("with no key returns the text as it is", () => {
    expect(redact("The service failed (HTTP 500); try again later.", "")).toBe("The service failed (HTTP 500); try again later.");
  });
});
