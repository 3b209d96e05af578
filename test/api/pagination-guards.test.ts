/**
 * Pagination that cannot loop: a server whose pages go round in circles, ignore `page`, never end or
 * contradict their own `count` is refused at the first page that shows it. Every script stops answering
 * after 50 requests, so a client that loops fails fast here instead of hanging.
 */
import { DataMovedError, MAX_LIST_RECORDS, PaginationError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport, pageOf, type Script } from "../support/fake-transport";

const BASE = "https://spend.example";
const LIST = `${BASE}/public/v1/enterprises/ent-1/corporate-cards/`;

function client(script: Script, concurrency = 3) {
  const fake = fakeTransport((r, i) => (i >= 50 ? new Error("the client is looping") : script(r, i)));
  const c = new SpendClient({ baseUrl: BASE, enterpriseId: "ent-1", apiKey: "sk_test_guards", transport: fake.transport, retry: { retries: 0 }, concurrency });
  return { c, fake };
}

/** Page 1, then at most 2 x concurrency (3) pages asked for beyond the last page yielded: what a bad server costs. */
const AT_MOST = 1 + 2 * 3;

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => card(`r${from + i}`));
const pageNo = (url: string) => Number(new URL(url).searchParams.get("page"));

describe("without a count (next links)", () => {
  it("a next link to the page itself is refused before it is asked for again", async () => {
    const { c, fake } = client((r) => ({ body: { count: null, next: r.url, previous: null, results: ids(1, 2) } }));
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("The service's pages of corporate cards go round in circles: page 1 links back to a page already read. Loading stopped; nothing more was asked for.");
    expect(fake.requests).toHaveLength(1);
  });

  it("a cycle through two pages (the query in another order) is refused at the repeat", async () => {
    const { c, fake } = client((r) => pageNo(r.url) === 1
      ? { body: { count: null, next: `${LIST}?page=2&page_size=2`, previous: null, results: ids(1, 2) } }
      : { body: { count: null, next: `${LIST}?page_size=2&page=1`, previous: null, results: ids(3, 2) } });
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.page).toBe(3);
    expect(fake.requests).toHaveLength(2);
  });

  it("a server that ignores page (new URL, same records) is refused at the first repeated page", async () => {
    const { c, fake } = client((r) => ({ body: { count: null, next: `${LIST}?page=${pageNo(r.url) + 1}&page_size=2`, previous: null, results: ids(1, 2) } }));
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("The service sent the same corporate cards again on page 2: it seems to ignore the page asked for. Loading stopped at the first repeated page.");
    expect(fake.requests).toHaveLength(2);
  });

  it("an empty page that links on is refused", async () => {
    const { c, fake } = client((r) => ({ body: { count: null, next: `${LIST}?page=${pageNo(r.url) + 1}&page_size=2`, previous: null, results: [] } }));
    await expect(listCards(c, {}, { pageSize: 2 }).all()).rejects.toBeInstanceOf(PaginationError);
    expect(fake.requests).toHaveLength(1);
  });

  it("pages of new records that never end stop at the most records a sheet holds (here lowered to 20)", async () => {
    const { c, fake } = client((r) => {
      const p = pageNo(r.url);
      return { body: { count: null, next: `${LIST}?page=${p + 1}&page_size=2`, previous: null, results: ids(2 * p - 1, 2) } };
    });
    const error = await listCards(c, {}, { pageSize: 2, maxRecords: 20 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(fake.requests.length).toBeLessThanOrEqual(11);
  });

  it("a record seen on an earlier page means the list moved: DataMovedError at that page", async () => {
    const { c, fake } = client((r) => {
      const p = pageNo(r.url);
      return { body: { count: null, next: p < 10 ? `${LIST}?page=${p + 1}&page_size=2` : null, previous: null, results: p === 2 ? [card("r2"), card("r3")] : ids(2 * p - 1, 2) } };
    });
    await expect(listCards(c, {}, { pageSize: 2 }).all()).rejects.toBeInstanceOf(DataMovedError);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("with a count", () => {
  it("a server that ignores page is refused at page 2, not after every page the count promises", async () => {
    const { c, fake } = client(() => ({ body: { count: 10_000, next: `${LIST}?page=2`, previous: null, results: ids(1, 10) } }));
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.page).toBe(2);
    expect(fake.requests.length).toBeLessThanOrEqual(AT_MOST);
  });

  it("a count that its own pages contradict (an empty page 2 of a promised 1,000) is refused at that page", async () => {
    const { c, fake } = client((r) => ({ body: { count: 1000, next: null, previous: null, results: pageNo(r.url) === 1 ? ids(1, 10) : [] } }));
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("The pages of corporate cards cannot be trusted: the service says there are 1000 corporate cards, so at 10 a page, page 2 should hold 10; it holds 0. Loading stopped.");
    expect(fake.requests.length).toBeLessThanOrEqual(AT_MOST);
  });

  it.each([
    ["more records on page 1 than the count", 5, 10, 1],
    ["fewer records on page 1 than the count, with no other page", 8, 5, 1],
    ["records on page 1 of a count of 0", 0, 2, 1],
  ])("%s is refused at once", async (_what, count, onFirst, requests) => {
    const { c, fake } = client(() => ({ body: { count, next: null, previous: null, results: ids(1, onFirst) } }));
    await expect(listCards(c, {}, { pageSize: 10 }).all()).rejects.toBeInstanceOf(PaginationError);
    expect(fake.requests).toHaveLength(requests);
  });

  it("a last page shorter than the count says is refused", async () => {
    const { c } = client((r) => ({ body: { ...pageOf(r.url, 25), results: pageNo(r.url) === 3 ? ids(21, 3) : (pageOf(r.url, 25).results as unknown[]) } }));
    await expect(listCards(c, {}, { pageSize: 10 }).all()).rejects.toBeInstanceOf(PaginationError);
  });

  it("a page larger than page_size (the server ignores it) is refused", async () => {
    const { c } = client(() => ({ body: { count: 20, next: null, previous: null, results: ids(1, 20) } }));
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toMatch(/ignores page_size/);
  });

  it("a count larger than a sheet holds is refused after the first page", async () => {
    const { c, fake } = client((r) => ({ body: { ...pageOf(r.url, 30), count: MAX_LIST_RECORDS + 1 } }));
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("The service says there are 1,048,576 corporate cards, more than a sheet can hold (1,048,575). Load a narrower selection (a state, a date range).");
    expect(fake.requests).toHaveLength(1);
  });

  it("one record seen twice is DataMovedError at that page, before the remaining pages", async () => {
    const { c, fake } = client((r) => {
      const body = pageOf(r.url, 1000) as { results: { id: string }[] };
      if (pageNo(r.url) === 2) body.results[5].id = "r1";
      return { body };
    });
    await expect(listCards(c, {}, { pageSize: 10 }).all()).rejects.toBeInstanceOf(DataMovedError);
    expect(fake.requests.length).toBeLessThanOrEqual(AT_MOST);
  });

  it("an honest list is loaded whole, the last page partial", async () => {
    const { c, fake } = client((r) => ({ body: pageOf(r.url, 25) }));
    expect((await listCards(c, {}, { pageSize: 10 }).all()).map((x) => x.id)).toEqual(Array.from({ length: 25 }, (_, i) => `r${i + 1}`));
    expect(fake.requests).toHaveLength(3);
  });

  it("an empty list is one request", async () => {
    const { c, fake } = client(() => ({ body: { count: 0, next: null, previous: null, results: [] } }));
    expect(await listCards(c, {}, { pageSize: 10 }).all()).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});
