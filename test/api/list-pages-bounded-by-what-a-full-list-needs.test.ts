// Rule: without a count, a list follows next links for at most the pages a full list needs (the most records it may
// hold, at the page size asked for, plus one last page), so an honest list of that many records loads and a server
// sending fewer records per page than asked is stopped there, in words saying so.
import { PaginationError, SpendClient, listCards } from "../../src/api";
import { card, fakeTransport, type Script } from "../support/fake-transport";

const LIST = "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/";
const pageNo = (url: string) => Number(new URL(url).searchParams.get("page"));
const next = (page: number) => `${LIST}?page=${page + 1}&page_size=2`;

function client(script: Script) {
  const fake = fakeTransport((r, i) => (i >= 20 ? new Error("the client is looping") : script(r, i)));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_max_pages", transport: fake.transport, retry: { retries: 0 } });
  return { c, fake };
}

it("the most records a list may hold, in full pages and an empty last one, load", async () => {
  const pages = [[card("r1"), card("r2")], [card("r3"), card("r4")], []];
  const { c, fake } = client((r) => {
    const p = pageNo(r.url);
    return { body: { count: null, next: p < 3 ? next(p) : null, previous: null, results: pages[p - 1] } };
  });
  const cards = await listCards(c, {}, { pageSize: 2, maxRecords: 4 }).all();
  expect(cards.map((x) => x.id)).toEqual(["r1", "r2", "r3", "r4"]);
  expect(fake.requests).toHaveLength(3);
});

it("pages of one record when two were asked for stop after the third page", async () => {
  const { c, fake } = client((r) => {
    const p = pageNo(r.url);
    return { body: { count: null, next: next(p), previous: null, results: [card(`r${p}`)] } };
  });
  const error = await listCards(c, {}, { pageSize: 2, maxRecords: 4 }).all().then((): never => { throw new Error("no error"); }, (e: unknown) => e as PaginationError);
  expect(error).toBeInstanceOf(PaginationError);
  expect(error.message).toBe("The service's pages of corporate cards do not end: more than 3 pages. Loading stopped.");
  expect(error.page).toBe(4);
  expect(fake.requests).toHaveLength(3);
});
