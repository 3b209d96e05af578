/**
 * What goes on the wire is what the spec asks, and nothing else: the key and "Accept: application/json" on
 * every request, a JSON Content-Type only with a body; paths under the base URL however many slashes end it;
 * an empty expand list is no expand at all; a URL off the base URL's origin is refused before anything is sent.
 * A connection with a blank enterprise id or key is refused in words naming the field; the client's redact
 * hides its key. An answer of exactly the size limit is read; one byte more is not.
 */
import {
  InvalidRequestError,
  AnswerTooLargeError, CrossOriginError, SpendClient, getCard, listCards, updateAllowance,
} from "../../src/api";
import { fakeTransport, type Script } from "../support/fake-transport";

const KEY = "sk_live_wire_0123456789abcdef";

function client(script: Script, extra: Partial<ConstructorParameters<typeof SpendClient>[0]> = {}) {
  const fake = fakeTransport(script);
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport, retry: { retries: 0 }, ...extra });
  return { c, fake };
}

describe("headers", () => {
  it("a GET carries the key and asks for JSON, and says nothing of a body it does not have", async () => {
    const { c, fake } = client(() => ({ body: {} }));
    await getCard(c, "c-1").catch(() => undefined);
    expect(fake.requests[0].headers).toEqual({ Authorization: `Api-Key ${KEY}`, Accept: "application/json" });
    expect(fake.requests[0].body).toBeUndefined();
  });

  it("a state change says its body is JSON", async () => {
    const { c, fake } = client(() => ({ body: {} }));
    await updateAllowance(c, "sub-1", "al-1", { state: "paid", paid_id: "P-1" }).catch(() => undefined);
    expect(fake.requests[0].headers).toEqual({ Authorization: `Api-Key ${KEY}`, Accept: "application/json", "Content-Type": "application/json" });
    expect(JSON.parse(fake.requests[0].body!)).toEqual({ state: "paid", paid_id: "P-1" });
  });
});

describe("URLs", () => {
  it.each(["https://spend.example/proxy", "https://spend.example/proxy/", "https://spend.example/proxy//", "https://spend.example/proxy///"])(
    "the base URL %s: paths go under /proxy/public/v1/", async (baseUrl) => {
      const { c, fake } = client(() => ({ body: {} }), { baseUrl });
      expect(c.baseUrl).toBe("https://spend.example/proxy");
      await getCard(c, "c-1").catch(() => undefined);
      expect(fake.requests.map((r) => r.url)).toEqual(["https://spend.example/proxy/public/v1/enterprises/ent-1/corporate-cards/c-1/"]);
    });

  it("an empty expand list sends no expand", async () => {
    const { c, fake } = client(() => ({ body: { count: 0, next: null, previous: null, results: [] } }));
    await listCards(c, { expand: [] }).all();
    await getCard(c, "c-1", { expand: [] }).catch(() => undefined);
    expect(fake.requests.map((r) => r.url)).toEqual([
      "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/?page=1&page_size=100",
      "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/c-1/",
    ]);
  });

  it("a URL on another origin is refused before anything is sent there", async () => {
    const { c, fake } = client(() => ({ body: {} }));
    const error = await c.getText("https://collector.example/public/v1/enterprises/ent-1/corporate-cards/").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect((error as Error).message).toBe("Refused to follow a link to https://collector.example: the API key is only sent to https://spend.example.");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the connection's fields", () => {
  it.each([
    [{ enterpriseId: "" }, "The enterprise id is empty; copy it from the service's settings."],
    [{ enterpriseId: "  \t " }, "The enterprise id is empty; copy it from the service's settings."],
    [{ apiKey: "" }, "The API key is empty."],
    [{ apiKey: "   " }, "The API key is empty."],
  ])("%j is refused", (blank, message) => {
    expect(() => new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: KEY, ...blank })).toThrow(new InvalidRequestError(message));
  });

  it("the client's redact hides its key, in every text it is given", () => {
    const { c } = client(() => ({ body: {} }));
    expect(c.redact(`Authorization: Api-Key ${KEY}; again ${encodeURIComponent(KEY)}`)).toBe("Authorization: Api-Key [redacted]; again [redacted]");
  });
});

describe("the size limit of an answer", () => {
  it("an answer of exactly the limit is read; one character more is refused unread", async () => {
    const text = JSON.stringify({ pad: "x".repeat(50) });
    const exact = client(() => ({ text }), { maxResponseBytes: text.length });
    expect(await exact.c.getText("https://spend.example/public/v1/enterprises/ent-1/corporate-cards/")).toBe(text);
    const over = client(() => ({ text }), { maxResponseBytes: text.length - 1 });
    await expect(over.c.getText("https://spend.example/public/v1/enterprises/ent-1/corporate-cards/")).rejects.toBeInstanceOf(AnswerTooLargeError);
  });
});
