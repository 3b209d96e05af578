/**
 * Pagination at its edges (issue 26), on every list resource: the last page, the one past it, page and
 * page_size at 0, 1 and each maximum, exact next/previous links (filters kept), empty lists. The data file
 * holds exactly max+1 records per list, so page_size=max leaves one record for a second page, and the
 * expected order is computed here from the data itself, by the orders docs/sandbox.md documents.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemoData } from "../../src/sandbox/demo-data";
import type { SandboxData } from "../../src/sandbox/model";
import { ANCHOR, withSandbox, type SandboxFixture } from "../support/sandbox";

const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
let serial = 1;

/** Grows the records `mine` picks out of `list` to exactly `n` by copying them under new ids. */
function grow<T extends { id: string }>(list: T[], mine: (r: T) => boolean, n: number, change: (r: T, i: number) => Partial<T> = () => ({})) {
  const own = list.filter(mine);
  for (let i = own.length; i < n; i++) list.push({ ...own[i % own.length], id: uid(serial++), ...change(own[i % own.length], i) });
}

const dir = mkdtempSync(join(tmpdir(), "page-edges-"));
let f: SandboxFixture;
const lists: Record<string, { path: string; def: number; max: number; envelope: boolean; ids: string[] }> = {};
type Name = "cards" | "movements" | "allowances" | "expenses";
const NAMES: Name[] = ["cards", "movements", "allowances", "expenses"];
let empty: Record<Name, { path: string; key?: string }>;
let data: SandboxData;

beforeAll(async () => {
  data = generateDemoData({ seed: 1, scale: 0.05, anchor: ANCHOR });
  const [a, b] = data.enterprises;
  const [sub0, sub1] = data.subsidiaries.filter((s) => s.enterprise_id === a.id).map((s) => s.id);
  const cardsOfA = data.cards.filter((c) => c.enterprise_id === a.id);
  const period = data.billing_periods.find((p) => p.card_id === cardsOfA[0].id)!.id;
  const emptyPeriod = data.billing_periods.find((p) => p.card_id === cardsOfA[1].id)!.id;
  // Empty lists: B has no cards; one period of A's second card has no movements; A's second subsidiary
  // (no card pays its expenses) has no allowances and no expenses.
  data.cards = data.cards.filter((c) => c.enterprise_id !== b.id);
  data.movements = data.movements.filter((m) => m.billing_period_id !== emptyPeriod);
  data.allowances = data.allowances.filter((x) => x.subsidiary_id !== sub1);
  data.expenses = data.expenses.filter((x) => x.subsidiary_id !== sub1);
  grow(data.cards, (c) => c.enterprise_id === a.id, 101);
  grow(data.movements, (m) => m.billing_period_id === period, 101);
  grow(data.allowances, (x) => x.subsidiary_id === sub0, 1001, (_, i) => ({ allowance_number: 50_000 - i }));
  grow(data.expenses, (x) => x.subsidiary_id === sub0, 1001, (_, i) => ({ expense_number: i % 2 ? 200_000 - i : 100_000 + i }));
  const file = join(dir, "data.json");
  writeFileSync(file, JSON.stringify(data));
  f = await withSandbox({ dataFile: file });

  const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
  const ent = `/public/v1/enterprises/${a.id}`;
  lists.cards = { path: `${ent}/corporate-cards/`, def: 20, max: 100, envelope: false,
    ids: data.cards.filter((c) => c.enterprise_id === a.id).map((c) => c.id) };
  lists.movements = { path: `${ent}/corporate-cards/${cardsOfA[0].id}/billing-periods/${period}/movements/`, def: 20, max: 100, envelope: true,
    ids: data.movements.filter((m) => m.billing_period_id === period).sort((x, y) => cmp(x.transaction_date, y.transaction_date) || cmp(x.id, y.id)).map((m) => m.id) };
  lists.allowances = { path: `${ent}/subsidiaries/${sub0}/allowances/`, def: 100, max: 1000, envelope: true,
    ids: data.allowances.filter((x) => x.subsidiary_id === sub0).sort((x, y) => x.allowance_number - y.allowance_number).map((x) => x.id) };
  lists.expenses = { path: `${ent}/subsidiaries/${sub0}/expenses/`, def: 100, max: 1000, envelope: true,
    ids: data.expenses.filter((x) => x.subsidiary_id === sub0).sort((x, y) => x.expense_number - y.expense_number).map((x) => x.id) };
  empty = {
    cards: { path: `/public/v1/enterprises/${b.id}/corporate-cards/`, key: b.api_key },
    movements: { path: `${ent}/corporate-cards/${cardsOfA[1].id}/billing-periods/${emptyPeriod}/movements/` },
    allowances: { path: `${ent}/subsidiaries/${sub1}/allowances/` },
    expenses: { path: `${ent}/subsidiaries/${sub1}/expenses/` },
  };
});
afterAll(async () => {
  await f?.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a client gets, with each page's results cut down to their ids. */
async function get(path: string, key?: string) {
  const res = await f.call("GET", path, { key });
  const body = res.status === 200 ? { ...res.json, results: res.json.results.map((r: { id: string }) => r.id) } : res.json;
  return { status: res.status, body };
}
const link = (path: string, query: string) => `${f.sandbox.baseUrl}${path}?${query}`;
function page(name: Name, count: number, ids: string[], nextLink: string | null, previous: string | null) {
  const extra = lists[name].envelope ? { status: 200, error: "" } : {};
  return { status: 200, body: { count, next: nextLink, previous, results: ids, ...extra } };
}
const pastLast = (n: number, last: number) => ({ status: 404, body: { status: 404, error: `Invalid page: page ${n} is past the last page, ${last}.` } });

describe.each(NAMES)("%s", (name) => {
  const L = () => lists[name];

  it("the default page size, followed by next to the last page: exact links, no overlap, no gap", async () => {
    const { path, def, max, ids } = L();
    const last = Math.ceil((max + 1) / def);
    expect(new Set(ids).size).toBe(max + 1); // the fixture: max+1 distinct records
    expect(await get(path)).toEqual(page(name, max + 1, ids.slice(0, def), link(path, "page=2"), null));
    const seen = ids.slice(0, def);
    for (let p = 2; p <= last; p++) {
      const answer = await get(link(path, `page=${p}`));
      const want = ids.slice((p - 1) * def, p * def);
      expect(answer).toEqual(page(name, max + 1, want, p < last ? link(path, `page=${p + 1}`) : null, link(path, `page=${p - 1}`)));
      seen.push(...want);
    }
    expect(seen).toEqual(ids);
    expect(ids.slice((last - 1) * def)).toEqual([ids[max]]); // the last page holds exactly one record
    expect(await get(link(path, `page=${last + 1}`))).toEqual(pastLast(last + 1, last));
    expect(await get(`${path}?page_size=`)).toEqual(page(name, max + 1, ids.slice(0, def), link(path, "page_size=&page=2"), null));
  });

  it("page_size at the maximum: a full first page, the one record left on the last page, then 404", async () => {
    const { path, max, ids } = L();
    expect(await get(`${path}?page_size=${max}`)).toEqual(page(name, max + 1, ids.slice(0, max), link(path, `page_size=${max}&page=2`), null));
    expect(await get(`${path}?page_size=${max}&page=2`)).toEqual(page(name, max + 1, [ids[max]], null, link(path, `page_size=${max}&page=1`)));
    expect(await get(`${path}?page=3&page_size=${max}`)).toEqual(pastLast(3, 2));
  });

  it("page_size=1: the first, a middle and the last page, then 404 just past it", async () => {
    const { path, max, ids } = L();
    expect(await get(`${path}?page_size=1`)).toEqual(page(name, max + 1, [ids[0]], link(path, "page_size=1&page=2"), null));
    expect(await get(`${path}?page=2&page_size=1`)).toEqual(page(name, max + 1, [ids[1]], link(path, "page=3&page_size=1"), link(path, "page=1&page_size=1")));
    expect(await get(`${path}?page_size=1&page=${max + 1}`)).toEqual(page(name, max + 1, [ids[max]], null, link(path, `page_size=1&page=${max}`)));
    expect(await get(`${path}?page_size=1&page=${max + 2}`)).toEqual(pastLast(max + 2, max + 1));
  });

  it.each([
    ["page=0", "page must be a whole number from 1 up; got '0'."],
    ["page=-1", "page must be a whole number from 1 up; got '-1'."],
    ["page=two", "page must be a whole number from 1 up; got 'two'."],
    ["page=1000000000", "page must be a whole number from 1 up; got '1000000000'."],
    ["page_size=0", "page_size must be a whole number from 1 up; got '0'."],
    ["page_size=-5", "page_size must be a whole number from 1 up; got '-5'."],
    ["page_size=ten", "page_size must be a whole number from 1 up; got 'ten'."],
    ["page_size=2.5", "page_size must be a whole number from 1 up; got '2.5'."],
    [`page_size=${"7".repeat(45)}`, `page_size must be a whole number from 1 up; got '${"7".repeat(40)}'.`],
  ])("%s is a 400 that names the parameter", async (query, error) => {
    expect(await get(`${L().path}?${query}`)).toEqual({ status: 400, body: { status: 400, error } });
  });

  it("a page number far past the end (the largest one taken) is the 404, not a 400 or a 5xx", async () => {
    const { path, def, max } = L();
    expect(await get(`${path}?page=999999999`)).toEqual(pastLast(999999999, Math.ceil((max + 1) / def)));
  });

  it("an empty list: page 1 is 200 with count 0 and no links; page 2 is past the last page, 1", async () => {
    const { path, key } = empty[name];
    expect(await get(path, key)).toEqual(page(name, 0, [], null, null));
    expect(await get(`${path}?page=1&page_size=1`, key)).toEqual(page(name, 0, [], null, null));
    expect(await get(`${path}?page=2`, key)).toEqual(pastLast(2, 1));
  });
});

describe("filters stay in next/previous, and count is the filtered total", () => {
  const cases: [Name, string, (id: string) => boolean][] = [
    ["cards", "expand=user", () => true],
    ["movements", "type=payment", (id) => data.movements.find((m) => m.id === id)!.type === "payment"],
    ["allowances", "state=approved&expand=beneficiary", (id) => data.allowances.find((x) => x.id === id)!.state === "approved"],
    ["expenses", "state=paid", (id) => data.expenses.find((x) => x.id === id)!.state === "paid"],
  ];

  it.each(cases)("%s?%s: first, middle and last pages of 3, then 404", async (name, filter, keep) => {
    const { path } = lists[name];
    const ids = lists[name].ids.filter(keep);
    const last = Math.ceil(ids.length / 3);
    expect(last).toBeGreaterThanOrEqual(3);
    const q = (p: number) => `${filter}&page_size=3&page=${p}`;
    expect(await get(`${path}?${filter}&page_size=3`)).toEqual(page(name, ids.length, ids.slice(0, 3), link(path, q(2)), null));
    expect(await get(`${path}?${q(2)}`)).toEqual(page(name, ids.length, ids.slice(3, 6), link(path, q(3)), link(path, q(1))));
    expect(await get(`${path}?${q(last)}`)).toEqual(page(name, ids.length, ids.slice((last - 1) * 3), null, link(path, q(last - 1))));
    expect(await get(`${path}?${q(last + 1)}`)).toEqual(pastLast(last + 1, last));
  });

  it.each(cases.filter(([name]) => name !== "cards"))("%s?%s on a single page: count of the filter, both links null", async (name, filter, keep) => {
    const { path, max } = lists[name];
    const ids = lists[name].ids.filter(keep);
    expect(ids.length).toBeLessThan(max);
    expect(await get(`${path}?${filter}&page_size=${max}`)).toEqual(page(name, ids.length, ids, null, null));
    expect(await get(`${path}?page=1&page_size=${ids.length}&${filter}`)).toEqual(page(name, ids.length, ids, null, null));
    expect(await get(`${path}?page=2&page_size=${ids.length}&${filter}`)).toEqual(pastLast(2, 1));
    expect(await get(`${path}?page=1&page_size=${ids.length - 1}&${filter}`)).toEqual(
      page(name, ids.length, ids.slice(0, -1), link(path, `page=2&page_size=${ids.length - 1}&${filter}`), null));
  });
});
