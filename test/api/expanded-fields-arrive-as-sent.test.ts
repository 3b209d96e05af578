/**
 * An expanded field whose shape the spec shows arrives field for field as the service sent it (an allowance's
 * segments: dates, fare, days, amounts; an expense's cost center and category: id, name, internal id), in a
 * list and in a GET; one that lacks a field the spec shows is the service's mistake, named with its path, not
 * an empty object in a cell.
 */
import { SchemaError, SpendClient, getAllowance, getExpense, listAllowances, listExpenses } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";
import { U } from "./helpers/records";

const money = (amount: number, currency = "CLP") => ({ amount, currency });

const segment = {
  id: U(900), start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-02T00:00:00Z", fare_id: U(901), fare_name: "Santiago, full day",
  days: 1.5, amount: money(45000), converted_amount: money(48.5, "USD"),
};

function allowance(segments: unknown[]): Record<string, unknown> {
  return {
    id: U(1), allowance_number: 1, description: "Trip", state: "approved", beneficiary_id: U(100), cost_center_id: U(200),
    start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-03T00:00:00Z", days: 2, amount: money(100), currency: "CLP",
    converted_amount: 100, accounted_id: null, paid_id: null, paid_at: null, created_at: "2026-02-27T09:30:00Z", is_active: true,
    allowance_segments: segments,
  };
}

function client(body: (url: string) => unknown): SpendClient {
  const fake = fakeTransport((r) => ({ body: body(r.url) }));
  return new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: "ent-1", apiKey: "k".repeat(32), transport: fake.transport, retry: { retries: 0 } });
}

describe("an allowance's segments", () => {
  it("a GET gives each segment field for field", async () => {
    const one = await getAllowance(client(() => allowance([segment, { ...segment, id: U(902), days: 0.5 }])), "sub-1", U(1), { expand: ["allowance_segments"] });
    expect(one.allowance_segments).toEqual([segment, { ...segment, id: U(902), days: 0.5 }]);
  });

  it("a list gives them the same", async () => {
    const page = { count: 1, next: null, previous: null, results: [allowance([segment])] };
    const all = await listAllowances(client(() => page), "sub-1", { expand: ["allowance_segments"] }).all();
    expect(all.map((a) => a.allowance_segments)).toEqual([[segment]]);
  });

  it("a segment without its fare is refused, naming where", async () => {
    const { fare_id: _dropped, ...withoutFare } = segment;
    const error = await getAllowance(client(() => allowance([segment, withoutFare])), "sub-1", U(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toBe(
      "The service's answer for allowance does not match the API: allowance_segments[1].fare_id: Invalid input: expected string, received undefined (got nothing (the field is missing)).",
    );
  });
});

function expense(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id: U(2), description: "Lunch", expense_type: "meal", currency: "CLP", amount: 10, usd_amount: null, state: "approved", date: "2026-03-02",
    expense_number: 2, content_type: "image/png", cost_center_id: U(200), category_id: U(300), user_id: U(400), fund_id: null, is_active: true,
    created_at: "2026-03-02T12:00:00Z", url: "https://files.example/r.png", document_id: "F-1", expense_document_type: "receipt", provider: "Cafe",
    payment_method: "card", net_amount: 8, tax_amount: 2, tax_rate: 19, subsidiary_currency: "CLP", subsidiary_expense_amount: 10,
    accounted_id: null, paid_id: null, paid_at: null, ...extra,
  };
}

describe("an expense's cost center and category", () => {
  const costCenter = { id: U(200), name: "Sales North", internal_id: "CC-7" };
  const category = { id: U(300), name: "Meals" };

  it("a GET gives them field for field", async () => {
    const one = await getExpense(client(() => expense({ cost_center: costCenter, category })), "sub-1", U(2), { expand: ["cost_center", "category"] });
    expect([one.cost_center, one.category]).toEqual([costCenter, category]);
  });

  it("a list gives them the same, and null as null", async () => {
    const page = { count: 2, next: null, previous: null, results: [expense({ cost_center: costCenter, category }), expense({ id: U(3), cost_center: null, category: null })] };
    const all = await listExpenses(client(() => page), "sub-1", { expand: ["cost_center", "category"] }).all();
    expect(all.map((e) => [e.cost_center, e.category])).toEqual([[costCenter, category], [null, null]]);
  });

  it("a category without its name is refused, naming where", async () => {
    const error = await getExpense(client(() => expense({ category: { id: U(300) } })), "sub-1", U(2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toBe("category.name");
  });
});
