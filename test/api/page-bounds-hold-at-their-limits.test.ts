// Rule: a page is bounded by what was asked for: more records than the page size are refused as such even when the
// answer was cut short, and a page holding exactly the values its records may hold is read while one more is refused.
import { MAX_VALUES_PER_RECORD, PaginationError, SchemaError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

function client(text: string) {
  const fake = fakeTransport(() => ({ text }));
  return new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_page_bounds", transport: fake.transport, retry: { retries: 0 } });
}

const fail = (p: Promise<unknown>) => p.then(() => { throw new Error("read"); }, (e: unknown) => e as Error);

describe("more records than the page size", () => {
  it("in an answer cut short: refused for its records, not blamed on the cut", async () => {
    const cut = JSON.stringify({ count: null, next: null, previous: null, results: [card("r1"), card("r2"), card("r3")] }).slice(0, -2);
    const error = await fail(listCards(client(cut), {}, { pageSize: 2 }).all());
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).not.toBeInstanceOf(SchemaError);
    expect(error.message).toBe(
      "Page 1 of corporate cards holds more than 2 records, the page size asked for: the service ignores page_size. It was refused without being read. Loading stopped.",
    );
  });
});

describe("values a page may hold: page size x MAX_VALUES_PER_RECORD + 64", () => {
  const budget = 2 * MAX_VALUES_PER_RECORD + 64;
  // Values the text can hold: one, plus one per comma and per object or array opened (no string here holds any).
  const valuesOf = (text: string) => 1 + [...text].filter((c) => c === "," || c === "{" || c === "[").length;
  const page = (zeros: number) => JSON.stringify({ count: 2, next: null, previous: null, results: [card("r1"), { ...card("r2"), notes: new Array(zeros).fill(0) }] });
  const holding = (values: number) => {
    let zeros = 1;
    while (valuesOf(page(zeros)) < values) zeros++;
    expect(valuesOf(page(zeros))).toBe(values);
    return page(zeros);
  };

  it("exactly that many: read", async () => {
    const cards = await listCards(client(holding(budget)), {}, { pageSize: 2 }).all();
    expect(cards.map((c) => c.id)).toEqual(["r1", "r2"]);
  });

  it("one more: refused unread", async () => {
    const error = await fail(listCards(client(holding(budget + 1)), {}, { pageSize: 2 }).all());
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("Page 1 of corporate cards holds more than 4,160 values, more than 2 records need: it was refused without being read. Loading stopped.");
  });
});
