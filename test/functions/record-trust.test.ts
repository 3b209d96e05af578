/**
 * Record functions trust no answer (issue 49): a GET answered for another record fills no cell and is not
 * cached, and a recalculation sends at most MAX_UNLISTED_GETS GETs for ids no list holds, the cells beyond it
 * answering at once. On the real sandbox (behind a real proxy that swaps answers, where one is needed), and on
 * a scripted service under fake timers for the rounds; every request counted, every cell asserted.
 */
import { Session, fetchTransport, memoryStorage, type Transport } from "../../src/api";
import { card, expense } from "../../src/functions/functions";
import { BATCH_WINDOW_MS, MAX_UNLISTED_GETS } from "../../src/functions/record-batch";
import { useSession } from "../../src/functions/runtime";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { card as cardBody, fakeTransport, type Script } from "../support/fake-transport";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { swappingProxy, type SwappingProxy } from "./swapping-proxy";

installCustomFunctionsStub();

type Shown = { value: unknown } | { error: string; message: string | undefined };
const settle = (p: Promise<unknown>): Promise<Shown> => p.then((value) => ({ value }), (e: FunctionError) => ({ error: e.code, message: e.message }));

const notFound: Shown = { error: "#N/A", message: "Not found: no such record, subsidiary, card or billing period for this enterprise." };
const capped: Shown = {
  error: "#N/A",
  message: `More than ${MAX_UNLISTED_GETS} ids in this recalculation were not found in the service's lists, so this one was not asked for: check the ids, or load the table instead.`,
};
const wrongRecord = (kind: string, asked: string, answered: string): Shown => ({
  error: "#N/A",
  message: `The service answered for another record: ${kind} ${asked} was asked, the answer is for "${answered}". Nothing was kept from it; Refresh data asks again.`,
});
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A fresh session (fresh cache) on `baseUrl` whose transport records every request's path and query. */
function connect(f: SandboxFixture, baseUrl: string, batching = true) {
  const requests: string[] = [];
  const transport: Transport = (request) => {
    const url = new URL(request.url);
    requests.push(`${url.pathname}${url.search}`);
    return fetchTransport(request);
  };
  const session = new Session(memoryStorage(), { transport, retry: { retries: 0 } });
  session.connect({ baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  useSession(session, { batching });
  return { session, requests };
}

beforeEach(() => useExcelProfile("office-2024"));
afterAll(() => useExcelProfile(DEFAULT_PROFILE));

describe("a GET answered for another record (a real proxy swapping the sandbox's answers)", () => {
  let f: SandboxFixture;
  let proxy: SwappingProxy;
  beforeEach(async () => {
    f = await withSandbox();
    proxy = await swappingProxy(f.sandbox.baseUrl);
  });
  afterEach(async () => {
    await proxy.close();
    await f.sandbox.close();
  });

  const getPath = (sub: string, id: string) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`;
  const keyOf = (id: string, sub: string) => JSON.stringify([proxy.baseUrl, f.enterprise.id, "EXPENSE", [id, sub]]);

  it.each([true, false])("fills no cell with the other record's values and keeps nothing (batching %s); asked again, the cell shows its own record", async (batching) => {
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub);
    expect(e[1].description).not.toBe(e[7].description);
    // GET e1 is answered with e7's answer, GET e3 with e8's.
    const swaps = new Map([[getPath(sub, e[1].id), getPath(sub, e[7].id)], [getPath(sub, e[3].id), getPath(sub, e[8].id)]]);
    proxy.route = (p) => swaps.get(p) ?? p;
    const { session, requests } = connect(f, proxy.baseUrl, batching);
    const asked = [0, 1, 2, 3, 4].map((i) => e[i]);
    const shown = await Promise.all(asked.map((x, i) => settle(expense(sub, x.id, i === 3 ? null : "description", invocation()))));
    expect(shown[0]).toEqual({ value: [[e[0].description]] });
    expect(shown[1]).toEqual(wrongRecord("expense", e[1].id, e[7].id));
    expect(shown[2]).toEqual({ value: [[e[2].description]] });
    expect(shown[3]).toEqual(wrongRecord("expense", e[3].id, e[8].id));
    expect(shown[4]).toEqual({ value: [[e[4].description]] });
    expect(requests).toHaveLength(5); // 5 calls: below a page's worth, one GET each
    expect(asked.map((x) => session.governor.peek(keyOf(x.id, sub)) !== undefined)).toEqual([true, false, true, false, true]);

    // The proxy mends its ways: the same cells ask again (nothing was cached for them) and show their own records.
    proxy.route = (p) => p;
    expect(await settle(expense(sub, e[1].id, "description", invocation()))).toEqual({ value: [[e[1].description]] });
    expect(await settle(expense(sub, e[3].id, "expense_number", invocation()))).toEqual({ value: [[e[3].expense_number]] });
    expect(requests).toHaveLength(7);
  });

  it("a GET after the list, swapped, is refused; the record it named still shows its own values from the list", async () => {
    const [sub, sub2] = f.enterprise.subsidiaries;
    const e = f.sandbox.store.expensesOf(sub);
    const stranger = f.sandbox.store.expensesOf(sub2)[0].id;
    // The list answers e0..e11; the call for another subsidiary's expense goes by GET, answered with e5's record.
    proxy.route = (p) => (p === getPath(sub, stranger) ? getPath(sub, e[5].id) : p);
    const { requests } = connect(f, proxy.baseUrl);
    const ids = [...e.slice(0, 12).map((x) => x.id), stranger];
    const shown = await Promise.all(ids.map((id) => settle(expense(sub, id, "state", invocation()))));
    expect(shown).toEqual([...e.slice(0, 12).map((x) => ({ value: [[x.state]] })), wrongRecord("expense", stranger, e[5].id)]);
    expect(requests).toEqual([`${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=1000`, getPath(sub, stranger)]);
  });

  it("an id typed in capitals, answered with the service's lower-case spelling of it, is the same record", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const x = f.sandbox.store.expensesOf(sub)[2];
    // A service matching ids in any case (the sandbox matches exactly): the proxy lowers the case it forwards.
    proxy.route = (p) => p.toLowerCase();
    connect(f, proxy.baseUrl);
    expect(await settle(expense(sub, x.id.toUpperCase(), "amount", invocation()))).toEqual({ value: [[x.amount]] });
  });
});

describe(`at most ${MAX_UNLISTED_GETS} GETs a recalculation for ids no list holds (the sandbox, requests counted)`, () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await withSandbox();
  });
  afterAll(() => f.sandbox.close());

  it(`${MAX_UNLISTED_GETS} + 5 unknown ids among listed ones: the list, exactly ${MAX_UNLISTED_GETS} GETs, 5 cells answered without a request; the next recalculation the same`, async () => {
    const sub = f.enterprise.subsidiaries[0];
    const listed = f.sandbox.store.expensesOf(sub).slice(0, 30);
    expect(f.sandbox.store.expensesOf(sub).length).toBeLessThanOrEqual(1000); // one page: the list is read whole
    const unknown = Array.from({ length: MAX_UNLISTED_GETS + 5 }, (_, i) => uuid(1000 + i));
    // The listed ids among the unknown ones, as in a column of ids: every 7th cell.
    const cells: { id: string; want: Shown | "capped" | "notFound" }[] = [];
    let u = 0;
    let l = 0;
    while (u < unknown.length || l < listed.length) {
      if (l < listed.length && (cells.length % 7 === 0 || u === unknown.length)) cells.push({ id: listed[l].id, want: { value: [[listed[l++].state]] } });
      else cells.push({ id: unknown[u], want: u++ < MAX_UNLISTED_GETS ? "notFound" : "capped" });
    }
    const expected = cells.map((c) => (c.want === "capped" ? capped : c.want === "notFound" ? notFound : c.want));
    const gets = unknown.slice(0, MAX_UNLISTED_GETS).map((id) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`);
    const page = `${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=1000`;

    const { requests } = connect(f, f.sandbox.baseUrl);
    for (const round of [1, 2]) {
      requests.length = 0;
      const shown = await Promise.all(cells.map((c) => settle(expense(sub, c.id, "state", invocation()))));
      cells.forEach((c, i) => expect([round, i, shown[i]]).toEqual([round, i, expected[i]]));
      // Round 2: the listed cells are cached; the unknown ones (errors are not kept) ask again, within a fresh cap.
      expect(requests).toEqual([page, ...gets]);
    }
  }, 60_000);

  it(`${MAX_UNLISTED_GETS} + 20 listed ids typed in capitals are answered from the list: one page, no GET, none capped (ids are UUIDs, one id in either case)`, async () => {
    const sub = f.enterprise.subsidiaries[0];
    const listed = f.sandbox.store.expensesOf(sub).slice(0, MAX_UNLISTED_GETS + 20);
    expect(listed.length).toBe(MAX_UNLISTED_GETS + 20);
    const { requests } = connect(f, f.sandbox.baseUrl);
    const shown = await Promise.all(listed.map((x) => settle(expense(sub, x.id.toUpperCase(), "state", invocation()))));
    expect(shown).toEqual(listed.map((x) => ({ value: [[x.state]] })));
    expect(requests).toEqual([`${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=1000`]);
  }, 60_000);

  it("a record the list holds but its GET must decide (malformed there) is not missing: past the cap, it still gets its GET and its error", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const bad = f.sandbox.store.expensesOf(sub)[40];
    const createdAt = bad.created_at;
    bad.created_at = "2026-13-45T00:00:00Z";
    try {
      const unknown = Array.from({ length: MAX_UNLISTED_GETS + 5 }, (_, i) => uuid(7000 + i));
      const { requests } = connect(f, f.sandbox.baseUrl);
      const shown = await Promise.all([...unknown, bad.id].map((id) => settle(expense(sub, id, "state", invocation()))));
      expect(shown).toEqual([
        ...unknown.map((_, i) => (i < MAX_UNLISTED_GETS ? notFound : capped)),
        { error: "#N/A", message: 'The service\'s answer for expense does not match the API: created_at: expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z (got "2026-13-45T00:00:00Z").' },
      ]);
      expect(requests).toEqual([
        `${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=1000`,
        ...[...unknown.slice(0, MAX_UNLISTED_GETS), bad.id].map((id) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`),
      ]);
    } finally {
      bad.created_at = createdAt;
    }
  }, 60_000);

  it("a subsidiary the service does not have (its list's 404) holds none of the ids: the cap applies", async () => {
    const sub = uuid(77);
    const ids = Array.from({ length: MAX_UNLISTED_GETS + 3 }, (_, i) => uuid(5000 + i));
    const { requests } = connect(f, f.sandbox.baseUrl);
    const shown = await Promise.all(ids.map((id) => settle(expense(sub, id, "state", invocation()))));
    expect(shown).toEqual(ids.map((_, i) => (i < MAX_UNLISTED_GETS ? notFound : capped)));
    expect(requests).toEqual([
      `${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=1000`,
      ...ids.slice(0, MAX_UNLISTED_GETS).map((id) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`),
    ]);
  }, 60_000);
});

describe("a list that fails after its first page does not say an id is missing (scale 4: 1,200 expenses, two pages)", () => {
  let f: SandboxFixture;
  let proxy: SwappingProxy;
  beforeAll(async () => {
    f = await withSandbox({ scale: 4 });
    proxy = await swappingProxy(f.sandbox.baseUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await f.sandbox.close();
  });

  it("its page 2 answered with the 404 of a subsidiary that does not exist: every call page 1 did not answer gets its GET, uncapped", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    expect(all).toHaveLength(1200);
    const list = `${f.prefix}/subsidiaries/${sub}/expenses/`;
    proxy.route = (p) => (p === `${list}?page=2&page_size=1000` ? `${f.prefix}/subsidiaries/${uuid(77)}/expenses/?page=2&page_size=1000` : p);
    const { requests } = connect(f, proxy.baseUrl);
    const onPage2 = all.slice(1000);
    const unknown = Array.from({ length: 10 }, (_, i) => uuid(9000 + i));
    const ids = [...onPage2.map((e) => e.id), ...unknown];
    const shown = await Promise.all(ids.map((id) => settle(expense(sub, id, "state", invocation()))));
    expect(shown).toEqual([...onPage2.map((e) => ({ value: [[e.state]] })), ...unknown.map(() => notFound)]);
    expect(requests).toEqual([`${list}?page=1&page_size=1000`, `${list}?page=2&page_size=1000`, ...ids.map((id) => `${list}${id}/`)]);
  }, 60_000);
});

describe("the cap's round, and lists that do not say an id is missing (fake timers, a scripted service)", () => {
  const listedIds = Array.from({ length: 30 }, (_, i) => uuid(100 + i));
  const later = Array.from({ length: 300 }, (_, i) => uuid(10_000 + i));
  type ListKind = "whole" | "no count" | "failing";
  /** Cards: the list (after 100 ms) holds listedIds; GETs answer after 100 ms, `later` ids exist but only by GET. */
  function service(list: ListKind) {
    const script: Script = (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/corporate-cards/")) {
        if (list === "failing") return { status: 500, body: { status: 500, error: "boom" }, delayMs: 100 };
        const next = list === "no count" ? `${url.origin}${url.pathname}?page=2&page_size=100` : null;
        return { body: { ...(list === "no count" ? {} : { count: listedIds.length }), next, previous: null, results: listedIds.map(cardBody) }, delayMs: 100 };
      }
      const id = url.pathname.split("/").at(-2)!;
      const exists = listedIds.includes(id) || later.includes(id);
      return exists ? { body: { ...cardBody(id), status: 200, error: "" }, delayMs: 100 } : { status: 404, body: { status: 404, error: "Not found." }, delayMs: 100 };
    };
    const fake = fakeTransport(script);
    const session = new Session(memoryStorage(), { transport: fake.transport, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: uuid(1), apiKey: "sk_test_cap" });
    useSession(session);
    const sent = () => fake.requests.map((r) => new URL(r.url).pathname.replace(`/public/v1/enterprises/${uuid(1)}`, ""));
    return { sent };
  }
  const ask = (ids: string[], log: Shown[][] = []) => {
    const out: Shown[] = [];
    log.push(out);
    return Promise.all(ids.map((id, i) => settle(card(id, "id", invocation())).then((s) => (out[i] = s))));
  };

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("cells over the cap answer as soon as the list has; a batch during the round's GETs shares its cap; the next round has its own", async () => {
    const { sent } = service("whole");
    const unknownA = Array.from({ length: MAX_UNLISTED_GETS + 50 }, (_, i) => uuid(20_000 + i));
    const shownA: Shown[][] = [];
    const a = ask([listedIds[0], ...unknownA, listedIds[1]], shownA);
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS + 100); // the window, then the list's answer
    // The list answered its two; the 50 over the cap answered with it, before any GET came back.
    expect(shownA[0].filter(Boolean)).toHaveLength(2 + 50);
    expect(shownA[0].slice(1 + MAX_UNLISTED_GETS, 1 + unknownA.length)).toEqual(unknownA.slice(MAX_UNLISTED_GETS).map(() => capped));
    expect(sent().filter((p) => p !== "/corporate-cards/")).toHaveLength(6); // the first GETs, 6 at a time

    // Another batch while the round's GETs run: its list is read, and its ids no list holds are over the cap.
    const unknownB = Array.from({ length: 20 }, (_, i) => uuid(30_000 + i));
    const b = ask(unknownB);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await b).toEqual(unknownB.map(() => capped));
    expect(await a).toEqual([{ value: [[listedIds[0]]] }, ...unknownA.map((_, i) => (i < MAX_UNLISTED_GETS ? notFound : capped)), { value: [[listedIds[1]]] }]);
    expect(sent()).toEqual(["/corporate-cards/", ...unknownA.slice(0, MAX_UNLISTED_GETS).map((id) => `/corporate-cards/${id}/`), "/corporate-cards/"]);

    // Everything settled: a new recalculation, a new cap.
    const unknownC = Array.from({ length: 20 }, (_, i) => uuid(40_000 + i));
    const c = ask(unknownC);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await c).toEqual(unknownC.map(() => notFound));
    expect(sent().slice(2 + MAX_UNLISTED_GETS)).toEqual(["/corporate-cards/", ...unknownC.map((id) => `/corporate-cards/${id}/`)]);
  });

  it("a call that joins the list after its page 1 is not counted as missing: its record may be on that page (it gets its GET past the cap)", async () => {
    // Cards: 300 in 3 pages, each page answering after 100 ms; GETs after 100 ms.
    const cards = Array.from({ length: 300 }, (_, i) => uuid(60_000 + i));
    const fake = fakeTransport((request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/corporate-cards/")) {
        const page = Number(url.searchParams.get("page"));
        return { body: { count: cards.length, next: null, previous: null, results: cards.slice((page - 1) * 100, page * 100).map(cardBody) }, delayMs: 100 };
      }
      const id = url.pathname.split("/").at(-2)!;
      return cards.includes(id) ? { body: { ...cardBody(id), status: 200, error: "" }, delayMs: 100 } : { status: 404, body: { status: 404, error: "Not found." }, delayMs: 100 };
    });
    const session = new Session(memoryStorage(), { transport: fake.transport, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: uuid(1), apiKey: "sk_test_cap" });
    useSession(session);
    const unknown = Array.from({ length: MAX_UNLISTED_GETS + 10 }, (_, i) => uuid(70_000 + i));
    const first = ask(unknown);
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS + 100 + 50); // page 1 read; pages 2 and 3 on their way
    const onPage1 = ask([cards[7]]);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(await onPage1).toEqual([{ value: [[cards[7]]] }]);
    expect(await first).toEqual(unknown.map((_, i) => (i < MAX_UNLISTED_GETS ? notFound : capped)));
    const gets = fake.requests.map((r) => new URL(r.url)).filter((u) => !u.pathname.endsWith("/corporate-cards/")).map((u) => u.pathname.split("/").at(-2));
    expect(gets).toEqual([...unknown.slice(0, MAX_UNLISTED_GETS), cards[7]]);
  });

  it("an answer naming another record that quotes the API key: the cell's message never carries the key", async () => {
    const key = "sk_live_0123456789abcdef0123456789abcdef";
    const fake = fakeTransport(() => ({ body: { ...cardBody(`${key}-not-the-card`), status: 200, error: "" }, delayMs: 100 }));
    const session = new Session(memoryStorage(), { transport: fake.transport, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: uuid(1), apiKey: key });
    useSession(session);
    const cell = ask([uuid(123)]);
    await jest.advanceTimersByTimeAsync(BATCH_WINDOW_MS + 100);
    const [shown] = await cell;
    expect(shown).toEqual({ error: "#N/A", message: expect.stringMatching(new RegExp(`^The service answered for another record: card ${uuid(123)} was asked, the answer is for "`)) });
    expect(JSON.stringify(shown)).not.toContain(key);
    expect(fake.requests).toHaveLength(1);
  });

  it.each<ListKind>(["no count", "failing"])("a list that says nothing of the rest (%s) caps nothing: every call it did not answer gets its GET", async (list) => {
    const { sent } = service(list);
    const ids = [...listedIds.slice(0, 5), ...later.slice(0, MAX_UNLISTED_GETS + 20)];
    const shown = ask(ids);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(await shown).toEqual(ids.map((id) => ({ value: [[id]] })));
    const answeredByList = list === "failing" ? [] : listedIds.slice(0, 5);
    expect(sent()).toEqual(["/corporate-cards/", ...ids.filter((id) => !answeredByList.includes(id)).map((id) => `/corporate-cards/${id}/`)]);
  });
});
