// Rule: the note on a malformed record's row names the field, quotes the value that came and says what the API expects there.
import { SpendClient, describeIssue, listExpenses, type MalformedRecord } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function expense(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: U(n), description: "Lunch", expense_type: "meal", currency: "CLP", amount: 10, usd_amount: null, state: "approved", date: "2026-03-02",
    expense_number: n, content_type: "image/png", cost_center_id: U(200), category_id: U(300), user_id: U(400), fund_id: null, is_active: true,
    created_at: "2026-03-02T12:00:00Z", url: "https://files.example/r.png", document_id: "F-1", expense_document_type: "receipt", provider: "Cafe",
    payment_method: "card", net_amount: 8, tax_amount: 2, tax_rate: 19, subsidiary_currency: "CLP", subsidiary_expense_amount: 10,
    accounted_id: null, paid_id: null, paid_at: null, ...extra,
  };
}

it("a record whose created_at is no real date is noted as the field, the value as sent and the expected form", async () => {
  const fake = fakeTransport(() => ({
    body: { count: 2, next: null, previous: null, results: [expense(1), expense(2, { created_at: "2026-13-45T00:00:00Z" })] },
  }));
  const client = new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_malformed_note", transport: fake.transport });
  const kept: MalformedRecord[] = [];
  for await (const page of listExpenses(client, "s1", {}, { keepMalformed: true }).pages()) kept.push(...page.malformed);
  expect(kept).toHaveLength(1);
  expect(kept[0].issues.map(describeIssue)).toEqual([
    'created_at "2026-13-45T00:00:00Z" (expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z)',
  ]);
});
