/** Records as the service sends them, for tests that build answers by hand. */

/** The n-th id, a UUID as the service writes them. */
export const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** An approved expense with every field of the spec, `extra` over it. */
export function expense(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: U(n), description: "Lunch", expense_type: "meal", currency: "CLP", amount: 10, usd_amount: null, state: "approved", date: "2026-03-02",
    expense_number: n, content_type: "image/png", cost_center_id: U(200), category_id: U(300), user_id: U(400), fund_id: null, is_active: true,
    created_at: "2026-03-02T12:00:00Z", url: "https://files.example/r.png", document_id: "F-1", expense_document_type: "receipt", provider: "Cafe",
    payment_method: "card", net_amount: 8, tax_amount: 2, tax_rate: 19, subsidiary_currency: "CLP", subsidiary_expense_amount: 10,
    accounted_id: null, paid_id: null, paid_at: null, ...extra,
  };
}

/** An approved allowance with every field of the spec's list answer, `extra` over it. */
export function allowance(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: U(n), allowance_number: n, description: "Trip", state: "approved", beneficiary_id: U(100), cost_center_id: U(200),
    start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-03T00:00:00Z", days: 2, amount: { amount: 100, currency: "CLP" }, currency: "CLP",
    converted_amount: 100, accounted_id: null, paid_id: null, paid_at: null, created_at: "2026-02-27T09:30:00Z", is_active: true, ...extra,
  };
}
