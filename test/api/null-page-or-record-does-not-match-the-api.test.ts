// Rule: a list answer that is JSON null, or holds a null record, is the service's answer not matching the API (a
// SchemaError naming where), whether or not the list keeps malformed records.
import { SchemaError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

function client(text: string) {
  const fake = fakeTransport(() => ({ text }));
  return new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_null_page", transport: fake.transport, retry: { retries: 0 } });
}

const fail = (p: Promise<unknown>) => p.then(() => { throw new Error("read"); }, (e: unknown) => e as Error);

it("a page that is null", async () => {
  const error = await fail(listCards(client("null")).all());
  expect(error).toBeInstanceOf(SchemaError);
  expect(error.message).toBe("The service's answer for corporate cards (page 1) does not match the API: (the whole body): Invalid input: expected object, received null (got null).");
});

it.each([false, true])("a null record (keeping malformed records: %s)", async (keepMalformed) => {
  const text = JSON.stringify({ count: 2, next: null, previous: null, results: [card("r1"), null] });
  const error = await fail(listCards(client(text), {}, { keepMalformed }).all());
  expect(error).toBeInstanceOf(SchemaError);
  expect(error.message).toBe("The service's answer for corporate cards (page 1) does not match the API: results[1]: Invalid input: expected object, received null (got null).");
});
