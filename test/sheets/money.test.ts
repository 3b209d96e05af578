/** Money as a finance user reads it: charges positive and deposits negative on a card statement. */
import { loadTable, type LoadParams } from "../../src/sheets";
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
