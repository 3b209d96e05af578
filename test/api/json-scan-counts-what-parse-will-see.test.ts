/**
 * The look at a page before it is parsed (json-scan.ts) counts the records of `results` as JSON.parse will see
 * them: under its key however the key is escaped, only under that key (another top-level array is not the
 * page's records) and only when it is an array; an empty array is empty whatever whitespace it holds; an array left open by a text cut
 * short counts what it held; a string left open ends the look.
 */
import { SpendClient, listCards } from "../../src/api";
import { scanJson } from "../../src/api/json-scan";
import { card, fakeTransport } from "../support/fake-transport";

describe("scanJson", () => {
  it.each<[string, string, { elements: number; values: number }]>([
    ["a key escaped at its start", '{"\\u0072esults":[1,2,3]}', { elements: 3, values: 5 }],
    ["a key escaped inside", '{"r\\u0065sults":[1,2,3]}', { elements: 3, values: 5 }],
    ["another top-level array before results", '{"other":[1,2,3,4],"results":[1]}', { elements: 1, values: 8 }],
    ["results that is an object, not an array", '{"results":{"a":1,"b":2,"c":3}}', { elements: 0, values: 5 }],
    ["an empty array holding a space", '{"results":[ ]}', { elements: 0, values: 3 }],
    ["an empty array holding a line break and a tab", '{"results":[\n\t]}', { elements: 0, values: 3 }],
    ["an array left open", '{"results":[1,2,3', { elements: 3, values: 5 }],
    ["a string left open", '"a,b,c', { elements: 0, values: 1 }],
  ])("%s: %s", (_what, text, shape) => {
    expect(scanJson(text, "results", 10, 100)).toEqual(shape);
  });
});

describe("a page", () => {
  it("with a top-level array of its own longer than the page size is read: only results are the page's records", async () => {
    const fake = fakeTransport(() => ({
      body: { count: 2, next: null, previous: null, warnings: ["a", "b", "c", "d", "e"], results: [card("r1"), card("r2")] },
    }));
    const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_scan", transport: fake.transport });
    expect((await listCards(c, {}, { pageSize: 2 }).all()).map((r) => r.id)).toEqual(["r1", "r2"]);
  });
});
