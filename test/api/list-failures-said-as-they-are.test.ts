// Rule: a list that fails says what happened: an empty page that links on is named with its page; a later page the
// service fails on is the service failing (not "the data moved"); a last page holding more than the count leaves
// for it is a count the pages contradict.
import { DataMovedError, PaginationError, ServerError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport, pageOf, type Script } from "../support/fake-transport";

const LIST = "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/";
const pageNo = (url: string) => Number(new URL(url).searchParams.get("page"));

function client(script: Script) {
  const fake = fakeTransport((r, i) => (i >= 20 ? new Error("the client is looping") : script(r, i)));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_list_failures", transport: fake.transport, retry: { retries: 0 } });
  return { c, fake };
}

const fail = (p: Promise<unknown>) => p.then(() => { throw new Error("loaded"); }, (e: unknown) => e as Error);

it("an empty page with a link to another page", async () => {
  const { c, fake } = client((r) => pageNo(r.url) === 1
    ? { body: { count: null, next: `${LIST}?page=2&page_size=2`, previous: null, results: [card("r1"), card("r2")] } }
    : { body: { count: null, next: `${LIST}?page=3&page_size=2`, previous: null, results: [] } });
  const error = await fail(listCards(c, {}, { pageSize: 2 }).all());
  expect(error).toBeInstanceOf(PaginationError);
  expect(error.message).toBe("The service sent an empty page 2 of corporate cards with a link to another page. Loading stopped.");
  expect(fake.requests).toHaveLength(2);
});

it("a later page the service fails on", async () => {
  const { c } = client((r) => (pageNo(r.url) === 1 ? { body: pageOf(r.url, 5) } : { status: 500, body: { status: 500, error: "Internal error" } }));
  const error = await fail(listCards(c, {}, { pageSize: 2, concurrency: 1 }).all());
  expect(error).toBeInstanceOf(ServerError);
  expect(error).not.toBeInstanceOf(DataMovedError);
  expect(error.message).toBe(
    'The service failed (HTTP 500) while reading page 2 of the corporate cards; try again later. The service said: "Internal error"',
  );
});

it("a last page holding a full page where the count leaves one record", async () => {
  const { c } = client((r) => {
    const body = pageOf(r.url, 5) as { results: unknown[] };
    if (pageNo(r.url) === 3) body.results = [card("r5"), card("r6")];
    return { body };
  });
  const error = await fail(listCards(c, {}, { pageSize: 2, concurrency: 1 }).all());
  expect(error).toBeInstanceOf(PaginationError);
  expect(error.message).toBe(
    "The pages of corporate cards cannot be trusted: the service says there are 5 corporate cards, so at 2 a page, page 3 should hold 1; it holds 2. Loading stopped.",
  );
});
