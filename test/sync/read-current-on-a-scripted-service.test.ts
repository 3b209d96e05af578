/**
 * Reading the records of a run again (read-current.ts), against a scripted service: no sandbox, each case a few
 * pages in memory. The rule: with no more records than states, one GET each; otherwise the first page of each
 * state's list, then the rest of the lists only when their remaining pages are fewer than the GETs of the records
 * those first pages did not show (a tie goes to the GETs; a list without a count is worth one page more); a list
 * that moves or misbehaves is dropped and what it did not show is read by GET; a record the service does not have
 * is null. Each case asserts the requests in their order and every value read. The same rules over the sandbox:
 * read-with-fewest-requests.test.ts and read-current-moved.test.ts.
 */
import { CancelledError, SpendClient } from "../../src/api";
import { readCurrent, type ReadOptions } from "../../src/sync/read-current";
import { U, allowance, expense } from "../api/helpers/records";
import { fakeTransport, type Reply } from "../support/fake-transport";
import { settle, until, watch } from "../support/settle";

const PAGE = 1000;
type Resource = "expense" | "allowance";


/** The service's records: n -> its state (accounted ones carry ACC-n, paid ones PAY-n and a paid_at). */
type Store = Map<number, string>;
const recordOf = (resource: Resource, n: number, state: string) => {
  const values = {
    state,
    accounted_id: state === "approved" ? null : `ACC-${n}`,
    paid_id: state === "paid" ? `PAY-${n}` : null,
    paid_at: state === "paid" ? "2026-11-20T10:00:00Z" : null,
  };
  return resource === "allowance" ? allowance(n, values) : expense(n, values);
};
const valuesOf = (n: number, state: string) => ({
  state, accounted_id: state === "approved" ? "" : `ACC-${n}`, paid_id: state === "paid" ? `PAY-${n}` : "", paid_at: state === "paid" ? "2026-11-20T10:00:00Z" : "",
});
/** n of each state's records, in the order its list gives them. */
const inState = (store: Store, state: string) => [...store].filter(([, s]) => s === state).map(([n]) => n);

interface Serve {
  /** A list page's answer instead of the store's (return undefined to serve the store's). */
  list?: (state: string, page: number, url: URL) => Reply | undefined | Promise<Reply | undefined>;
  /** A GET's answer instead of the store's. */
  get?: (n: number) => Reply | undefined;
}

/** A list page of `ns` (all in `state`) as the service writes it, linking to the next page unless it is the last. */
function listPage(resource: Resource, url: URL, state: string, ns: number[], count: number | null, last = false): Reply {
  const next = new URL(url);
  next.searchParams.set("page", String(Number(url.searchParams.get("page") ?? 1) + 1));
  return { body: { count, next: last ? null : next.toString(), previous: null, results: ns.map((n) => recordOf(resource, n, state)) } };
}

/** The requests of the last read, also when it threw. */
let sentBefore: unknown[] = [];

/** Reads `ids` again; `wire` is the requests in order: "list accounted 1", "get 7". */
async function read(resource: Resource, store: Store, ids: number[], states: string[], serve: Serve = {}, options: ReadOptions & { clientConcurrency?: number } = {}) {
  const plural = resource === "allowance" ? "allowances" : "expenses";
  const fake = fakeTransport(async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace("/public/v1/enterprises/ent-1/subsidiaries/sub-1/", "");
    if (path === `${plural}/`) {
      const state = url.searchParams.get("state")!;
      const page = Number(url.searchParams.get("page") ?? 1);
      const replaced = await serve.list?.(state, page, url);
      if (replaced) return replaced;
      const all = inState(store, state);
      const size = Number(url.searchParams.get("page_size"));
      return listPage(resource, url, state, all.slice((page - 1) * size, page * size), all.length, page * size >= all.length);
    }
    const n = Number(/^[a-z]+\/0{8}-0{4}-4000-8000-(\d{12})\/$/.exec(path)?.[1] ?? NaN);
    if (!path.startsWith(`${plural}/`) || Number.isNaN(n)) throw new Error(`unexpected request ${request.method} ${path}`);
    await Promise.resolve(); // a GET takes a turn, so that GETs at once overlap
    const replaced = serve.get?.(n);
    if (replaced) return replaced;
    const state = store.get(n);
    return state === undefined
      ? { status: 404, body: { status: 404, error: "Not found." }, headers: { "content-type": "application/json" } }
      : { body: recordOf(resource, n, state) };
  });
  const client = new SpendClient({
    baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_read_current_0123456789", transport: fake.transport,
    retry: { retries: 0 }, ...(options.clientConcurrency === undefined ? {} : { concurrency: options.clientConcurrency }),
  });
  sentBefore = fake.requests;
  const current = await readCurrent(client, { resource, subsidiaryId: "sub-1" }, ids.map(U), states, options);
  const wire = fake.requests.map((r) => {
    const url = new URL(r.url);
    return url.searchParams.has("state") ? `list ${url.searchParams.get("state")} ${url.searchParams.get("page") ?? 1}` : `get ${Number(url.pathname.split("/").at(-2)!.slice(-12))}`;
  });
  return { current, wire, maxInFlight: fake.maxInFlight() };
}

/** `count` records of `state` numbered from `from`. */
function add(store: Store, from: number, count: number, state: string): number[] {
  const ns = Array.from({ length: count }, (_, i) => from + i);
  for (const n of ns) store.set(n, state);
  return ns;
}
/** Every value read, as [n, values] in the order of ids. */
const values = (current: Map<string, unknown>, ids: number[]) => ids.map((n) => [n, current.get(U(n))]);
const sortedGets = (wire: string[]) => wire.filter((w) => w.startsWith("get ")).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));

describe("no more records than states: one GET each, no list", () => {
  it("one record, one state", async () => {
    const store: Store = new Map();
    add(store, 1, 1500, "accounted");
    const { current, wire } = await read("expense", store, [1200], ["accounted"]);
    expect(wire).toEqual(["get 1200"]);
    expect(values(current, [1200])).toEqual([[1200, valuesOf(1200, "accounted")]]);
    expect([...current.keys()]).toEqual([U(1200)]);
  });

  it("two records, two states (as many as states)", async () => {
    const store: Store = new Map();
    add(store, 1, 3, "accounted");
    add(store, 4, 3, "paid");
    const { current, wire } = await read("expense", store, [1, 5], ["accounted", "paid"]);
    expect(sortedGets(wire)).toEqual(["get 1", "get 5"]);
    expect(wire).toHaveLength(2);
    expect(values(current, [1, 5])).toEqual([[1, valuesOf(1, "accounted")], [5, valuesOf(5, "paid")]]);
  });
});

describe("more records than states", () => {
  it("every record on the first pages: one list request per state, no GET, and only the records asked for are kept", async () => {
    const store: Store = new Map();
    add(store, 1, 5, "accounted");
    add(store, 6, 5, "paid");
    const { current, wire } = await read("expense", store, [2, 3, 7], ["accounted", "paid"]);
    expect(wire).toEqual(["list accounted 1", "list paid 1"]);
    expect([...current.keys()].sort()).toEqual([U(2), U(3), U(7)]);
    expect(values(current, [2, 3, 7])).toEqual([[2, valuesOf(2, "accounted")], [3, valuesOf(3, "accounted")], [7, valuesOf(7, "paid")]]);
  });

  it("three records past the first page, two pages left: the two pages, no GET", async () => {
    const store: Store = new Map();
    add(store, 1, 2500, "accounted");
    const { current, wire } = await read("expense", store, [1001, 2001, 2500], ["accounted"]);
    expect(wire).toEqual(["list accounted 1", "list accounted 2", "list accounted 3"]);
    expect(values(current, [1001, 2001, 2500])).toEqual([1001, 2001, 2500].map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("two records past the first page, two pages left (a tie): the first page, then two GETs", async () => {
    const store: Store = new Map();
    add(store, 1, 2500, "accounted");
    const { current, wire } = await read("expense", store, [1001, 2001], ["accounted"]);
    expect(wire.slice(0, 1)).toEqual(["list accounted 1"]);
    expect(sortedGets(wire)).toEqual(["get 1001", "get 2001"]);
    expect(wire).toHaveLength(3);
    expect(values(current, [1001, 2001])).toEqual([[1001, valuesOf(1001, "accounted")], [2001, valuesOf(2001, "accounted")]]);
  });

  it("records the first page shows are not read again: two shown, one past it and one page left is a tie, so one GET", async () => {
    const store: Store = new Map();
    add(store, 1, 2000, "accounted");
    const { current, wire } = await read("expense", store, [5, 6, 1500], ["accounted"]);
    expect(wire).toEqual(["list accounted 1", "get 1500"]);
    expect(values(current, [5, 6, 1500])).toEqual([5, 6, 1500].map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("the pages left are added up over the states: one page left in each of two states and two records missing is a tie", async () => {
    const store: Store = new Map();
    add(store, 1, 1500, "accounted");
    add(store, 2001, 1500, "paid");
    const { wire } = await read("expense", store, [1200, 3200, 5], ["accounted", "paid"]);
    expect(wire.slice(0, 2)).toEqual(["list accounted 1", "list paid 1"]);
    expect(sortedGets(wire)).toEqual(["get 1200", "get 3200"]);
    expect(wire).toHaveLength(4);
  });

  it("a state whose list is empty adds no page: one page left elsewhere and one record missing is still a tie", async () => {
    const store: Store = new Map();
    add(store, 1, 1500, "accounted");
    const { current, wire } = await read("expense", store, [5, 6, 1200], ["accounted", "paid"]);
    expect(wire.slice(0, 2).sort()).toEqual(["list accounted 1", "list paid 1"]);
    expect(wire.slice(2)).toEqual(["get 1200"]);
    expect(values(current, [5, 6, 1200])).toEqual([5, 6, 1200].map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("a state whose list is empty adds no page: one page left elsewhere and two records missing reads that page", async () => {
    const store: Store = new Map();
    add(store, 1, 1500, "accounted");
    const { current, wire } = await read("expense", store, [5, 1200, 1300], ["accounted", "paid"]);
    expect(wire).toEqual(["list accounted 1", "list paid 1", "list accounted 2"]);
    expect(values(current, [5, 1200, 1300])).toEqual([5, 1200, 1300].map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("a first page without a count counts as one page more: read when two records are missing, not when one is", async () => {
    const store: Store = new Map();
    add(store, 1, 1500, "accounted");
    const noCount = (state: string, page: number, url: URL): Reply | undefined => {
      return page === 1 ? listPage("expense", url, state, inState(store, state).slice(0, PAGE), null) : undefined;
    };
    const two = await read("expense", store, [5, 1200, 1300], ["accounted"], { list: noCount });
    expect(two.wire).toEqual(["list accounted 1", "list accounted 2"]);
    expect(values(two.current, [5, 1200, 1300])).toEqual([5, 1200, 1300].map((n) => [n, valuesOf(n, "accounted")]));
    const one = await read("expense", store, [5, 6, 1200], ["accounted"], { list: noCount });
    expect(one.wire).toEqual(["list accounted 1", "get 1200"]);
  });

  it.each(["expense", "allowance"] as const)("a record in another state than expected is not on the lists: it is read by GET with its own values (%ss, from their own lists and GETs)", async (resource) => {
    const store: Store = new Map();
    add(store, 1, 5, "accounted");
    store.set(9, "paid");
    const { current, wire } = await read(resource, store, [1, 2, 9], ["accounted"]);
    expect(wire).toEqual(["list accounted 1", "get 9"]);
    expect(values(current, [1, 2, 9])).toEqual([[1, valuesOf(1, "accounted")], [2, valuesOf(2, "accounted")], [9, valuesOf(9, "paid")]]);
  });
});

describe("what the service does not have, and lists that fail", () => {
  it("a record the service does not have (404) is null; the others keep their values", async () => {
    const store: Store = new Map();
    add(store, 1, 3, "accounted");
    const { current, wire } = await read("expense", store, [1, 77], ["accounted", "paid"]);
    expect(sortedGets(wire)).toEqual(["get 1", "get 77"]);
    expect(values(current, [1, 77])).toEqual([[1, valuesOf(1, "accounted")], [77, null]]);
  });

  it("any other refusal of a GET is thrown, not taken for a deleted record", async () => {
    const store: Store = new Map();
    add(store, 1, 3, "accounted");
    const failing = read("expense", store, [2], ["accounted"], { get: () => ({ status: 500, body: { status: 500, error: "Boom." }, headers: { "content-type": "application/json" } }) });
    await expect(failing).rejects.toMatchObject({ status: 500 });
  });

  it("a list whose second page repeats records of the first (records moved meanwhile) is dropped: what it did not show is read by GET", async () => {
    const store: Store = new Map();
    add(store, 1, 2500, "accounted");
    const moved = (state: string, page: number, url: URL): Reply | undefined => {
      if (page !== 2) return undefined;
      // The second page starts with the first page's last record: one record moved to an earlier place.
      return listPage("expense", url, state, inState(store, state).slice(PAGE - 1, 2 * PAGE - 1), 2500);
    };
    const ids = [5, 1500, 1600, 2400];
    const { current, wire } = await read("expense", store, ids, ["accounted"], { list: moved });
    expect(wire.slice(0, 1)).toEqual(["list accounted 1"]);
    expect(sortedGets(wire)).toEqual(["get 1500", "get 1600", "get 2400"]);
    expect(values(current, ids)).toEqual(ids.map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("a list that ignores the page asked for (the same page again) is dropped the same way", async () => {
    const store: Store = new Map();
    add(store, 1, 2500, "accounted");
    const same = (state: string, page: number, url: URL): Reply | undefined => {
      return page === 1 ? undefined : listPage("expense", url, state, inState(store, state).slice(0, PAGE), 2500);
    };
    const ids = [5, 1500, 1600, 2400];
    const { current, wire } = await read("expense", store, ids, ["accounted"], { list: same });
    expect(sortedGets(wire)).toEqual(["get 1500", "get 1600", "get 2400"]);
    expect(values(current, ids)).toEqual(ids.map((n) => [n, valuesOf(n, "accounted")]));
  });

  it("a list refused by the service (500) is thrown: no record is guessed and nothing is read by GET", async () => {
    const store: Store = new Map();
    add(store, 1, 5, "accounted");
    const failing = read("expense", store, [1, 2, 3], ["accounted", "paid"], {
      list: (state) => (state === "paid" ? { status: 500, body: { status: 500, error: "Boom." }, headers: { "content-type": "application/json" } } : undefined),
    });
    await expect(failing).rejects.toMatchObject({ status: 500 });
    expect(sentBefore).toHaveLength(2); // the two first pages, no GET
  });

  it.each(["expense", "allowance"] as const)("a run already cancelled sends nothing: the %ss' lists and GETs carry its signal", async (resource) => {
    const store: Store = new Map();
    add(store, 1, 5, "accounted");
    const controller = new AbortController();
    controller.abort();
    await expect(read(resource, store, [1, 2, 3], ["accounted"], {}, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(sentBefore).toEqual([]);
    await expect(read(resource, store, [1], ["accounted"], {}, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(sentBefore).toEqual([]);
  });

  it("a list dropped while another still has pages in flight: the read ends only once they are in, and nothing is asked for after it", async () => {
    const store: Store = new Map();
    add(store, 1, 2500, "accounted");
    add(store, 3001, 2500, "paid");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const list = async (state: string, page: number, url: URL): Promise<Reply | undefined> => {
      if (page === 1) return undefined;
      if (state === "paid") {
        await held;
        return undefined;
      }
      // The accounted list's later pages repeat its first: records moved meanwhile.
      return listPage("expense", url, state, inState(store, state).slice(0, PAGE), 2500);
    };
    // Two pages left in each list, five records the first pages do not show: both lists are read on.
    const ids = [5, 1500, 1600, 2400, 2450, 2460, 3005];
    const pending = read("expense", store, ids, ["accounted", "paid"], { list });
    const reading = watch(pending);
    // The first pages, the accounted pages 2 and 3, the paid pages 2 and 3 (held): pages go a timer task apart.
    await until(() => sentBefore.length >= 6);
    await settle(50);
    expect(reading.done).toBe(false);
    expect(sentBefore).toHaveLength(6);
    release();
    const { current, wire } = await pending;
    expect(wire.slice(0, 6).every((w) => w.startsWith("list "))).toBe(true);
    expect(wire.filter((w) => w.startsWith("list")).sort()).toEqual(["list accounted 1", "list accounted 2", "list accounted 3", "list paid 1", "list paid 2", "list paid 3"]);
    expect(sortedGets(wire)).toEqual(["get 1500", "get 1600", "get 2400", "get 2450", "get 2460"]);
    expect(values(current, ids)).toEqual(ids.map((n) => [n, valuesOf(n, n > 3000 ? "paid" : "accounted")]));
  });
});

describe("GETs at once", () => {
  const store: Store = new Map();
  add(store, 1, 12, "approved");
  const ids = Array.from({ length: 12 }, (_, i) => i + 1);

  it("at most the asked concurrency", async () => {
    const { wire, maxInFlight, current } = await read("expense", store, ids, ["accounted"], { list: () => ({ body: { count: 0, next: null, previous: null, results: [] } }) }, { concurrency: 3 });
    expect(sortedGets(wire)).toEqual(ids.map((n) => `get ${n}`));
    expect(maxInFlight).toBe(3);
    expect(values(current, ids)).toEqual(ids.map((n) => [n, valuesOf(n, "approved")]));
  });

  it("the client's concurrency when none is asked", async () => {
    const { maxInFlight } = await read("expense", store, ids, ["accounted"], { list: () => ({ body: { count: 0, next: null, previous: null, results: [] } }) }, { clientConcurrency: 4 });
    expect(maxInFlight).toBe(4);
  });
});
