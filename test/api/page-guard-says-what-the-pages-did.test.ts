// Rule: a list whose pages repeat records (on one page or across pages), hold more records than a sheet can, or link
// back to a page already read (whatever fragment the link carries) is stopped at that page, in words saying which.
import { DataMovedError, PaginationError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport, type Script } from "../support/fake-transport";

const LIST = "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/";
const pageNo = (url: string) => Number(new URL(url).searchParams.get("page"));
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => card(`r${from + i}`));

function client(script: Script) {
  const fake = fakeTransport((r, i) => (i >= 30 ? new Error("the client is looping") : script(r, i)));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_page_guard", transport: fake.transport, retry: { retries: 0 } });
  return { c, fake };
}

const fail = <E extends Error>(p: Promise<unknown>) => p.then(() => { throw new Error("loaded"); }, (e: unknown) => e as E);

it("a page holding one record twice: the list moved, nothing more is asked for", async () => {
  const { c, fake } = client(() => ({ body: { count: null, next: `${LIST}?page=2&page_size=3`, previous: null, results: [card("r1"), card("r2"), card("r1")] } }));
  const error = await fail(listCards(c, {}, { pageSize: 3 }).all());
  expect(error).toBeInstanceOf(DataMovedError);
  expect(fake.requests).toHaveLength(1);
});

it("a page repeating a record of an earlier page: the list moved, load again", async () => {
  const { c } = client((r) => {
    const p = pageNo(r.url);
    return { body: { count: null, next: p < 3 ? `${LIST}?page=${p + 1}&page_size=2` : null, previous: null, results: p === 2 ? [card("r2"), card("r3")] : ids(2 * p - 1, 2) } };
  });
  const error = await fail(listCards(c, {}, { pageSize: 2 }).all());
  expect(error).toBeInstanceOf(DataMovedError);
  expect(error.message).toBe("The corporate cards changed on the server while loading (page 2 repeats records of earlier pages). Load again.");
});

it("more new records than the list may hold: stopped at the page that passes it", async () => {
  const { c, fake } = client((r) => {
    const p = pageNo(r.url);
    return { body: { count: null, next: `${LIST}?page=${p + 1}&page_size=2`, previous: null, results: ids(2 * p - 1, 2) } };
  });
  const error = await fail<PaginationError>(listCards(c, {}, { pageSize: 2, maxRecords: 5 }).all());
  expect(error).toBeInstanceOf(PaginationError);
  expect(error.message).toBe("The service sent more than 5 corporate cards, more than a sheet can hold. Load a narrower selection (a state, a date range).");
  expect(error.page).toBe(3);
  expect(fake.requests).toHaveLength(3);
});

it("a next link back to the page itself with a fragment added goes round in circles: refused before it is asked for", async () => {
  const { c, fake } = client((r) => ({ body: { count: null, next: `${r.url}#more`, previous: null, results: ids(1, 2) } }));
  const error = await fail<PaginationError>(listCards(c, {}, { pageSize: 2 }).all());
  expect(error).toBeInstanceOf(PaginationError);
  expect(error.message).toBe("The service's pages of corporate cards go round in circles: page 1 links back to a page already read. Loading stopped; nothing more was asked for.");
  expect(fake.requests).toHaveLength(1);
});
