// Rule: a list read for the record functions hands over each record as its GET would return it, and without a value
// (a GET then decides) a record that does not match or holds more values than a record may (MAX_VALUES_PER_RECORD,
// counted as the page's text counts them: 1, plus 1 per object or array, plus 1 per comma, nested fields included).
import { MAX_VALUES_PER_RECORD, SchemaError, SpendClient, getCard, listCardsAsGot } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

function client(results: unknown[]) {
  const fake = fakeTransport((r) => (r.url.includes("/corporate-cards/r")
    ? { body: { ...(results.find((x) => r.url.includes(`/${(x as { id: string }).id}/`)) as object) } }
    : { body: { count: results.length, next: null, previous: null, results } }));
  return new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_as_got", transport: fake.transport, retry: { retries: 0 } });
}

// card() has 8 fields, none of whose texts holds a comma or a bracket: with `notes` it holds 1 + 9 values, plus the notes.
const withNotes = (id: string, values: number) => ({ ...card(id), notes: new Array(values - 10).fill(0) });

it("a record within the values a record may hold is what a GET of it returns", async () => {
  const records = [withNotes("r1", MAX_VALUES_PER_RECORD), { ...card("r2"), memo: null, tags: ["a", "b"] }];
  const c = client(records);
  const listed = await listCardsAsGot(c).all();
  expect(listed).toEqual([
    { id: "r1", record: await getCard(c, "r1") },
    { id: "r2", record: await getCard(c, "r2") },
  ]);
  expect(listed[0].record).toEqual(card("r1"));
  expect(listed[1].record).toEqual(card("r2"));
});

it("one value more, and a GET decides", async () => {
  const listed = await listCardsAsGot(client([withNotes("r1", MAX_VALUES_PER_RECORD + 1)])).all();
  expect(listed).toEqual([{ id: "r1", record: undefined }]);
});

it("values in nested fields count too", async () => {
  // 1 + 2047 fields = 2048 at the record's first level; the [0, 0] of one field makes it 2050.
  const record: Record<string, unknown> = { ...card("r1") };
  for (let i = 0; Object.keys(record).length < MAX_VALUES_PER_RECORD - 1; i++) record[`x${i}`] = i === 0 ? [0, 0] : 0;
  const listed = await listCardsAsGot(client([record])).all();
  expect(listed).toEqual([{ id: "r1", record: undefined }]);
});

it("a record that does not match the API is handed over without a value; the others keep theirs", async () => {
  const listed = await listCardsAsGot(client([card("r1"), { ...card("r2"), billing_day: "5" }])).all();
  expect(listed).toEqual([{ id: "r1", record: card("r1") }, { id: "r2", record: undefined }]);
});

it("a record without an id refuses its page", async () => {
  const { id: _id, ...noId } = card("r2");
  const error = await listCardsAsGot(client([card("r1"), noId])).all().then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
  expect(error).toBeInstanceOf(SchemaError);
  expect(error.message).toBe("The service's answer for corporate cards (page 1) does not match the API: results[1].id: Invalid input: expected string, received undefined (got nothing (the field is missing)).");
});
