/**
 * What each =SPEND.* function makes of its own arguments: the argument a #VALUE! names, a date range the wrong
 * way round, a field by key or by header in any case, an omitted field, and results that differ in one
 * argument never shared (the governor's cache is keyed by every argument).
 */
import { Session, memoryStorage, type Transport } from "../../src/api";
import { allowance, allowances, card, cards, expense, expenses, movements } from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

installCustomFunctionsStub();

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const refusal = (promise: Promise<unknown>) =>
  promise.then(() => { throw new Error("expected #VALUE!"); }, (e: FunctionError) => [e.code, e.message]);

describe("a bad argument is #VALUE! naming that argument, before any request", () => {
  beforeAll(() => {
    const session = new Session(memoryStorage());
    session.connect({ baseUrl: "http://127.0.0.1:9/v1", enterpriseId: ID, apiKey: "k".repeat(32) });
    useSession(session);
  });

  it("each optional argument of each list function", async () => {
    expect(await refusal(cards("bank,cash", invocation()))).toEqual(["#VALUE!", 'expand takes bank, user (comma-separated); "cash" is not one of them.']);
    expect(await refusal(movements(ID, ID, "fees", null, invocation())))
      .toEqual(["#VALUE!", 'type must be one of payment, expense, associated_fee, other_fee; got "fees".']);
    expect(await refusal(movements(ID, ID, null, "sometimes", invocation()))).toEqual(["#VALUE!", 'reconciled must be TRUE or FALSE; got "sometimes".']);
    expect(await refusal(allowances(ID, "draft", null, invocation())))
      .toEqual(["#VALUE!", 'state must be one of pending, approved, accounted, paid, rejected; got "draft".']);
    expect(await refusal(allowances(ID, null, "fund", invocation())))
      .toEqual(["#VALUE!", 'expand takes beneficiary, allowance_segments, documents (comma-separated); "fund" is not one of them.']);
    expect(await refusal(expenses(ID, null, "yesterday", null, null, invocation())))
      .toEqual(["#VALUE!", 'created_from must be an Excel date or text written YYYY-MM-DD; got "yesterday".']);
    expect(await refusal(expenses(ID, null, null, "tomorrow", null, invocation())))
      .toEqual(["#VALUE!", 'created_to must be an Excel date or text written YYYY-MM-DD; got "tomorrow".']);
    expect(await refusal(expenses(ID, null, null, null, "beneficiary", invocation())))
      .toEqual(["#VALUE!", 'expand takes cost_center, category, user, approved_by, fund, fare (comma-separated); "beneficiary" is not one of them.']);
  });

  it("each id of each function", async () => {
    const notAnId = (name: string) => `${name} "1a2b3c4d" is not an id: an id is a UUID of 36 characters, like 3f2504e0-4f89-41d3-9a0c-0305e82c3301. ` +
      "Table and sheet names show only an id's first 8 characters: copy the whole id from an ID column or the taskpane.";
    const cases: [Promise<unknown>, string][] = [
      [movements("1a2b3c4d", ID, null, null, invocation()), "card_id"],
      [movements(ID, "1a2b3c4d", null, null, invocation()), "billing_period_id"],
      [allowances("1a2b3c4d", null, null, invocation()), "subsidiary_id"],
      [expenses("1a2b3c4d", null, null, null, null, invocation()), "subsidiary_id"],
      [card("1a2b3c4d", null, invocation()), "card_id"],
      [allowance("1a2b3c4d", ID, null, invocation()), "subsidiary_id"],
      [allowance(ID, "1a2b3c4d", null, invocation()), "allowance_id"],
      [expense("1a2b3c4d", ID, null, invocation()), "subsidiary_id"],
      [expense(ID, "1a2b3c4d", null, invocation()), "expense_id"],
    ];
    for (const [call, name] of cases) expect(await refusal(call)).toEqual(["#VALUE!", notAnId(name)]);
  });

  it("a created range the wrong way round is refused with both dates; one day (from = to) is a range", async () => {
    expect(await refusal(expenses(ID, null, "2026-03-02", "2026-03-01", null, invocation())))
      .toEqual(["#VALUE!", "created_from (2026-03-02) is after created_to (2026-03-01)."]);
  });
});

describe("against the sandbox", () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await withSandbox();
    const session = new Session(memoryStorage(), { retry: { retries: 0 } });
    session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    useSession(session);
    useExcelProfile("office-2024");
  });
  afterEach(() => f.sandbox.close());
  afterAll(() => useExcelProfile(DEFAULT_PROFILE));

  it("one day is a range: created_from = created_to gives that day's expenses", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const day = f.sandbox.store.expensesOf(sub)[0].created_at.slice(0, 10);
    const grid = await expenses(sub, null, day, day, null, invocation());
    expect(grid.slice(1).map((r) => r[0])).toEqual(f.sandbox.store.expensesOf(sub).filter((e) => e.created_at.slice(0, 10) === day).map((e) => e.id));
  });

  it("calls that differ only in expand, state or subsidiary each get their own result, not a cached one", async () => {
    const plain = await cards(null, invocation());
    const withUser = await cards("user", invocation());
    expect(plain[0]).not.toContain("Card holder");
    expect(withUser[0]).toContain("Card holder");

    const [sub, other] = f.enterprise.subsidiaries;
    const all = await allowances(sub, null, null, invocation());
    const paid = await allowances(sub, "paid", null, invocation());
    const withBeneficiary = await allowances(sub, null, "beneficiary", invocation());
    const ofOther = await allowances(other, null, null, invocation());
    expect(all.length - 1).toBe(f.sandbox.store.allowancesOf(sub).length);
    expect(paid.length - 1).toBe(f.sandbox.store.allowancesOf(sub).filter((a) => a.state === "paid").length);
    expect(paid.length).toBeLessThan(all.length);
    expect(withBeneficiary[0]).toContain("Beneficiary");
    expect(all[0]).not.toContain("Beneficiary");
    expect(ofOther.slice(1).map((r) => r[0])).toEqual(f.sandbox.store.allowancesOf(other).map((a) => a.id));
  });

  it("a field by its key or its header, in any case and with spaces around it; an omitted or empty field gives the whole record", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub)[0];
    const whole = await expense(sub, e.id, null, invocation());
    const state = whole[1][whole[0].indexOf("State")];
    for (const field of ["state", "STATE", "  State  ", "State"]) expect(await expense(sub, e.id, field, invocation())).toEqual([[state]]);
    const paidAtHeader = whole[0].find((h: string) => /paid at/i.test(h))!;
    expect(await expense(sub, e.id, paidAtHeader.toUpperCase(), invocation())).toEqual([[whole[1][whole[0].indexOf(paidAtHeader)]]]);
    for (const omitted of [undefined, null, "", "   "]) expect(await expense(sub, e.id, omitted, invocation())).toEqual(whole);
    expect(await refusal(expense(sub, e.id, "stat", invocation()))).toEqual(["#VALUE!", expect.stringMatching(/^field must be one of id, .*; got "stat"\.$/)]);
  });
});

describe("at the deadline every function's request is abandoned (aborted), not left running", () => {
  const SUB = "00000000-0000-4000-8000-000000000001";
  const REC = "00000000-0000-4000-8000-000000000002";

  /** A service that never answers: a request ends only when aborted. Returns the requests sent. */
  function connectSilent(batching: boolean): { signal: AbortSignal; path: string }[] {
    const sent: { signal: AbortSignal; path: string }[] = [];
    const silent: Transport = (request) => {
      sent.push({ signal: request.signal, path: new URL(request.url).pathname });
      return new Promise((_resolve, reject) => request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    };
    const session = new Session(memoryStorage(), { transport: silent, retry: { retries: 0 } });
    session.connect({ baseUrl: "https://spend.example", enterpriseId: ID, apiKey: "sk_test_deadline" });
    useSession(session, { deadlineMs: 300, batching });
    return sent;
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const calls: [string, () => Promise<unknown>][] = [
    ["SPEND.CARDS", () => cards(null, invocation())],
    ["SPEND.MOVEMENTS", () => movements(SUB, REC, null, null, invocation())],
    ["SPEND.ALLOWANCES", () => allowances(SUB, null, null, invocation())],
    ["SPEND.EXPENSES", () => expenses(SUB, null, null, null, null, invocation())],
    ["SPEND.EXPENSE", () => expense(SUB, REC, null, invocation())],
  ];
  for (const batching of [true, false]) {
    for (const [name, call] of calls) {
      it(`${name}${batching ? "" : " unbatched"}`, async () => {
        const sent = connectSilent(batching);
        const outcome = call().then(() => "answered", (e: FunctionError) => e.message);
        await jest.advanceTimersByTimeAsync(1000);
        expect(await outcome).toBe("The service could not be reached: no answer within 300 ms. Try again with Refresh data.");
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.map((r) => [r.path, r.signal.aborted])).toEqual(sent.map((r) => [r.path, true]));
      });
    }
  }
});
