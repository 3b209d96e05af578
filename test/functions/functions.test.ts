import { Session, memoryStorage, type RawRequest, type Transport } from "../../src/api";
import { allowance, allowances, card, cards, expense, expenses, movements } from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { currencyFormat, serialToDate } from "../../src/sheets";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { builtMetadata } from "../support/functions-metadata";

installCustomFunctionsStub();

let f: SandboxFixture;
let session: Session;
let requests: string[];

async function connect(options: Parameters<typeof withSandbox>[0] = {}, key?: string, deadlineMs?: number) {
  f = await withSandbox(options);
  requests = [];
  session = new Session(memoryStorage(), { onRequest: (e) => requests.push(`${e.method} ${e.url}`), retry: { retries: 0 } });
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: key ?? f.enterprise.api_key });
  useSession(session, { deadlineMs });
}
afterEach(() => f?.sandbox.close());
// Plain values unless a test says otherwise: Office 2024 takes no data types from a function (CustomFunctionsRuntime 1.3).
beforeEach(() => useExcelProfile("office-2024"));
afterAll(() => useExcelProfile(DEFAULT_PROFILE));

/** A session whose service never answers (a request ends only when aborted); returns the requests sent. */
function connectSilent(deadlineMs: number): RawRequest[] {
  const sent: RawRequest[] = [];
  const silent: Transport = (request) => {
    sent.push(request);
    return new Promise((_resolve, reject) => request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
  };
  session = new Session(memoryStorage(), { transport: silent, retry: { retries: 0 } });
  session.connect({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_deadline" });
  useSession(session, { deadlineMs });
  return sent;
}

/** A UUID-shaped id of its own for each `n` (the functions refuse anything else before a request). */
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error("expected a failure"); }, (e) => e as FunctionError);

describe("the list functions spill a header row and the tables' columns and types", () => {
  beforeEach(() => connect());

  it("SPEND.EXPENSES: every expense, dates as ISO text (no data types: Office 2024), numbers as numbers, hostile text as text", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const grid = await expenses(sub, null, null, null, null, invocation());
    const all = f.sandbox.store.expensesOf(sub);
    expect(grid).toHaveLength(all.length + 1);
    expect(grid[0].slice(0, 4)).toEqual(["Expense ID", "Expense #", "Date", "Description"]);
    expect(grid[0]).not.toContain("Sync status");
    expect(grid[1][0]).toBe(all[0].id);
    expect(grid[1][2]).toBe(all[0].date);
    expect(grid[1][grid[0].indexOf("Amount")]).toBe(all[0].amount);
    expect(grid.map((r) => r[3])).toContain('=HYPERLINK("http://x","y")');
  });

  it("SPEND.EXPENSES with state, a created range (Excel dates or text) and expand", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const all = f.sandbox.store.expensesOf(sub);
    const days = all.map((e) => e.created_at.slice(0, 10)).sort();
    const fromSerial = Date.parse(`${days[30]}T00:00:00Z`) / 86_400_000 + 25569;
    const grid = await expenses(sub, "Approved", fromSerial, days[200], "category,user", invocation());
    const expected = all.filter((e) => e.state === "approved" && e.created_at.slice(0, 10) >= days[30] && e.created_at.slice(0, 10) <= days[200]);
    expect(grid.slice(1).map((r) => r[0])).toEqual(expected.map((e) => e.id));
    expect(grid[0]).toEqual(expect.arrayContaining(["Category", "Employee", "Employee email"]));
  });

  it("SPEND.CARDS, SPEND.MOVEMENTS and SPEND.ALLOWANCES with their optional arguments", async () => {
    const cardsGrid = await cards("user,bank", invocation());
    expect(cardsGrid.length - 1).toBe(f.sandbox.store.cardsOf(f.enterprise.id).length);
    expect(cardsGrid[0]).toEqual(expect.arrayContaining(["Card holder", "Bank"]));

    const [c] = f.enterprise.cards;
    const period = c.billing_periods[0];
    const all = f.sandbox.store.movementsOf(period);
    const fees = await movements(c.id, period, "associated_fee", null, invocation());
    expect(fees.length - 1).toBe(all.filter((m) => m.type === "associated_fee").length);
    const reconciled = await movements(c.id, period, null, true, invocation());
    expect(reconciled.length - 1).toBe(all.filter((m) => m.reconciliation).length);
    expect(new Set(reconciled.slice(1).map((r) => r[reconciled[0].indexOf("Reconciled")]))).toEqual(new Set(["Yes"]));

    const sub = f.enterprise.subsidiaries[0];
    const paid = await allowances(sub, "paid", "beneficiary", invocation());
    expect(paid.length - 1).toBe(f.sandbox.store.allowancesOf(sub).filter((a) => a.state === "paid").length);
    expect(paid[0]).toContain("Beneficiary");
  });
});

describe("the single-record functions", () => {
  beforeEach(() => connect());

  it("give the record as a header row and its row, or one field by key or header", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub)[0];
    const whole = await expense(sub, e.id, null, invocation());
    expect(whole).toHaveLength(2);
    expect(whole[1][0]).toBe(e.id);
    // One field is a 1x1 grid: the metadata declares every function a matrix (see "declared results" below).
    expect(await expense(sub, e.id, "state", invocation())).toEqual([[e.state]]);
    expect(await expense(sub, e.id, "Amount", invocation())).toEqual([[e.amount]]);
    const a = f.sandbox.store.allowancesOf(sub)[0];
    expect(await allowance(sub, a.id, "allowance_number", invocation())).toEqual([[a.allowance_number]]);
    const c = f.sandbox.store.cardsOf(f.enterprise.id)[0];
    expect(await card(c.id, "last_four_digits", invocation())).toEqual([[c.last_four_digits]]);
  });

  it("declared results: what each function returns has the shape functions.json declares for it", async () => {
    const metadata = JSON.parse((await builtMetadata()).metadataJson) as {
      functions: { id: string; result: { dimensionality?: string } }[];
    };
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub)[0];
    const a = f.sandbox.store.allowancesOf(sub)[0];
    const c = f.sandbox.store.cardsOf(f.enterprise.id)[0];
    const calls: Record<string, (() => Promise<unknown>)[]> = {
      CARDS: [() => cards(null, invocation())],
      MOVEMENTS: [() => movements(c.id, f.sandbox.store.billingPeriodsOf(c.id)[0].id, null, null, invocation())],
      ALLOWANCES: [() => allowances(sub, null, null, invocation())],
      EXPENSES: [() => expenses(sub, null, null, null, null, invocation())],
      CARD: [() => card(c.id, null, invocation()), () => card(c.id, "last_four_digits", invocation())],
      ALLOWANCE: [() => allowance(sub, a.id, null, invocation()), () => allowance(sub, a.id, "state", invocation())],
      EXPENSE: [() => expense(sub, e.id, null, invocation()), () => expense(sub, e.id, "amount", invocation())],
    };
    expect(metadata.functions.map((fn) => fn.id).sort()).toEqual(Object.keys(calls).sort());
    for (const fn of metadata.functions) {
      const matrix = fn.result.dimensionality === "matrix";
      for (const call of calls[fn.id]) {
        const value = await call();
        const isGrid = Array.isArray(value) && value.length > 0 && value.every((row) => Array.isArray(row) && row.length > 0);
        expect([fn.id, isGrid]).toEqual([fn.id, matrix]);
      }
    }
  });

  it("with data types: dates and amounts come back as numbers carrying their format, a record as an entity", async () => {
    useExcelProfile("m365-current");
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub)[0];
    const grid = await expenses(sub, null, null, null, null, invocation());
    const header = grid[0] as string[];
    expect(header.slice(0, 3)).toEqual(["Expense ID", "Expense #", "Date"]);
    expect(grid[1][header.indexOf("Expense ID")]).toBe(e.id);
    expect(grid[1][header.indexOf("Date")]).toEqual({ type: "Double", basicValue: expect.any(Number), numberFormat: "yyyy-mm-dd" });
    expect(serialToDate((grid[1][header.indexOf("Date")] as { basicValue: number }).basicValue)).toBe(e.date);
    // An amount carries its currency's decimals (CLP none, USD two).
    expect(grid[1][header.indexOf("Amount")]).toEqual({ type: "Double", basicValue: e.amount, numberFormat: currencyFormat(e.currency) });
    expect(grid.map((r) => r[header.indexOf("Description")])).toContain('=HYPERLINK("http://x","y")');

    const [[entity]] = await expense(sub, e.id, null, invocation());
    expect(entity).toMatchObject({ type: "Entity", text: `Expense ${e.expense_number}` });
    expect(entity.properties["Expense ID"]).toEqual({ type: "String", basicValue: e.id });
    expect(entity.properties.Amount).toEqual({ type: "Double", basicValue: e.amount, numberFormat: currencyFormat(e.currency) });
    expect(entity.properties.State).toEqual({ type: "String", basicValue: e.state });
    expect(await expense(sub, e.id, "amount", invocation())).toEqual([[{ type: "Double", basicValue: e.amount, numberFormat: currencyFormat(e.currency) }]]);
    const withUsd = f.sandbox.store.expensesOf(sub).find((x) => x.usd_amount !== null && x.currency !== "USD")!;
    expect(await expense(sub, withUsd.id, "usd_amount", invocation())).toEqual([[{ type: "Double", basicValue: withUsd.usd_amount, numberFormat: "#,##0.00" }]]);
    const c = f.sandbox.store.cardsOf(f.enterprise.id)[0];
    expect((await card(c.id, null, invocation()))[0][0]).toMatchObject({ type: "Entity", text: `Card ${c.last_four_digits}` });

    // Without data types (an older Excel): the same call gives plain values.
    useExcelProfile("office-2024");
    const plain = await expense(sub, e.id, null, invocation());
    expect(plain[0][0]).toBe("Expense ID");
    expect(plain[1][plain[0].indexOf("Amount")]).toBe(e.amount);
  });

  it("with data types, every amount carries its currency's ISO decimals: COP two, KWD three, a CLP allowance's converted amount none, 10.005 USD three", async () => {
    useExcelProfile("m365-current");
    const subIn = (currency: string) => f.sandbox.store.subsidiariesOf(f.enterprise.id).find((s) => s.currency === currency)!.id;
    const formatOf = (grid: unknown[][], header: string, row = 1) => (grid[row][(grid[0] as string[]).indexOf(header)] as { numberFormat?: string }).numberFormat;
    for (const [currency, format] of [["COP", "#,##0.00"], ["KWD", "#,##0.000"]]) {
      const sub = subIn(currency);
      const all = f.sandbox.store.expensesOf(sub);
      const grid = await expenses(sub, null, null, null, null, invocation());
      expect(all.map((e, i) => [e.currency, formatOf(grid, "Amount", i + 1), formatOf(grid, "Subsidiary amount", i + 1)]))
        .toEqual(all.map((e) => [e.currency, e.currency === currency ? format : "#,##0.00", format]));
      const e = all.find((x) => x.currency === currency)!;
      const [[entity]] = await expense(sub, e.id, null, invocation());
      expect([entity.properties.Amount, entity.properties["Net amount"]]).toEqual([
        { type: "Double", basicValue: e.amount, numberFormat: format }, { type: "Double", basicValue: e.net_amount, numberFormat: format },
      ]);
    }

    // An allowance of the CLP subsidiary converted from USD: its converted amount in CLP, named beside it.
    const clpSub = subIn("CLP");
    const a = f.sandbox.store.allowancesOf(clpSub).find((x) => x.currency === "USD")!;
    const grid = await allowances(clpSub, null, null, invocation());
    const row = grid.findIndex((r) => r[0] === a.id);
    expect([formatOf(grid, "Amount", row), formatOf(grid, "Converted amount", row), grid[row][grid[0].indexOf("Converted currency")]]).toEqual(["#,##0.00", "#,##0", "CLP"]);
    const [[card]] = await allowance(clpSub, a.id, null, invocation());
    expect([card.properties["Converted amount"], card.properties["Converted currency"]])
      .toEqual([{ type: "Double", basicValue: a.converted_amount, numberFormat: "#,##0" }, { type: "String", basicValue: "CLP" }]);
    expect(await allowance(clpSub, a.id, "converted_amount", invocation())).toEqual([[{ type: "Double", basicValue: a.converted_amount, numberFormat: "#,##0" }]]);

    // A figure finer than its currency: its format widened, in a spill, an entity and a single field alike.
    const usdSub = subIn("USD");
    const odd = f.sandbox.store.expensesOf(usdSub).find((x) => x.currency === "USD")!;
    odd.amount = 10.005;
    const spill = await expenses(usdSub, null, null, null, null, invocation());
    expect(formatOf(spill, "Amount", spill.findIndex((r) => r[0] === odd.id))).toBe("#,##0.000");
    expect((await expense(usdSub, odd.id, null, invocation()))[0][0].properties.Amount).toEqual({ type: "Double", basicValue: 10.005, numberFormat: "#,##0.000" });
    expect(await expense(usdSub, odd.id, "amount", invocation())).toEqual([[{ type: "Double", basicValue: 10.005, numberFormat: "#,##0.000" }]]);
  });

  it("formula value preview answers from the cache only, and isInValuePreview \"false\" is a normal calculation", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const preview = { isInValuePreview: "true" } as CustomFunctions.Invocation;
    const normal = { isInValuePreview: "false" } as CustomFunctions.Invocation;
    expect((await failure(cards(null, preview))).code).toBe("#N/A");
    expect(requests).toEqual([]);
    const grid = await cards(null, normal);
    expect(requests).toHaveLength(1);
    expect(await cards(null, preview)).toEqual(grid);
    expect(requests).toHaveLength(1);
    expect((await expenses(sub, null, null, null, null, normal)).length).toBeGreaterThan(1);
  });
});

describe("errors say which argument and what is allowed, or what went wrong", () => {
  it("bad arguments give #VALUE! without calling the service", async () => {
    await connect();
    const sub = f.enterprise.subsidiaries[0];
    const cases: [Promise<unknown>, string][] = [
      [expenses(sub, "payed", null, null, null, invocation()), 'state must be one of draft, pending, approved, accounted, paid, rejected; got "payed".'],
      [expenses("", null, null, null, null, invocation()), "subsidiary_id is required."],
      [expenses(sub, null, "31/12/2026", null, null, invocation()), 'created_from must be an Excel date or text written YYYY-MM-DD; got "31/12/2026".'],
      [expenses(sub, null, "2026-10-01", "2026-09-01", null, invocation()), "created_from (2026-10-01) is after created_to (2026-09-01)."],
      [allowances(sub, null, "beneficiary,owner", invocation()), 'expand takes beneficiary, allowance_segments, documents (comma-separated); "owner" is not one of them.'],
      [movements(uuid(1), uuid(2), null, "maybe", invocation()), 'reconciled must be TRUE or FALSE; got "maybe".'],
      [expense(sub, uuid(3), "colour", invocation()), expect.stringMatching(/^field must be one of id, expense_number, date, /) as unknown as string],
    ];
    // Every call is handled at once: one that fails otherwise must fail this test, not end jest's process.
    const failures = await Promise.all(cases.map(([call]) => failure(call)));
    expect(failures).toEqual(cases.map(([, message]) => new FunctionError("#VALUE!", message)));
    expect(requests).toEqual([]);
  });

  it("a refused key is #VALUE! with the refusal; a missing record is #N/A", async () => {
    await connect({}, "wrong-key");
    const sub = f.enterprise.subsidiaries[0];
    const refused = await failure(expenses(sub, null, null, null, null, invocation()));
    expect(refused.code).toBe("#VALUE!");
    expect(refused.message).toMatch(/^The API key was refused for enterprise /);
    expect(refused.message).not.toContain("wrong-key");
    session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    const missing = await failure(expense(sub, "00000000-0000-4000-8000-000000000000", null, invocation()));
    expect(missing).toEqual(new FunctionError("#N/A", "Not found: no such record, subsidiary, card or billing period for this enterprise."));
  });

  it("not connected on this device: #VALUE! that says where to connect", async () => {
    f = await withSandbox();
    useSession(new Session(memoryStorage()));
    expect(await failure(cards(null, invocation()))).toEqual(
      new FunctionError("#VALUE!", "Not connected: open the Spend Sync taskpane and connect to the service first."));
  });

  it("a slow service turns into #N/A at the deadline, never an eternal #BUSY!", async () => {
    f = await withSandbox(); // closed by afterEach like the others; the service here never answers
    jest.useFakeTimers();
    try {
      const sent = connectSilent(300);
      let settled = false;
      const slow = failure(cards(null, invocation())).finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(299);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      expect(await slow).toEqual(new FunctionError("#N/A", "The service could not be reached: no answer within 300 ms. Try again with Refresh data."));
      // One request, abandoned at the deadline rather than left running.
      expect(sent).toHaveLength(1);
      expect(sent[0].signal.aborted).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("distinct calls beyond the governor's cap", () => {
  it("wait their turn, and their deadline counts from when they are sent, not from when they were asked", async () => {
    f = await withSandbox();
    jest.useFakeTimers();
    try {
      const sent = connectSilent(300);
      const settled: number[] = [];
      const calls = Array.from({ length: 7 }, (_, i) => failure(expenses(uuid(i), null, null, null, null, invocation())).finally(() => settled.push(i)));
      await jest.advanceTimersByTimeAsync(0);
      expect(sent).toHaveLength(6);
      await jest.advanceTimersByTimeAsync(300);
      expect(settled.sort()).toEqual([0, 1, 2, 3, 4, 5]);
      expect(sent).toHaveLength(7);
      await jest.advanceTimersByTimeAsync(299);
      expect(settled).toHaveLength(6);
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toHaveLength(7);
      expect((await calls[6]).message).toBe("The service could not be reached: no answer within 300 ms. Try again with Refresh data.");
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("the request governor", () => {
  beforeEach(() => connect());

  it("50 concurrent identical calls make one set of requests; the cache answers recalculation; Refresh data clears it", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const results = await Promise.all(Array.from({ length: 50 }, () => expenses(sub, "approved", null, null, null, invocation())));
    expect(requests).toHaveLength(1); // one page of up to 1000
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    await expenses(sub, " APPROVED ", null, null, null, invocation()); // same arguments, other spelling
    expect(requests).toHaveLength(1);
    session.governor.clear();
    await expenses(sub, "approved", null, null, null, invocation());
    expect(requests).toHaveLength(2);
  });

  it("formula value preview never calls the service: cached value or #N/A", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const preview = await failure(allowances(sub, null, null, invocation(true)));
    expect(preview).toEqual(new FunctionError("#N/A", "Formula preview does not call the service: press Enter to load."));
    expect(requests).toEqual([]);
    const loaded = await allowances(sub, null, null, invocation());
    expect(await allowances(sub, null, null, invocation(true))).toEqual(loaded);
    expect(requests).toHaveLength(1);
  });

  it("the cache time is the user's: 0 minutes means every call asks the service", async () => {
    session.setCacheMinutes(0);
    await cards(null, invocation());
    await cards(null, invocation());
    expect(requests).toHaveLength(2);
  });
});

describe("hostile answers are bounded for the functions too (issue 25)", () => {
  /** A session whose service answers every request with `text`. */
  function connectAnswering(text: string) {
    const answering: Transport = async () => ({ status: 200, headers: new Headers(), text });
    session = new Session(memoryStorage(), { transport: answering, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_hostile_fn" });
    useSession(session);
  }

  it("SPEND.EXPENSES on a page of 10^5 records when 1,000 were asked for: #N/A saying so, nothing parsed", async () => {
    connectAnswering(`{"count":null,"next":null,"previous":null,"results":[${new Array(100_000).fill("{}").join(",")}]}`);
    const error = await failure(expenses(uuid(1), null, null, null, null, invocation()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe("Page 1 of expenses holds more than 1,000 records, the page size asked for: the service ignores page_size. It was refused without being read. Loading stopped.");
  });

  it("SPEND.EXPENSE on a record holding 10^5 values: #N/A saying so", async () => {
    connectAnswering(`{"id":"${uuid(2)}","approved_by":[${new Array(100_000).fill("{}").join(",")}]}`);
    const error = await failure(expense(uuid(1), uuid(2), null, invocation()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^The service's answer for expense holds more than 2,112 values, more than a record needs/);
  });

  it("a malformed record fails a spilled list, naming it: a grid has no place for a note, and a wrong value would pass unmarked", async () => {
    await connect();
    const sub = f.enterprise.subsidiaries[0];
    f.sandbox.store.expensesOf(sub)[7].created_at = "2026-13-45T00:00:00Z";
    const error = await failure(expenses(sub, null, null, null, null, invocation()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe('The service\'s answer for expenses (page 1) does not match the API: results[7].created_at: expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z (got "2026-13-45T00:00:00Z").');
  });
});
