/**
 * Record functions batched (issue 27): calls arriving together are answered from their scope's list pages when
 * the cost rule says so, and every cell shows exactly what one GET per cell gives. Each comparison runs the same
 * sheet both ways on the real sandbox on loopback, each way with a fresh session whose transport records every
 * request: batched, and with `batching: false` (one GET per cell, the code path before issue 27).
 */
import { Session, fetchTransport, memoryStorage, type RawResponse, type Transport } from "../../src/api";
import { allowance, card, expense } from "../../src/functions/functions";
import { BATCH_WINDOW_MS, RECORDS_PER_REQUEST, firstPageWorth, restWorth } from "../../src/functions/record-batch";
import { useSession } from "../../src/functions/runtime";
import { recordColumns } from "../../src/sheets";
import { DEFAULT_PROFILE, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { card as cardBody, fakeTransport, type Script } from "../support/fake-transport";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

installCustomFunctionsStub();

/** One formula cell: =SPEND.EXPENSE(sub, id, field), =SPEND.ALLOWANCE(…) or =SPEND.CARD(id, field). */
interface Cell {
  fn: "EXPENSE" | "ALLOWANCE" | "CARD";
  sub?: string;
  id: string;
  field?: string | null;
}

/** What a cell shows: its value, or its error and message. */
type Shown = { value: unknown } | { error: string; message: string | undefined };

const callOf = (c: Cell, inv = invocation()) =>
  c.fn === "CARD" ? card(c.id, c.field ?? null, inv) : c.fn === "ALLOWANCE" ? allowance(c.sub, c.id, c.field ?? null, inv) : expense(c.sub, c.id, c.field ?? null, inv);

const settle = (p: Promise<unknown>): Promise<Shown> => p.then((value) => ({ value }), (e: FunctionError) => ({ error: e.code, message: e.message }));
const shown = settle;

/** Excel recalculating a sheet: every cell's call made at once, as the runtime receives them. */
const recalc = (cells: Cell[], inv?: CustomFunctions.Invocation) => Promise.all(cells.map((c) => settle(callOf(c, inv))));

interface Connected {
  session: Session;
  /** Every request sent, in order: path and query. */
  requests: string[];
}

/** An injected answer for a request, or undefined to let it through to the sandbox. */
type Inject = (url: URL) => RawResponse | Error | undefined;

/** A fresh session on the sandbox (fresh cache) whose transport records every request, batched or not. */
function connect(f: SandboxFixture, options: { batching?: boolean; key?: string; inject?: Inject; deadlineMs?: number } = {}): Connected {
  const requests: string[] = [];
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    requests.push(`${url.pathname}${url.search}`);
    const injected = options.inject?.(url);
    if (injected instanceof Error) throw injected;
    if (injected) return injected;
    return fetchTransport(request);
  };
  const session = new Session(memoryStorage(), { transport, retry: { retries: 0 } });
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: options.key ?? f.enterprise.api_key });
  useSession(session, { batching: options.batching ?? true, deadlineMs: options.deadlineMs });
  return { session, requests };
}

/** The same sheet recalculated batched, then one GET per cell, each with a fresh session. */
async function bothWays(f: SandboxFixture, cells: Cell[], options: { key?: string; inject?: Inject } = {}) {
  const batched = connect(f, options);
  const batchedShown = await recalc(cells);
  const perGet = connect(f, { ...options, batching: false });
  const perGetShown = await recalc(cells);
  return { batched: batchedShown, perGet: perGetShown, batchedRequests: batched.requests, perGetRequests: perGet.requests, session: batched.session };
}

/** Both ways agree cell for cell, each compared with the other (a cell missing on either side fails too). */
function expectSameCells(a: Shown[], b: Shown[]): void {
  expect(a).toHaveLength(b.length);
  a.forEach((shown, i) => expect([i, shown]).toStrictEqual([i, b[i]]));
  b.forEach((shown, i) => expect([i, shown]).toStrictEqual([i, a[i]]));
}

/** A deterministic shuffle (the sheet's rows are not in the list's order). */
function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const listPath = (f: SandboxFixture, sub: string, what: "expenses" | "allowances") => `${f.prefix}/subsidiaries/${sub}/${what}/`;
const pageOf = (path: string, page: number, size = 1000) => `${path}?page=${page}&page_size=${size}`;
const getOf = (f: SandboxFixture, sub: string, id: string) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`;
const notFound: Shown = { error: "#N/A", message: "Not found: no such record, subsidiary, card or billing period for this enterprise." };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

beforeEach(() => useExcelProfile("office-2024"));
afterAll(() => useExcelProfile(DEFAULT_PROFILE));

describe("5,000 distinct record cells of one subsidiary (6,000 expenses)", () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await withSandbox({ scale: 20 });
  });
  afterAll(() => f.sandbox.close());

  it("take at most 1 request per 100 cells (the list's 6 pages, no GET) and show what one GET per cell shows, cell for cell", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    expect(all).toHaveLength(6000);
    const ids = shuffled(all.map((e) => e.id)).slice(0, 5000);
    const fields = [...recordColumns("expense").map((c) => c.key), null];
    // =SPEND.EXPENSE(sub, A2, "state") filled down, and every other field (and the whole record) in some cells.
    const cells: Cell[] = ids.map((id, i) => ({ fn: "EXPENSE", sub, id, field: i % 4 === 0 ? fields[(i / 4) % fields.length] : "state" }));
    const run = await bothWays(f, cells);

    const path = listPath(f, sub, "expenses");
    expect(run.batchedRequests).toEqual([1, 2, 3, 4, 5, 6].map((p) => pageOf(path, p)));
    expect(run.batchedRequests.length).toBeLessThanOrEqual(cells.length / 100);
    expect(run.perGetRequests).toHaveLength(5000);
    expect(new Set(run.perGetRequests)).toEqual(new Set(ids.map((id) => getOf(f, sub, id))));
    expectSameCells(run.batched, run.perGet);
    // Neither way is wrong in the same way: the cells show the service's records.
    const byId = new Map(all.map((e) => [e.id, e]));
    cells.forEach((c, i) => {
      if (c.field === "state") expect(run.batched[i]).toEqual({ value: [[byId.get(c.id)!.state]] });
    });
    expect(run.batched.filter((s) => "error" in s)).toEqual([]);
  }, 120_000);

  it("the rule: 10 cells take 10 GETs; 11 cells on page 1 take page 1; 20 cells on the last page take page 1 and 20 GETs; 100 take the list", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub).map((e) => e.id);
    const path = listPath(f, sub, "expenses");
    const cellsOf = (ids: string[]): Cell[] => ids.map((id) => ({ fn: "EXPENSE", sub, id, field: "amount" }));

    // Below the first page's worth (1 request + 1,000 records weigh 11 GETs): one GET each.
    const ten = await bothWays(f, cellsOf(all.slice(0, 10)));
    expect(ten.batchedRequests).toEqual(all.slice(0, 10).map((id) => getOf(f, sub, id)));
    expectSameCells(ten.batched, ten.perGet);

    // 11 on page 1: the page answers all of them.
    const eleven = await bothWays(f, cellsOf(all.slice(100, 111)));
    expect(eleven.batchedRequests).toEqual([pageOf(path, 1)]);
    expectSameCells(eleven.batched, eleven.perGet);

    // 20 on page 6: page 1 answers none; the rest of the list (5 requests + 5,000 records = 55) costs more
    // than their 20 GETs, so the GETs go, after page 1.
    const last = all.slice(5500, 5520);
    const twenty = await bothWays(f, cellsOf(last));
    expect(twenty.batchedRequests).toEqual([pageOf(path, 1), ...last.map((id) => getOf(f, sub, id))]);
    expectSameCells(twenty.batched, twenty.perGet);

    // 100 on page 6: the rest of the list (55) is cheaper than 100 GETs.
    const hundred = await bothWays(f, cellsOf(all.slice(5500, 5600)));
    expect(hundred.batchedRequests).toEqual([1, 2, 3, 4, 5, 6].map((p) => pageOf(path, p)));
    expectSameCells(hundred.batched, hundred.perGet);
  }, 120_000);

  it("a failed page 3 does not poison the cells: pages 1-2 answer theirs, every other cell gets its own GET's answer", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub).map((e) => e.id);
    const ids = shuffled(all, 11).slice(0, 1500);
    const cells: Cell[] = ids.map((id) => ({ fn: "EXPENSE", sub, id, field: "state" }));
    const failPage3: Inject = (url) =>
      url.pathname.endsWith("/expenses/") && url.searchParams.get("page") === "3" ? { status: 500, headers: new Headers(), text: '{"status":500,"error":"boom"}' } : undefined;
    const run = await bothWays(f, cells, { inject: failPage3 });
    expectSameCells(run.batched, run.perGet);
    expect(run.batched.filter((s) => "error" in s)).toEqual([]);

    const path = listPath(f, sub, "expenses");
    const pages = run.batchedRequests.filter((r) => r.startsWith(`${path}?`));
    const gets = run.batchedRequests.filter((r) => !r.startsWith(`${path}?`));
    expect(pages.slice(0, 3)).toEqual([1, 2, 3].map((p) => pageOf(path, p)));
    // The GETs are those of the cells whose records pages 1 and 2 do not hold, each once, after the list.
    const answered = new Set(all.slice(0, 2000));
    expect(new Set(gets)).toEqual(new Set(ids.filter((id) => !answered.has(id)).map((id) => getOf(f, sub, id))));
    expect(gets).toHaveLength(new Set(gets).size);
    expect(run.batchedRequests.indexOf(gets[0])).toBeGreaterThan(run.batchedRequests.lastIndexOf(pages[pages.length - 1]));
  }, 120_000);

  it("a list that cannot be read at all (a network failure, a page that is not JSON) leaves every cell to its GET", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const ids = f.sandbox.store.expensesOf(sub).slice(0, 200).map((e) => e.id);
    const cells: Cell[] = ids.map((id) => ({ fn: "EXPENSE", sub, id, field: "description" }));
    const isList = (url: URL) => url.pathname.endsWith("/expenses/");
    for (const inject of [
      (url: URL) => (isList(url) ? new TypeError("fetch failed") : undefined),
      (url: URL) => (isList(url) ? { status: 200, headers: new Headers(), text: "<html>proxy error</html>" } : undefined),
    ] as Inject[]) {
      const run = await bothWays(f, cells, { inject });
      expectSameCells(run.batched, run.perGet);
      expect(run.batched.filter((s) => "error" in s)).toEqual([]);
      expect(run.batchedRequests).toEqual([pageOf(listPath(f, sub, "expenses"), 1), ...ids.map((id) => getOf(f, sub, id))]);
    }
  }, 120_000);
});

describe("every form a cell can take, batched as one GET per cell gives it", () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await withSandbox();
  });
  afterAll(() => f.sandbox.close());

  /** Every field of `ids`' records, and the whole record (an entity with data types, else a header row and its row). */
  const sheetOf = (fn: Cell["fn"], sub: string | undefined, ids: string[], kind: "expense" | "allowance" | "card"): Cell[] => {
    const fields = [...recordColumns(kind).map((c) => c.key), null];
    return ids.flatMap((id) => fields.map((field) => ({ fn, sub, id, field })));
  };

  it.each<[ProfileId, string]>([
    ["office-2024", "plain values"],
    ["m365-2302", "FormattedNumber"],
    ["m365-current", "Double with its numberFormat"],
  ])("%s (%s): expenses, allowances and cards, every field and the whole record", async (profile) => {
    useExcelProfile(profile);
    const [sub, sub2] = f.enterprise.subsidiaries;
    const store = f.sandbox.store;
    const cells = [
      ...sheetOf("EXPENSE", sub, store.expensesOf(sub).slice(0, 40).map((e) => e.id), "expense"),
      ...sheetOf("EXPENSE", sub2, store.expensesOf(sub2).slice(0, 15).map((e) => e.id), "expense"),
      ...sheetOf("ALLOWANCE", sub, store.allowancesOf(sub).slice(0, 30).map((a) => a.id), "allowance"),
      ...sheetOf("CARD", undefined, store.cardsOf(f.enterprise.id).map((c) => c.id), "card"),
    ];
    const run = await bothWays(f, cells);
    expectSameCells(run.batched, run.perGet);
    expect(run.batched.filter((s) => "error" in s)).toEqual([]);
    // One list page per scope instead of a GET per record (40 + 15 + 30 + 6 records).
    expect([...run.batchedRequests].sort()).toEqual([
      pageOf(listPath(f, sub, "expenses"), 1),
      pageOf(listPath(f, sub2, "expenses"), 1),
      `${listPath(f, sub, "allowances")}?expand=allowance_segments&page=1&page_size=1000`,
      `${f.prefix}/corporate-cards/?page=1&page_size=100`,
    ].sort());
    expect(run.perGetRequests).toHaveLength(40 + 15 + 30 + store.cardsOf(f.enterprise.id).length);
    if (profile !== "office-2024") {
      const whole = run.batched[recordColumns("expense").length] as { value: unknown[][] };
      expect(whole.value[0][0]).toMatchObject({ type: "Entity" });
      const amount = run.batched[recordColumns("expense").findIndex((c) => c.key === "amount")] as { value: unknown[][] };
      expect(amount.value[0][0]).toMatchObject({ type: profile === "m365-2302" ? "FormattedNumber" : "Double" });
    }
  }, 120_000);
});

describe("what the list does not answer is asked by GET, and no two different calls share a result", () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await withSandbox();
  });
  afterEach(() => f.sandbox.close());

  it("records missing from the list (no such id, another subsidiary's, an allowance asked as an expense) fall back to one GET each, after the list: #N/A as a GET says", async () => {
    const [sub, sub2] = f.enterprise.subsidiaries;
    const store = f.sandbox.store;
    const listed = store.expensesOf(sub).slice(0, 30).map((e) => e.id);
    const missing = [uuid(1), uuid(2), uuid(3), store.expensesOf(sub2)[0].id, store.allowancesOf(sub)[0].id];
    const cells: Cell[] = [...listed, ...missing].map((id) => ({ fn: "EXPENSE", sub, id, field: "state" }));
    const run = await bothWays(f, cells);
    expectSameCells(run.batched, run.perGet);
    expect(run.batched.slice(30)).toEqual(missing.map(() => notFound));
    expect(run.batched.slice(0, 30).filter((s) => "error" in s)).toEqual([]);
    expect(run.batchedRequests).toEqual([pageOf(listPath(f, sub, "expenses"), 1), ...missing.map((id) => getOf(f, sub, id))]);
  });

  it("calls that differ in one argument (subsidiary, id, field, function) each get their own record, in one batch", async () => {
    const [sub, sub2] = f.enterprise.subsidiaries;
    const store = f.sandbox.store;
    const [e1, e2] = store.expensesOf(sub);
    const a1 = store.allowancesOf(sub)[0];
    const [c1, c2] = store.cardsOf(f.enterprise.id);
    const filler = (s: string, from: number): Cell[] => store.expensesOf(s).slice(from, from + 12).map((e) => ({ fn: "EXPENSE", sub: s, id: e.id, field: "state" }));
    const pairs: [Cell, Shown][] = [
      [{ fn: "EXPENSE", sub, id: e1.id, field: "state" }, { value: [[e1.state]] }],
      [{ fn: "EXPENSE", sub: sub2, id: e1.id, field: "state" }, notFound],
      [{ fn: "EXPENSE", sub, id: e2.id, field: "state" }, { value: [[e2.state]] }],
      [{ fn: "EXPENSE", sub, id: e1.id, field: "amount" }, { value: [[e1.amount]] }],
      [{ fn: "EXPENSE", sub, id: e1.id, field: "expense_number" }, { value: [[e1.expense_number]] }],
      [{ fn: "ALLOWANCE", sub, id: a1.id, field: "state" }, { value: [[a1.state]] }],
      [{ fn: "EXPENSE", sub, id: a1.id, field: "state" }, notFound],
      [{ fn: "ALLOWANCE", sub, id: e1.id, field: "state" }, notFound],
      [{ fn: "CARD", id: c1.id, field: "last_four_digits" }, { value: [[c1.last_four_digits]] }],
      [{ fn: "CARD", id: c2.id, field: "last_four_digits" }, { value: [[c2.last_four_digits]] }],
    ];
    expect(e1.state === e2.state && e1.amount === e2.amount).toBe(false);
    const cells = [...pairs.map(([c]) => c), ...filler(sub, 2), ...filler(sub2, 0)];
    const run = await bothWays(f, cells);
    expectSameCells(run.batched, run.perGet);
    expect(run.batched.slice(0, pairs.length)).toEqual(pairs.map(([, shown]) => shown));
    // The scopes' lists were read (each has 11 or more calls, or 2 cards), the rest by GET.
    expect(run.batchedRequests.filter((r) => r.includes("page=")).sort()).toEqual([
      pageOf(listPath(f, sub, "expenses"), 1), pageOf(listPath(f, sub2, "expenses"), 1), `${f.prefix}/corporate-cards/?page=1&page_size=100`,
    ].sort());
  });

  it("a malformed record in the list is that cell's GET error, and the list still answers the others", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    all[7].created_at = "2026-13-45T00:00:00Z";
    const cells: Cell[] = all.slice(0, 40).map((e) => ({ fn: "EXPENSE", sub, id: e.id, field: "state" }));
    const run = await bothWays(f, cells);
    expectSameCells(run.batched, run.perGet);
    expect(run.batched[7]).toEqual({
      error: "#N/A",
      message: 'The service\'s answer for expense does not match the API: created_at: expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z (got "2026-13-45T00:00:00Z").',
    });
    expect(run.batchedRequests).toEqual([pageOf(listPath(f, sub, "expenses"), 1), getOf(f, sub, all[7].id)]);
  });

  it("a listed record holding more values than a GET's answer may is not answered from the list: its GET decides (here, refusing it)", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    const page = (await f.call("GET", `${listPath(f, sub, "expenses")}?page=1&page_size=1000`)).json as { results: Record<string, unknown>[] };
    const [big, small] = [all[4].id, all[5].id];
    // Fields the API does not list are dropped, so the cells show the same values; only the count differs.
    const padded = (r: Record<string, unknown>) => (r.id === big ? { ...r, notes: Array.from({ length: 2100 }, (_, i) => i) } : r.id === small ? { ...r, notes: [1, 2, 3] } : r);
    const text = (body: unknown) => ({ status: 200, headers: new Headers(), text: JSON.stringify(body) });
    const inject: Inject = (url) => {
      if (url.pathname === listPath(f, sub, "expenses")) return text({ ...page, results: page.results.map(padded) });
      if (url.pathname === getOf(f, sub, big)) return text({ ...padded(page.results[4]), status: 200, error: "" });
      return undefined;
    };
    const cells: Cell[] = all.slice(0, 20).map((e) => ({ fn: "EXPENSE", sub, id: e.id, field: "state" }));
    const run = await bothWays(f, cells, { inject });
    expectSameCells(run.batched, run.perGet);
    expect(run.batched[4]).toEqual({ error: "#N/A", message: expect.stringMatching(/^The service's answer for expense holds more than 2,112 values, more than a record needs/) });
    expect(run.batched[5]).toEqual({ value: [[all[5].state]] });
    expect(run.batchedRequests).toEqual([pageOf(listPath(f, sub, "expenses"), 1), getOf(f, sub, big)]);
  });

  it("a refused key: the list's 403 leaves each cell to its GET, with the GET's #VALUE!", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const cells: Cell[] = f.sandbox.store.expensesOf(sub).slice(0, 12).map((e) => ({ fn: "EXPENSE", sub, id: e.id, field: "state" }));
    const run = await bothWays(f, cells, { key: "sk_wrong_key_for_batches" });
    expectSameCells(run.batched, run.perGet);
    expect(run.batched.every((s) => "error" in s && s.error === "#VALUE!" && /^The API key was refused/.test(s.message ?? ""))).toBe(true);
    expect(JSON.stringify(run.batched)).not.toContain("sk_wrong_key_for_batches");
  });
});

describe("the cache and formula value preview", () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await withSandbox();
  });
  afterEach(() => f.sandbox.close());

  it("a record answered from a list is cached under its GET's key, once: a later single call and a preview hit it", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    const asked = all.slice(0, 50);
    const { session, requests } = connect(f);
    await recalc(asked.map((e) => ({ fn: "EXPENSE", sub, id: e.id, field: "state" })));
    expect(requests).toHaveLength(1);
    // One entry per record asked (not one per listed record), each where its GET's answer would be.
    expect(session.governor.size).toBe(50);
    const keyOf = (id: string) => JSON.stringify([f.sandbox.baseUrl, f.enterprise.id, "EXPENSE", [id, sub]]);
    expect(asked.every((e) => session.governor.peek(keyOf(e.id)) !== undefined)).toBe(true);
    expect(session.governor.peek(keyOf(all[60].id))).toBeUndefined();

    // The same record, another field, alone: from the cache. A preview too.
    expect(await expense(sub, asked[3].id, "amount", invocation())).toEqual([[asked[3].amount]]);
    expect(await expense(sub, asked[4].id, "description", invocation(true))).toEqual([[asked[4].description]]);
    expect(requests).toHaveLength(1);
    expect(session.governor.size).toBe(50);

    // The server changes a record: the cell keeps the cached answer (one entry, one value) until Refresh data.
    const before = asked[5].state;
    asked[5].state = before === "paid" ? "accounted" : "paid";
    expect(await expense(sub, asked[5].id, "state", invocation())).toEqual([[before]]);
    session.governor.clear();
    expect(await expense(sub, asked[5].id, "state", invocation())).toEqual([[asked[5].state]]);
    expect(requests).toHaveLength(2);
  });

  it("formula value preview never calls the service, however many cells preview at once", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const { requests } = connect(f);
    const cells: Cell[] = f.sandbox.store.expensesOf(sub).slice(0, 60).map((e) => ({ fn: "EXPENSE", sub, id: e.id, field: "state" }));
    jest.useFakeTimers();
    try {
      const shown = await recalc(cells, invocation(true));
      expect(shown).toEqual(cells.map(() => ({ error: "#N/A", message: "Formula preview does not call the service: press Enter to load." })));
      await jest.advanceTimersByTimeAsync(60_000); // past any batch window and deadline: nothing was left to send
      expect(requests).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("the cost rule", () => {
  it(`weighs ${RECORDS_PER_REQUEST} listed records as one request`, () => {
    // First page: 1 request + up to 1,000 records (11) against the GETs it can replace.
    expect([firstPageWorth(10, 1000), firstPageWorth(11, 1000), firstPageWorth(1, 100), firstPageWorth(2, 100)]).toEqual([false, true, false, true]);
    // The rest: 5 pages + 5,000 records (55) against the unanswered calls' GETs.
    expect([restWorth(54, 5, 5000), restWorth(55, 5, 5000), restWorth(5000, 50, 50_000), restWorth(500, 50, 50_000)]).toEqual([false, true, true, false]);
  });
});

describe("the batch window and the list's deadline (fake timers, a scripted service)", () => {
  const ids = Array.from({ length: 30 }, (_, i) => uuid(100 + i));
  /** Cards: the list answers after `listMs`, a GET after 100 ms; every request recorded. */
  function service(listMs: number) {
    const script: Script = (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/corporate-cards/")) return { body: { count: ids.length, next: null, previous: null, results: ids.map(cardBody) }, delayMs: listMs };
      const id = url.pathname.split("/").at(-2)!;
      return ids.includes(id) ? { body: { ...cardBody(id), status: 200, error: "" }, delayMs: 100 } : { status: 404, body: { status: 404, error: "Not found." }, delayMs: 100 };
    };
    const fake = fakeTransport(script);
    const session = new Session(memoryStorage(), { transport: fake.transport, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: uuid(1), apiKey: "sk_test_window" });
    useSession(session, { deadlineMs: 300 });
    const sent = () => fake.requests.map((r) => new URL(r.url).pathname.replace("/public/v1/enterprises/00000000-0000-4000-8000-000000000001", ""));
    return { sent };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it(`calls within ${BATCH_WINDOW_MS} ms of the first go together; one arriving while the list is read joins it; one after it, alone, is a GET`, async () => {
    const { sent } = service(200);
    const done: string[] = [];
    const ask = (id: string) => card(id, "id", invocation()).then((v) => (done.push(id), v));
    const first = [ask(ids[0]), ask(ids[1])];
    await jest.advanceTimersByTimeAsync(30);
    const second = [ask(ids[2])];
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS - 31);
    expect(sent()).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent()).toEqual(["/corporate-cards/"]);
    await jest.advanceTimersByTimeAsync(100); // the list is on its way (200 ms)
    const joining = [ask(ids[3]), ask(ids[0])];
    await jest.advanceTimersByTimeAsync(99);
    expect(done).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent()).toEqual(["/corporate-cards/"]);
    expect(await Promise.all([...first, ...second, ...joining])).toEqual([ids[0], ids[1], ids[2], ids[3], ids[0]].map((id) => [[id]]));
    // After the list: a lone call waits its window, then goes as a GET (one call is not worth a page).
    const alone = ask(ids[20]);
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS - 1);
    expect(sent()).toEqual(["/corporate-cards/"]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent()).toEqual(["/corporate-cards/", `/corporate-cards/${ids[20]}/`]);
    await jest.advanceTimersByTimeAsync(100);
    expect(await alone).toEqual([[ids[20]]]);
  });

  it("a list that outlasts its deadline is abandoned and its calls get their GETs, each with a deadline of its own", async () => {
    const { sent } = service(10_000);
    const settled: string[] = [];
    const asks = [ids[5], ids[6], uuid(999)].map((id) => shown(card(id, "id", invocation())).then((r) => (settled.push(id), r)));
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS + 299);
    expect(sent()).toEqual(["/corporate-cards/"]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent()).toEqual(["/corporate-cards/", `/corporate-cards/${ids[5]}/`, `/corporate-cards/${ids[6]}/`, `/corporate-cards/${uuid(999)}/`]);
    expect(settled).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    expect(await Promise.all(asks)).toEqual([{ value: [[ids[5]]] }, { value: [[ids[6]]] }, notFound]);
  });
});
