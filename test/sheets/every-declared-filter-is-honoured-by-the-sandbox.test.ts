/**
 * The sandbox is the service on this machine: a filter the add-in declares (src/sheets/resources) and sends, but
 * the sandbox's route ignores, would load the whole list in every demo and test while the service answers the
 * filtered one. For every declared filter of every resource, a load through the add-in's own query (the module's
 * list call, sent to the real sandbox) with the filter gives exactly the records of the unfiltered load that match
 * it, and for at least one value that is fewer records than the whole list, so an ignored filter fails.
 *
 * What "match" means is said here, apart from the add-in and the sandbox, once per filter: a new declared filter
 * fails the first test until its meaning is written below.
 */
import { SpendClient } from "../../src/api";
import { Query, RESOURCE_KINDS, type ParamDecl, type ResourceKind } from "../../src/sheets/resources";
import { declaredParams } from "../support/declarations";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

type Rec = Record<string, unknown> & { id: string };

/** A record's value a filter looks at, and whether a filter value lets that record through. */
interface Meaning {
  of(record: Rec): unknown;
  holds(recordValue: unknown, filterValue: unknown): boolean;
}

const same = (a: unknown, b: unknown) => a === b;
/** The UTC day of a timestamp (the service compares created_at's date so: spec 4.7). */
const day = (r: Rec) => String(r.created_at).slice(0, 10);

const MEANINGS: Record<string, Meaning> = {
  "movements.type": { of: (m) => m.type, holds: same },
  "movements.reconciled": { of: (m) => m.reconciliation !== null && m.reconciliation !== undefined, holds: same },
  "allowances.state": { of: (a) => a.state, holds: same },
  "expenses.state": { of: (e) => e.state, holds: same },
  "expenses.createdFrom": { of: day, holds: (d, from) => String(d) >= String(from) },
  "expenses.createdTo": { of: day, holds: (d, to) => String(d) <= String(to) },
};

/** The filters of a kind: what narrows the list (an id is its scope, an expand or the reconciliation its columns). */
const filtersOf = (kind: ResourceKind) => declaredParams(kind).filter((p) => p.type !== "id" && p.type !== "expand" && p.wire !== "expand");

const FILTERS = RESOURCE_KINDS.flatMap((kind) => filtersOf(kind).map((p) => [`${kind}.${p.name}`, kind, p] as const));

let f: SandboxFixture;
let client: SpendClient;
/** Each kind's scope with the most records, so every filter has values to tell apart. */
let scopes: Record<ResourceKind, Record<string, string>>;

beforeAll(async () => {
  f = await withSandbox();
  client = new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  const store = f.sandbox.store;
  const periods = f.enterprise.cards.flatMap((c) => c.billing_periods.map((p) => ({ cardId: c.id, billingPeriodId: p })));
  const busiest = periods.reduce((a, b) => (store.movementsOf(b.billingPeriodId).length > store.movementsOf(a.billingPeriodId).length ? b : a));
  const subsidiaryId = f.enterprise.subsidiaries.reduce((a, b) => (store.expensesOf(b).length > store.expensesOf(a).length ? b : a));
  scopes = { cards: {}, movements: busiest, allowances: { subsidiaryId }, expenses: { subsidiaryId } };
}, 60_000);
afterAll(async () => {
  await f.sandbox.close();
});

async function load(kind: ResourceKind, filter: Record<string, unknown> = {}): Promise<Rec[]> {
  const query = Query.parse({ resource: kind, enterpriseId: f.enterprise.id, ...scopes[kind], ...filter });
  return (await query.source.list(client, {}).all()) as Rec[];
}

/** The values to try: each allowed one, both sides, or the middle day of the records (a date). */
function valuesOf(p: ParamDecl, meaning: Meaning, all: Rec[]): unknown[] {
  switch (p.type) {
    case "choice": return [...p.values];
    case "boolean": return [true, false];
    case "date": {
      const days = [...new Set(all.map(meaning.of).map(String))].sort();
      return [days[Math.floor(days.length / 2)]];
    }
    default: return [];
  }
}

it("every declared filter has its meaning written here (a new one: say what it keeps)", () => {
  expect(FILTERS.length).toBeGreaterThanOrEqual(6);
  expect(FILTERS.map(([key]) => key).filter((key) => !(key in MEANINGS))).toEqual([]);
});

it.each(FILTERS)("%s: the sandbox answers exactly the matching records, fewer than the whole list for some value", async (key, kind, p) => {
  const meaning = MEANINGS[key];
  const all = await load(kind);
  expect(all.length).toBeGreaterThan(1);
  const tried = [];
  for (const value of valuesOf(p, meaning, all)) {
    const expected = all.filter((r) => meaning.holds(meaning.of(r), value)).map((r) => r.id).sort();
    const got = (await load(kind, { [p.name]: value })).map((r) => r.id).sort();
    expect({ value, got }).toEqual({ value, got: expected });
    tried.push(expected.length);
  }
  expect(tried.some((n) => n > 0 && n < all.length)).toBe(true);
});
