/**
 * Issue 44: a =SPEND list function's state and date arguments are checked once, by functions/args.ts from their
 * declarations, with the message a person reads in the cell. The query is made of the checked values (no schema
 * run over them again: that was a ZodError's second check) and the api's list takes them typed (no
 * InvalidRequestError's third). Counted on the one check of each: isIsoDate for a date, isListed for a state.
 * Untyped input (the form, a table's stored settings) is checked once by the schema instead.
 */
import { Session, memoryStorage } from "../../src/api";
import { isIsoDate } from "../../src/domain/timestamps";
import { isListed } from "../../src/api/listed-values";
import { allowances, expenses } from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { LoadParams, Query } from "../../src/sheets/resources";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { fakeTransport, pageOf, type FakeTransport } from "../support/fake-transport";

jest.mock("../../src/domain/timestamps", () => {
  const actual = jest.requireActual("../../src/domain/timestamps");
  return { ...actual, isIsoDate: jest.fn(actual.isIsoDate) };
});
jest.mock("../../src/api/listed-values", () => {
  const actual = jest.requireActual("../../src/api/listed-values");
  return { ...actual, isListed: jest.fn(actual.isListed) };
});

installCustomFunctionsStub();

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const dateChecks = jest.mocked(isIsoDate);
const stateChecks = jest.mocked(isListed);
const EXPENSE_STATES = ["draft", "pending", "approved", "accounted", "paid", "rejected"];
const ALLOWANCE_STATES = ["pending", "approved", "accounted", "paid", "rejected"];
const EXPENSE_EXPAND = ["cost_center", "category", "user", "approved_by", "fund", "fare"];

let fake: FakeTransport;
let queryParse: jest.SpyInstance;
let schemaParse: jest.SpyInstance;
/** Parses of parameters (a Query handed to Query.parse is passed through as it is: no check). */
const parses = () => [queryParse.mock.calls.filter(([input]) => !(input instanceof Query)).length, schemaParse.mock.calls.length];

beforeEach(() => {
  // Every list answers an empty page: no record's own dates or states are checked, only the arguments.
  fake = fakeTransport((request) => ({ body: pageOf(request.url, 0) }));
  const session = new Session(memoryStorage(), { transport: fake.transport, retry: { retries: 0 } });
  session.connect({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_one_check" });
  useSession(session);
  dateChecks.mockClear();
  stateChecks.mockClear();
  queryParse = jest.spyOn(Query, "parse");
  schemaParse = jest.spyOn(LoadParams, "parse");
});
afterEach(() => [queryParse, schemaParse].forEach((spy) => spy.mockRestore()));

const refusal = (promise: Promise<unknown>) =>
  promise.then(() => { throw new Error("expected #VALUE!"); }, (e: FunctionError) => [e.code, e.message]);
/** 2026-03-31 as Excel's serial. */
const MARCH_31 = Date.parse("2026-03-31T00:00:00Z") / 86_400_000 + 25569;

describe("a =SPEND list function checks each state and date argument once", () => {
  it("a good EXPENSES call: each date checked once, the state once, no schema parse, the filters sent as given", async () => {
    await expenses(ID, " Approved ", "2026-01-05", MARCH_31, null, invocation());
    expect(dateChecks.mock.calls).toEqual([["2026-01-05"], ["2026-03-31"]]);
    expect(stateChecks.mock.calls).toEqual([[EXPENSE_STATES, "approved"]]);
    expect(parses()).toEqual([0, 0]);
    const sent = new URL(fake.requests[0].url).searchParams;
    expect([sent.get("state"), sent.get("created_at_from"), sent.get("created_at_to")]).toEqual(["approved", "2026-01-05", "2026-03-31"]);
  });

  it("a good ALLOWANCES call: the state checked once, against the allowances' states", async () => {
    await allowances(ID, "PAID", null, invocation());
    expect(stateChecks.mock.calls).toEqual([[ALLOWANCE_STATES, "paid"]]);
    expect(parses()).toEqual([0, 0]);
    expect(new URL(fake.requests[0].url).searchParams.get("state")).toBe("paid");
  });

  it("a bad state is one check's error, the cell's message unchanged, and nothing is sent", async () => {
    expect(await refusal(expenses(ID, "payed", null, null, null, invocation())))
      .toEqual(["#VALUE!", 'state must be one of draft, pending, approved, accounted, paid, rejected; got "payed".']);
    expect(stateChecks).toHaveBeenCalledTimes(1);
    expect(parses()).toEqual([0, 0]);
    expect(fake.requests).toEqual([]);
  });

  it("a bad date is one check's error; a serial past Excel's last date is no date, refused in the cell", async () => {
    expect(await refusal(expenses(ID, null, "2026-02-30", null, null, invocation())))
      .toEqual(["#VALUE!", 'created_from must be an Excel date or text written YYYY-MM-DD; got "2026-02-30".']);
    expect(dateChecks.mock.calls).toEqual([["2026-02-30"]]);
    // The api no longer checks the date it is given: a serial JavaScript writes as year +010113 must stop here.
    expect(await refusal(expenses(ID, null, null, 3_000_000, null, invocation())))
      .toEqual(["#VALUE!", 'created_to must be an Excel date or text written YYYY-MM-DD; got "3000000".']);
    expect(fake.requests).toEqual([]);
  });
});

describe("a =SPEND expand argument: each value checked once, by the check the schema uses too", () => {
  it("a good EXPENSES expand: each value checked once (repeats dropped), no schema parse, sent as given", async () => {
    await expenses(ID, null, null, null, " User, category ,user", invocation());
    expect(stateChecks.mock.calls).toEqual([[EXPENSE_EXPAND, "user"], [EXPENSE_EXPAND, "category"], [EXPENSE_EXPAND, "user"]]);
    expect(parses()).toEqual([0, 0]);
    expect(new URL(fake.requests[0].url).searchParams.get("expand")).toBe("user,category");
  });

  it("a value not offered is one check's error, the cell's message unchanged, and nothing is sent", async () => {
    expect(await refusal(expenses(ID, null, null, null, "user,payee", invocation())))
      .toEqual(["#VALUE!", 'expand takes cost_center, category, user, approved_by, fund, fare (comma-separated); "payee" is not one of them.']);
    expect(stateChecks.mock.calls).toEqual([[EXPENSE_EXPAND, "user"], [EXPENSE_EXPAND, "payee"]]);
    expect(parses()).toEqual([0, 0]);
    expect(fake.requests).toEqual([]);
  });
});

describe("untyped parameters (the form, a table's stored settings) are checked once, by the schema", () => {
  const stored = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: ID };

  it("a date that is no calendar date, or a state not listed, is refused by the parse", () => {
    expect(() => Query.parse({ ...stored, createdTo: "2026-02-30" })).toThrow("createdTo must be a date written YYYY-MM-DD.");
    expect(() => Query.parse({ ...stored, state: "payed" })).toThrow();
    expect(Query.parse({ ...stored, createdFrom: "2026-02-28", state: "paid" }).params).toMatchObject({ createdFrom: "2026-02-28", state: "paid" });
  });

  it("a state and each expand value are checked by the same isListed a =SPEND argument's check asks, once each", () => {
    stateChecks.mockClear();
    expect(Query.parse({ ...stored, state: "paid", expand: ["user", "fund"] }).params).toMatchObject({ state: "paid", expand: ["user", "fund"] });
    expect(stateChecks.mock.calls).toEqual([[EXPENSE_STATES, "paid"], [EXPENSE_EXPAND, "user"], [EXPENSE_EXPAND, "fund"]]);
    expect(() => Query.parse({ ...stored, expand: ["user", "payee"] })).toThrow("expand must be one of cost_center, category, user, approved_by, fund, fare.");
  });
});
