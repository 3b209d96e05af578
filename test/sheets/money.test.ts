/** Money as a finance user reads it: charges positive and deposits negative on a card statement. */
import { currencyFormat, loadTable, type LoadParams } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("a movements table shows charges positive and deposits (payments to the card) negative, whatever sign the service sends", async () => {
  const card = f.sandbox.store.cardsOf(f.enterprise.id)[0];
  const period = f.sandbox.store.billingPeriodsOf(card.id)[0];
  const movements = f.sandbox.store.movementsOf(period.id);
  const deposit = movements.find((m) => m.is_deposit)!;
  const charge = movements.find((m) => !m.is_deposit)!;
  expect(deposit).toBeDefined();
  deposit.amount.amount = Math.abs(deposit.amount.amount); // a service that sends deposits unsigned
  const report = await loadTable(f.client, f.workbook, { resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: period.id } as LoadParams);
  const t = tableView(f.excel, report.tableName);
  const amountOf = (id: string) => t.values("Amount")[t.values("Movement ID").indexOf(id)];
  expect(amountOf(deposit.id)).toBe(-Math.abs(deposit.amount.amount));
  expect(amountOf(charge.id)).toBe(charge.amount.amount);
  expect(t.values("Amount").filter((_, i) => t.values("Deposit")[i] === "Yes").every((a) => (a as number) <= 0)).toBe(true);
});

it("amounts show their currency's decimals: none for CLP, two for USD; the USD column always two", async () => {
  const expenses = f.sandbox.store.expensesOf(f.sub);
  const clp = expenses.find((e) => e.currency === "CLP")!;
  const usd = expenses.find((e) => e.currency === "USD")!;
  expect([clp, usd].every(Boolean)).toBe(true);
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  const t = tableView(f.excel, report.tableName);
  const rowOf = (id: string) => t.values("Expense ID").indexOf(id);
  expect(["Amount", "Net amount", "Tax amount", "USD amount"].map((h) => t.format(h, rowOf(clp.id)))).toEqual(["#,##0", "#,##0", "#,##0", "#,##0.00"]);
  expect(["Amount", "Net amount", "Tax amount", "USD amount"].map((h) => t.format(h, rowOf(usd.id)))).toEqual(["#,##0.00", "#,##0.00", "#,##0.00", "#,##0.00"]);
  expect(t.format("Subsidiary amount", rowOf(usd.id))).toBe(clp.subsidiary_currency === "CLP" ? "#,##0" : "#,##0.00");
  // A refresh (a different write path) keeps them.
  await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  const again = tableView(f.excel, report.tableName);
  expect(again.format("Amount", again.values("Expense ID").indexOf(clp.id))).toBe("#,##0");
  expect(again.format("Amount", again.values("Expense ID").indexOf(usd.id))).toBe("#,##0.00");
});

it("knows each currency's minor units", () => {
  expect(["CLP", "JPY", "USD", "EUR", "KWD", "clp", "XYZ"].map(currencyFormat)).toEqual(["#,##0", "#,##0", "#,##0.00", "#,##0.00", "#,##0.000", "#,##0", "#,##0.00"]);
});
