/**
 * A record's answer is checked as the spec types it, and a field that does not match is named with its value
 * and with what it should look like: a timestamp without a zone says what a timestamp is, a date that is not
 * on the calendar what a date is. The envelope fields
 * of a GET's answer (spec section 1: `status` a whole number, `error` a text) are typed too, and kept.
 */
import { SchemaError, SpendClient, getAllowance, getCard, getExpense } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";
import { U } from "./helpers/records";

const money = (amount: number) => ({ amount, currency: "CLP" });

function allowance(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: U(1), allowance_number: 1, description: "Trip", state: "approved", beneficiary_id: U(100), cost_center_id: U(200),
    start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-03T00:00:00Z", days: 2, amount: money(100), currency: "CLP",
    converted_amount: 100, accounted_id: null, paid_id: null, paid_at: null, created_at: "2026-02-27T09:30:00Z", is_active: true, ...extra,
  };
}

function answering(body: unknown): SpendClient {
  const fake = fakeTransport(() => ({ body }));
  return new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: "ent-1", apiKey: "k".repeat(32), transport: fake.transport, retry: { retries: 0 } });
}

describe("a timestamp", () => {
  it("without a zone is refused with what a timestamp looks like", async () => {
    const error = await getAllowance(answering(allowance({ created_at: "2026-02-27T09:30:00" })), "sub-1", U(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toBe(
      "The service's answer for allowance does not match the API: created_at: expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z (got \"2026-02-27T09:30:00\").",
    );
  });
});

describe("a date", () => {
  it("that is not on the calendar is refused with what a date looks like", async () => {
    const expense = {
      id: U(2), description: "Lunch", expense_type: "meal", currency: "CLP", amount: 10, usd_amount: null, state: "approved", date: "2026-02-30",
      expense_number: 2, content_type: "image/png", is_active: true, created_at: "2026-03-02T12:00:00Z", url: "https://files.example/r.png",
      document_id: "F-1", expense_document_type: "receipt", provider: "Cafe", payment_method: "card", net_amount: 8, tax_amount: 2, tax_rate: 19,
      subsidiary_currency: "CLP", subsidiary_expense_amount: 10, accounted_id: null, paid_id: null, paid_at: null,
    };
    const error = await getExpense(answering(expense), "sub-1", U(2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toBe(
      "The service's answer for expense does not match the API: date: expected a real date written YYYY-MM-DD (got \"2026-02-30\").",
    );
  });
});

describe("the envelope fields of a GET's answer", () => {
  it("are kept as sent", async () => {
    expect(await getCard(answering({ ...card("c-1"), status: 200, error: "" }), "c-1")).toEqual({ ...card("c-1"), status: 200, error: "" });
  });

  it.each([
    ["a status in words", { status: "ok" }, "status"],
    ["a status with a fraction", { status: 200.5 }, "status"],
    ["an error that is not a text", { error: { code: 1 } }, "error"],
  ])("%s is refused, naming the field", async (_what, envelope, field) => {
    const error = await getCard(answering({ ...card("c-1"), ...envelope }), "c-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toBe(field);
  });
});
