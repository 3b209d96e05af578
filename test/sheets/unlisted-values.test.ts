/**
 * A state or movement type the spec does not list (a newer service): the record loads read-only with a note
 * on its row, the rest of the load is untouched, and Sync states refuses to send it.
 */
import { loadTable, type LoadParams } from "../../src/sheets";
import { previewSync, runSync } from "../../src/sync";
import { edit } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("an expense in an unlisted state loads with a note, and an edit of it is listed by Preview and never sent", async () => {
  const expenses = f.sandbox.store.expensesOf(f.sub);
  const odd = expenses.find((e) => e.state === "approved")!;
  odd.state = "archived";
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  expect(report.count).toBe(expenses.length);
  const t = tableView(f.excel, report.tableName);
  const row = t.values("Expense ID").indexOf(odd.id);
  expect(t.values("State")[row]).toBe("archived");
  expect(t.values("Sync status")[row]).toBe(
    'Read-only: the service sent state "archived" (the spec lists draft, pending, approved, accounted, paid, rejected). Sync states will not send this row; ask your Spend Sync contact.');
  // Every other row has no such note.
  expect(t.values("Sync status").filter((s) => String(s).startsWith("Read-only"))).toHaveLength(1);

  edit(f, report.tableName, odd.id, { State: "paid", "Paid ID": "PAY-ODD" });
  const preview = await previewSync(f.workbook, report.tableName);
  const listed = preview.rows.find((r) => r.id === odd.id)!;
  expect(listed.kind).toBe("invalid");
  expect(listed.message).toBe('This record\'s state "archived" is not one the spec lists, so the row is read-only: Sync states does not send it. Undo the edit.');
  const before = f.sandbox.store.transitionsOf(odd.id).length;
  const result = await runSync(f.client, f.workbook, preview);
  expect(result.counts.invalid).toBe(1);
  expect(f.sandbox.store.transitionsOf(odd.id)).toHaveLength(before);
  expect(f.sandbox.store.expense(f.sub, odd.id)).toMatchObject({ state: "archived", paid_id: odd.paid_id });
});

it("a movement of an unlisted type loads with a note instead of failing the whole statement", async () => {
  const card = f.sandbox.store.cardsOf(f.enterprise.id)[0];
  const period = f.sandbox.store.billingPeriodsOf(card.id)[0];
  const movements = f.sandbox.store.movementsOf(period.id);
  Object.assign(movements[0], { type: "chargeback" });
  const report = await loadTable(f.client, f.workbook, {
    resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: period.id,
  } as LoadParams);
  expect(report.count).toBe(movements.length);
  const t = tableView(f.excel, report.tableName);
  const notes = t.values("Sync status").map(String);
  expect(notes[t.values(t.header[0]).indexOf(movements[0].id)]).toMatch(/^Read-only: the service sent type "chargeback" \(the spec lists /);
  expect(notes.filter((n) => n.startsWith("Read-only"))).toHaveLength(1);
});
