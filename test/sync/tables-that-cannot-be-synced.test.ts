/**
 * A table Sync states cannot sync is refused at Preview, before anything is read from the service or sent,
 * with a message that says why and what to do: a table Spend Sync did not load, a table of a resource with no
 * states to sync, a tracked column renamed away, a table deleted since it was loaded.
 */
import { loadTable, type LoadParams, type Workbook } from "../../src/sheets";
import { SyncSetupError, previewSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

async function refused(workbook: Workbook, tableName: string, message: string) {
  const preview = previewSync(workbook, tableName);
  await expect(preview).rejects.toBeInstanceOf(SyncSetupError);
  await expect(preview).rejects.toThrow(message);
}

it("a table Spend Sync did not load", async () => {
  await f.workbook.writeTable({
    sheetName: "Mine", tableName: "MyTable", header: ["Expense ID", "State"], rows: [["x", "paid"]],
    numberFormats: [null, null], editable: [false, true], dropdowns: [null, null],
  });
  await refused(f.workbook, "MyTable", "The table MyTable was not loaded by Spend Sync (this workbook has no load parameters for it), so it has nothing to sync.");
});

it("a table of cards, which have no states to sync", async () => {
  const report = await loadTable(f.client, f.workbook, { resource: "cards", enterpriseId: f.enterprise.id } as LoadParams);
  await refused(f.workbook, report.tableName, "Only allowances and expenses have states to sync; the cards table is read-only.");
});

it("the State column renamed", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const t = tableView(f.excel, table);
  f.excel.user.paste(t.sheet.name, t.address("State", -1), "Status"); // the header cell, the row above the first
  expect(tableView(f.excel, table).header).toContain("Status");
  await refused(f.workbook, table, `The column "State" is missing from the table ${table} (renamed or deleted?). Put it back, or load the table again.`);
});

it("the table deleted since it was loaded", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const deleted: Workbook = Object.assign(Object.create(f.workbook), {
    readColumns: (name: string, ...rest: unknown[]) =>
      (name === table ? Promise.resolve(null) : (f.workbook.readColumns as (...a: unknown[]) => Promise<unknown>)(name, ...rest)),
  });
  await refused(deleted, table, `The table ${table} is gone from the workbook; load it again.`);
});
