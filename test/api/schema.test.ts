import { SchemaError, SpendClient, getExpense, listCards } from "../../src/api";
import { card, fakeTransport, pageOf, type Reply } from "../support/fake-transport";

const clientWith = (reply: (url: string) => Reply) =>
  new SpendClient({
    baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_secret",
    transport: fakeTransport((r) => reply(r.url)).transport, retry: { retries: 0 },
  });

async function failure(promise: Promise<unknown>): Promise<SchemaError> {
  const error = (await promise.catch((e) => e)) as SchemaError;
  expect(error).toBeInstanceOf(SchemaError);
  return error;
}

describe("every response is parsed against the spec's shape", () => {
  it("names the resource, the field path and the value of a wrong field", async () => {
    const client = clientWith((url) => {
      const page = pageOf(url, 3) as { results: Record<string, unknown>[] };
      page.results[2].billing_day = "fifth";
      return { body: page };
    });
    const error = await failure(listCards(client).all());
    expect(error.resource).toBe("corporate cards (page 1)");
    expect(error.path).toBe("results[2].billing_day");
    expect(error.value).toBe('"fifth"');
    expect(error.message).toBe(
      `The service's answer for corporate cards (page 1) does not match the API: results[2].billing_day: Invalid input: expected number, received string (got "fifth").`,
    );
  });

  it("says when a required field is missing", async () => {
    const client = clientWith(() => ({ body: { count: 1, next: null, previous: null, results: [{ ...card("a"), last_four_digits: undefined }] } }));
    const error = await failure(listCards(client).all());
    expect(error.path).toBe("results[0].last_four_digits");
    expect(error.message).toContain("got nothing (the field is missing)");
  });

  it("tolerates unknown extra fields", async () => {
    const client = clientWith((url) => ({ body: { ...pageOf(url, 2, { new_field: { nested: true } }), status: 200, error: "", trace_id: "x" } }));
    const cards = await listCards(client).all();
    expect(cards.map((c) => c.id)).toEqual(["r1", "r2"]);
  });

  it.each([
    ["an HTML error page", "<!DOCTYPE html><html><body>Gateway</body></html>", /was an HTML page, not JSON/],
    ["truncated JSON", '{"count": 3, "next": null, "results": [{"id": "r1", "user_', /was not valid JSON \(cut short\?\)/],
    ["an empty body", "", /was empty/],
  ])("a 200 with %s is a SchemaError, not a crash", async (_what, text, message) => {
    const client = clientWith(() => ({ text }));
    const error = await failure(getExpense(client, "s1", "e1"));
    expect(error.message).toMatch(message);
    expect(error.resource).toBe("expense");
  });

  it("stands apart from the transport errors: it is not retried", async () => {
    const fake = fakeTransport(() => ({ text: "<html>" }));
    const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "e", apiKey: "k", transport: fake.transport });
    await failure(getExpense(client, "s1", "e1"));
    expect(fake.requests).toHaveLength(1);
  });
});
