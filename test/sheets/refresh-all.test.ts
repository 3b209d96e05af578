/**
 * Refresh All (issue 24): every Spend Sync table in the workbook, one after another, each as Refresh does it;
 * a table that fails says why and does not stop the others; a table the user deleted is reported, not loaded again.
 */
import { SpendClient } from "../../src/api";
import { loadTable, refreshAll, type LoadParams, type TableOutcome } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { clientWith } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const now = () => new Date("2026-11-24T11:00:00Z");

async function fourTables() {
  const [card] = f.enterprise.cards;
  const queries: LoadParams[] = [
    { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub },
    { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub },
    { resource: "cards", enterpriseId: f.enterprise.id },
    { resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: card.billing_periods[0] },
  ];
  const names: string[] = [];
  for (const q of queries) names.push((await loadTable(f.client, f.workbook, q, { now })).tableName);
  return { names, card };
}

describe("Refresh All", () => {
  it("refreshes every table in the order they were loaded; the one that fails says why, the others are refreshed", async () => {
    const { names } = await fourTables();
    const [expense] = f.sandbox.store.expensesOf(f.sub);
    const [allowance] = f.sandbox.store.allowancesOf(f.sub);
    expense.description = "Changed for Refresh All";
    allowance.description = "Changed too";
    // The cards list fails (the service answers 500 to it, every time); the other tables' requests go through.
    const failing = clientWith(f, (inner) => async (request) => {
      if (new URL(request.url).pathname.endsWith("/corporate-cards/")) {
        return { status: 500, headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : null) }, text: JSON.stringify({ status: 500, error: "cards are down" }) };
      }
      return inner(request);
    }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    const events: string[] = [];
    const outcomes = await refreshAll(failing, f.workbook, {
      now,
      onTable: (name, index, total) => events.push(`start ${index + 1}/${total} ${name}`),
      onOutcome: (o) => events.push(`${o.kind} ${o.tableName}`),
    });
    expect(outcomes.map((o) => [o.tableName, o.kind])).toEqual([[names[0], "refreshed"], [names[1], "refreshed"], [names[2], "failed"], [names[3], "refreshed"]]);
    expect(events).toEqual(names.flatMap((name, i) => [`start ${i + 1}/4 ${name}`, `${i === 2 ? "failed" : "refreshed"} ${name}`]));
    const report = (o: TableOutcome) => (o.kind === "refreshed" ? o.report : null);
    expect(report(outcomes[0])).toMatchObject({ updated: 1, added: 0, removed: 0 });
    expect(report(outcomes[1])).toMatchObject({ updated: 1, added: 0, removed: 0 });
    expect(report(outcomes[3])).toMatchObject({ updated: 0, added: 0, removed: 0 });
    expect(outcomes[2].kind === "failed" && String((outcomes[2].error as Error).message)).toMatch(/cards are down|500/);
    const expenses = tableView(f.excel, names[0]);
    expect(expenses.values("Description")[expenses.values("Expense ID").indexOf(expense.id)]).toBe("Changed for Refresh All");
    // The failed table is as it was: still there, untouched.
    expect(tableView(f.excel, names[2]).rows).toHaveLength(f.sandbox.store.cardsOf(f.enterprise.id).length);
  });

  it("a table deleted from the workbook is reported, not loaded again", async () => {
    const { names } = await fourTables();
    await f.excel.run(async (context) => {
      context.workbook.tables.getItem(names[1]).delete();
      await context.sync();
    });
    const outcomes = await refreshAll(f.client, f.workbook, { now });
    expect(outcomes.map((o) => o.kind)).toEqual(["refreshed", "gone", "refreshed", "refreshed"]);
    expect(f.excel.model.table(names[1])).toBeUndefined();
  });

  it("connected to another enterprise: every table fails with the enterprise sentence, and each is still tried", async () => {
    const { names } = await fourTables();
    const other = f.other;
    const elsewhere = new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: other.id, apiKey: other.api_key });
    const outcomes = await refreshAll(elsewhere, f.workbook, { now });
    expect(outcomes.map((o) => o.kind)).toEqual(["failed", "failed", "failed", "failed"]);
    expect(outcomes.every((o) => o.kind === "failed" && /belongs to enterprise/.test(String((o.error as Error).message)))).toBe(true);
    expect(names).toHaveLength(4);
  });
});
