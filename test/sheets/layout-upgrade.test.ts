/**
 * A table loaded with the layout of an earlier version (the editable columns and Sync status at the far right)
 * is refreshed into today's layout (identity, State → Accounted ID → Paid ID → Paid at, Sync status, the rest):
 * the whole table is rewritten, the user's own column stays on its records' rows, an unsynced edit stays with
 * its mark and status, and a record the query no longer returns is said so in Sync status, nowhere else.
 */
import { EDITED_FILL, SETTING_PREFIX, loadTable, refreshTable, type LoadParams } from "../../src/sheets";
import { previewSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { edit } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const now = () => new Date("2026-11-24T09:30:00Z");
const MOVED = ["State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"];

/** Puts the table's columns in the earlier version's order (the editable ones and Sync status last), as that version left it. */
async function toEarlierLayout(tableName: string): Promise<string[]> {
  const t = tableView(f.excel, tableName);
  const earlier = [...t.header.filter((h) => !MOVED.includes(h)), ...MOVED];
  const { area } = f.excel.model.table(tableName)!;
  for (const line of t.sheet.cells.values()) {
    const cells = t.header.map((_, c) => line.get(area.column + c));
    earlier.forEach((h, c) => {
      const moved = cells[t.header.indexOf(h)];
      if (moved) line.set(area.column + c, moved);
      else line.delete(area.column + c);
    });
  }
  const stored = JSON.parse((await f.workbook.readSetting(SETTING_PREFIX + tableName))!);
  await f.workbook.writeSetting(SETTING_PREFIX + tableName, JSON.stringify({ ...stored, columns: earlier }));
  return earlier;
}

it("an earlier version's layout is rewritten whole into today's, keeping the user's column, an unsynced edit, and saying which record is gone", async () => {
  const params: LoadParams = { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" };
  const { tableName } = await loadTable(f.client, f.workbook, params, { now });
  const today = tableView(f.excel, tableName).header;
  const earlier = await toEarlierLayout(tableName);
  expect(tableView(f.excel, tableName).header).toEqual(earlier);

  // The user's own column, right of the table, with a note on one record's row.
  const [a, b, gone] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  const before = tableView(f.excel, tableName);
  const table = f.excel.model.table(tableName)!;
  // Typed beside the table's header, it grows the table over the new column, as in Excel.
  f.excel.user.type(before.sheet.name, `${before.nextColumn}${table.area.row + 1}`, "My note");
  expect(tableView(f.excel, tableName).header).toEqual([...earlier, "My note"]);
  const noteRow = before.values("Expense ID").indexOf(b.id);
  f.excel.user.type(before.sheet.name, `${before.nextColumn}${table.area.row + noteRow + 2}`, "ask Ana");
  edit(f, tableName, a.id, { State: "accounted", "Accounted ID": "ACC-OLD-1" });
  // The service moves one record out of this query (approved → paid).
  f.sandbox.store.expense(f.sub, gone.id)!.state = "paid";

  const report = await refreshTable(f.client, f.workbook, tableName, { now });
  expect(report.refreshed).toEqual({ whole: true, why: "Spend Sync's columns for this table changed since it was loaded" });
  expect(report).toMatchObject({ keptEdits: 1, userColumns: ["My note"], removed: 1 });
  const t = tableView(f.excel, tableName);
  expect(t.header).toEqual([...today, "My note"]);
  const row = (id: string) => t.values("Expense ID").indexOf(id);
  expect(t.values("My note")[row(b.id)]).toBe("ask Ana");
  expect(t.values("My note").filter((v) => v !== "")).toEqual(["ask Ana"]);
  expect([t.values("State")[row(a.id)], t.values("Accounted ID")[row(a.id)]]).toEqual(["accounted", "ACC-OLD-1"]);
  expect(t.values("Sync status")[row(a.id)]).toMatch(/^Unsynced: accounted/);
  expect([t.fill("State", row(a.id)), t.fill("Accounted ID", row(a.id))]).toEqual([EDITED_FILL, EDITED_FILL]);
  expect(t.values("Sync status")[row(gone.id)]).toMatch(/^Not returned by the service/);
  // The last column of the layout keeps its value (the note goes in Sync status, wherever that column is).
  expect(t.values("Active")[row(gone.id)]).toBe(gone.is_active ? "Yes" : "No");

  // The edit is still one to send; the next Refresh writes only what changed.
  const preview = await previewSync(f.workbook, tableName);
  expect(preview.rows.map((r) => [r.id, r.kind, r.patch])).toEqual([[a.id, "change", { state: "accounted", accounted_id: "ACC-OLD-1" }]]);
  const again = await refreshTable(f.client, f.workbook, tableName, { now });
  expect(again.refreshed).toEqual({ whole: false });
});

it("a table loaded when every expand was named by its values keeps its name through Refresh (it is not loaded again beside itself)", async () => {
  const params: LoadParams = { resource: "cards", enterpriseId: f.enterprise.id, expand: ["user", "bank"] };
  const { tableName } = await loadTable(f.client, f.workbook, params, { now });
  expect(tableName).toBe("SpendCards_names");
  // As an earlier version named it.
  await f.excel.run(async (context) => {
    context.workbook.tables.getItem(tableName).name = "SpendCards_xbankxuser";
    await context.sync();
  });
  const stored = (await f.workbook.readSetting(SETTING_PREFIX + tableName))!;
  await f.workbook.writeSetting(SETTING_PREFIX + "SpendCards_xbankxuser", stored);
  await f.workbook.writeSetting("spendsync.tables", JSON.stringify(["SpendCards_xbankxuser"]));
  const report = await refreshTable(f.client, f.workbook, "SpendCards_xbankxuser", { now });
  expect(report).toMatchObject({ tableName: "SpendCards_xbankxuser", added: 0 });
  expect(f.excel.model.tables.map((t) => t.name).filter((n) => n.startsWith("SpendCards"))).toEqual(["SpendCards_xbankxuser"]);
});
