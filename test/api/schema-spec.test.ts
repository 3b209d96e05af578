/**
 * The schemas follow the spec to the letter: lenient where it says "not shown" (the expanded bank, a document
 * entry, fund / approved_by / fare, a foreign amount: kept whole, nothing required), strict where it types or
 * enumerates (timestamps, dates, `state`, movement `type`). An unlisted enumerated value does not fail a load:
 * the record loads with the value as sent and is marked on a side channel, never as a field.
 */
import {
  ALLOWANCE_EXPAND, SchemaError, SpendClient, getAllowance, getExpense, hasUnknownValues, isTimestamp, listAllowances, listCards, listExpenses,
  listMovements, unknownValuesOf, updateAllowance,
} from "../../src/api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../../src/domain";
import { card, fakeTransport } from "../support/fake-transport";
import { U, allowance, expense } from "./helpers/records";

const money = (amount: number) => ({ amount, currency: "CLP" });


function movement(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: U(n), amount: money(5), description: "Fee", transaction_date: "2026-03-04", is_deposit: false, type: "associated_fee",
    current_installment: 1, total_installments: 1, reference_code: "R1", foreign_amount: null, is_debt_transfer: false, ...extra,
  };
}

const list = (results: unknown[]) => ({ count: results.length, next: null, previous: null, status: 200, error: "", results });

function client(body: unknown) {
  return new SpendClient({
    baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_schema", retry: { retries: 0 },
    transport: fakeTransport(() => ({ body })).transport,
  });
}
const scope = { cardId: U(7), billingPeriodId: U(8) };

describe('lenient where the spec says "not shown": unknown shapes are kept', () => {
  it("an expanded bank object with none of the sandbox's fields", async () => {
    const cards = await listCards(client(list([{ ...card("c1"), bank: { bank_code: 12, label: { es: "Banco" } } }])), { expand: ["bank"] }).all();
    expect(cards[0].bank).toEqual({ bank_code: 12, label: { es: "Banco" } });
  });

  it("document entries of any shape, one odd entry failing nothing", async () => {
    const documents = [{ url: "https://files.example/a.pdf", id: U(9) }, { signed_url: "https://files.example/b.pdf", expires_in: 300 }, { href: 5 }];
    const all = await listAllowances(client(list([allowance(1, { documents }), allowance(2)])), "s1", { expand: [...ALLOWANCE_EXPAND] }).all();
    expect(all).toHaveLength(2);
    expect(all[0].documents).toEqual(documents);
  });

  it("fund, approved_by and fare with field names of their own, and a foreign amount of another shape", async () => {
    const e = expense(1, { fund: { number: 7, estado: "open" }, approved_by: [{ name: "Ana" }, { uid: 3 }], fare: { km: 12 } });
    const [loaded] = await listExpenses(client(list([e])), "s1", { expand: ["fund", "approved_by", "fare"] }).all();
    expect(loaded).toMatchObject({ fund: { number: 7, estado: "open" }, approved_by: [{ name: "Ana" }, { uid: 3 }], fare: { km: 12 } });
    const [m] = await listMovements(client(list([movement(1, { foreign_amount: { value: "12.5", iso: "USD" } })])), scope).all();
    expect(m.foreign_amount).toEqual({ value: "12.5", iso: "USD" });
  });
});

describe("strict where the spec types: timestamps and dates", () => {
  it.each([
    "2026-03-31T12:00:00Z", "2026-03-31T12:00Z", "2026-03-31T12:00:00.123456Z", "2026-03-31T14:00:00+02:00", "2026-03-31t12:00:00z", "2024-02-29T00:00:00Z",
  ])("accepts %s", (value) => {
    expect(isTimestamp(value)).toBe(true);
  });

  it.each([
    "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "26-03-31T12:00:00Z", "20260-03-31T12:00:00Z", "+2026-03-31T12:00:00Z",
    "2026-03-31", "2026-03-31T12:00:00", "2026-03-31 12:00:00Z", " 2026-03-31T12:00:00Z", "2026-03-31T24:00:00Z", "2026-03-31T12:60:00Z",
    "2026-03-31T12:00:00+0200", "2026-03-31T12:00:00+25:00", "yesterday", "",
  ])("refuses %j, naming the field", async (value) => {
    expect(isTimestamp(value)).toBe(false);
    const error = await listAllowances(client(list([allowance(1), allowance(2, { created_at: value })])), "s1").all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("results[1].created_at");
  });

  it.each([["paid_at", "2026-02-30T10:00:00Z"], ["start_date", "2026-03-01"], ["updated_at", "soon"]])("an allowance's %s is a timestamp", async (field, value) => {
    const error = await getAllowance(client({ ...allowance(1, { [field]: value }), status: 200, error: "" }), "s1", U(1)).catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe(field);
  });

  it.each([["2026-02-30"], ["2026-2-3"], ["2026-03-02T00:00:00Z"], ["02/03/2026"]])("an expense date %s is refused; only YYYY-MM-DD of a real day", async (date) => {
    const error = await getExpense(client(expense(1, { date })), "s1", U(1)).catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("date");
  });

  it("a movement's transaction_date and its reconciliation's expense date are checked too", async () => {
    const bad = await listMovements(client(list([movement(1, { transaction_date: "2026-02-30" })])), scope).all().catch((e) => e);
    expect(bad.path).toBe("results[0].transaction_date");
    const reconciliation = {
      id: U(50), expense: { id: U(1), description: "x", expense_number: 1, date: "2026-02-30T00:00:00Z", amount: money(1), usd_amount: null, cost_center: null, state: "paid" },
    };
    const badRec = await listMovements(client(list([movement(1, { reconciliation })])), scope).all().catch((e) => e);
    expect(badRec.path).toBe("results[0].reconciliation.expense.date");
    expect(await listMovements(client(list([movement(1), movement(2, { transaction_date: "2024-02-29" })])), scope).all()).toHaveLength(2);
  });
});

describe("strict where the spec enumerates, without failing the load: unlisted values are marked", () => {
  it("an allowance with an unknown state loads, marked; the others are not", async () => {
    const all = await listAllowances(client(list([allowance(1), allowance(2, { state: "archived" }), allowance(3, { state: "Paid" })])), "s1").all();
    expect(all.map((a) => a.state)).toEqual(["approved", "archived", "Paid"]);
    expect(unknownValuesOf(all[0])).toEqual([]);
    expect(hasUnknownValues(all[0])).toBe(false);
    expect(unknownValuesOf(all[1])).toEqual([{ field: "state", value: "archived", allowed: ALLOWANCE_STATES }]);
    expect(unknownValuesOf(all[2])).toEqual([{ field: "state", value: "Paid", allowed: ALLOWANCE_STATES }]);
    expect(hasUnknownValues(all[1])).toBe(true);
  });

  it("the mark is not a field: it never reaches a column, JSON or a copy's keys", async () => {
    const [a] = await listAllowances(client(list([allowance(1, { state: "archived" })])), "s1").all();
    expect(Object.keys(a).sort()).toEqual(Object.keys(allowance(1)).sort());
    expect(JSON.parse(JSON.stringify(a))).toEqual(allowance(1, { state: "archived" }));
    expect(Object.getOwnPropertySymbols(a)).toEqual([]);
  });

  it("an expense's unknown state, on a list and on a single get", async () => {
    const [e] = await listExpenses(client(list([expense(1, { state: "in_review" })])), "s1").all();
    expect(unknownValuesOf(e)).toEqual([{ field: "state", value: "in_review", allowed: EXPENSE_STATES }]);
    const one = await getExpense(client({ ...expense(2, { state: "" }), status: 200, error: "" }), "s1", U(2));
    expect(unknownValuesOf(one)).toEqual([{ field: "state", value: "", allowed: EXPENSE_STATES }]);
  });

  it("a movement's unknown type", async () => {
    const [m] = await listMovements(client(list([movement(1, { type: "cashback" })])), scope).all();
    expect(m.type).toBe("cashback");
    expect(unknownValuesOf(m)).toEqual([{ field: "type", value: "cashback", allowed: ["payment", "expense", "associated_fee", "other_fee"] }]);
  });

  it("a PATCH answer with an unknown state is marked", async () => {
    const answer = { id: U(1), state: "settled", accounted_id: null, paid_id: "P", paid_at: "2026-03-05T10:00:00Z", converted_amount: 1, updated_at: "2026-03-05T10:00:01Z" };
    const updated = await updateAllowance(client(answer), "s1", U(1), { state: "paid", paid_id: "P" });
    expect(unknownValuesOf(updated)).toEqual([{ field: "state", value: "settled", allowed: ALLOWANCE_STATES }]);
  });

  it("a state that is not a string at all is a SchemaError: the spec types it", async () => {
    const error = await listAllowances(client(list([allowance(1, { state: 3 })])), "s1").all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("results[0].state");
  });
});
