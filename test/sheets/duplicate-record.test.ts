/**
 * Refresh of a table in which one record is on two rows (a row the user copied over another): the record's
 * first row takes the server's values and keeps its own edit; the copy is left exactly as it is, edit and
 * all, and says it is a duplicate. No edit moves to the other row, none is lost, the changes-only refresh and
 * the whole rewrite leave the same table, and Sync states sends nothing until one row per record is left.
 */
import { EDITABLE_FILL, EDITED_FILL, refreshTable, type CellValue, type LoadOptions } from "../../src/sheets";
import { DUPLICATE_NOTE } from "../../src/sheets/refresh/plan";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { previewSync, runSync } from "../../src/sync";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { REFRESH_NOW, tableView, withApprovedExpenses, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
let tableName: string;
const now = REFRESH_NOW;

beforeEach(async () => {
  ({ f, tableName } = await withApprovedExpenses());
});
afterEach(() => f.sandbox.close());

/** A refresh on a copy of the workbook as it is now, only what changed or the whole table rewritten. */
async function refreshCopy(options: LoadOptions = {}) {
  const excel = new FakeExcel(f.excel.model.copy());
  const workbook = new ExcelWorkbook(excel);
  const report = await refreshTable(f.client, workbook, tableName, { now, ...options });
  return { excel, workbook, report, view: tableView(excel, tableName) };
}

/** Both refreshes, which must leave the same table. */
async function bothRefreshes() {
  const some = await refreshCopy();
  const whole = await refreshCopy({ wholeTable: true });
  expect(some.view.header).toEqual(whole.view.header);
  expect(some.view.rows).toEqual(whole.view.rows);
  return [some, whole];
}

/** The sheet as loaded; row 0's record copied over row 3 (record D's row), then typed into. */
function copyRowZeroOverRowThree() {
  const t = tableView(f.excel, tableName);
  const loaded = t.rows.map((r) => [...r]);
  f.excel.user.pasteBlock(t.sheet.name, t.address("Expense ID", 3), [loaded[0] as CellValue[]]);
  const type = (row: number, header: string, value: string) => f.excel.user.type(t.sheet.name, t.address(header, row), value);
  const at = (header: string) => t.column(header);
  return { t, loaded, type, at, a: loaded[0][0] as string, d: loaded[3][0] as string };
}

const fills = (view: ReturnType<typeof tableView>, row: number) => ["State", "Accounted ID", "Paid ID"].map((h) => view.fill(h, row));

describe("Refresh with one record on two rows", () => {
  it("an edit typed on the copy stays on the copy, the first row shows the server's values, and Sync sends nothing", async () => {
    const { loaded, type, at, a, d } = copyRowZeroOverRowThree();
    type(3, "State", "paid");
    type(3, "Paid ID", "PAY-COPY");
    const copy = loaded[0].map((cell, c) => (c === at("State") ? "paid" : c === at("Paid ID") ? "PAY-COPY" : c === at("Sync status") ? DUPLICATE_NOTE : cell));
    // Every row: the first is the record as the server has it (no status: it holds no edit); the copy keeps the
    // edit and says it was not refreshed; record D, whose row was pasted over, comes back at the end.
    const expected = [loaded[0], loaded[1], loaded[2], copy, ...loaded.slice(4), loaded[3]];

    for (const r of await bothRefreshes()) {
      expect(r.report).toMatchObject({ added: 1, removed: 0, keptEdits: 0, conflicts: 0, discardedEdits: 0 });
      expect(r.view.rows).toEqual(expected);
      expect(r.view.values("Expense ID").filter((id) => id === a)).toHaveLength(2);
      expect(r.view.values("Expense ID").at(-1)).toBe(d);
      // No cell marked as a kept edit: not the first row's (it has none), not the copy's (not refreshed).
      expect([fills(r.view, 0), fills(r.view, 3)]).toEqual([[EDITABLE_FILL, EDITABLE_FILL, EDITABLE_FILL], [EDITABLE_FILL, EDITABLE_FILL, EDITABLE_FILL]]);

      // A later sync: one invalid row naming both rows (2 and 5 in the sheet), nothing sent, the server untouched.
      const preview = await previewSync(r.workbook, tableName);
      expect(preview.counts).toMatchObject({ change: 0, check: 0, invalid: 1 });
      expect(preview.rows).toEqual([{
        id: a, rows: [0, 3], kind: "invalid",
        loaded: { state: "approved", accounted_id: "", paid_id: "", paid_at: "" },
        desired: { state: "paid", accounted_id: "", paid_id: "PAY-COPY", paid_at: "" },
        message: "This record appears in 2 rows (2, 5): keep one row per record, then sync.",
      }]);
      await runSync(f.client, r.workbook, preview, { now });
      expect(f.sandbox.store.expense(f.sub, a)).toMatchObject({ state: "approved", paid_id: null });
    }
  });

  it("an edit on the first row is kept there as unsynced, takes the server's other changes, and the copy stays as it was", async () => {
    const { loaded, type, at, a } = copyRowZeroOverRowThree();
    type(0, "State", "paid");
    type(0, "Paid ID", "PAY-FIRST");
    f.sandbox.store.expense(f.sub, a)!.description = "Renamed on the server";
    const first = loaded[0].map((cell, c) =>
      c === at("State") ? "paid" : c === at("Paid ID") ? "PAY-FIRST" : c === at("Description") ? "Renamed on the server"
        : c === at("Sync status") ? "Unsynced: paid, Paid ID PAY-FIRST (server: approved)" : cell);
    const copy = loaded[0].map((cell, c) => (c === at("Sync status") ? DUPLICATE_NOTE : cell)); // the old description: not refreshed

    for (const r of await bothRefreshes()) {
      expect(r.report).toMatchObject({ added: 1, removed: 0, keptEdits: 1, conflicts: 0 });
      expect(r.view.rows).toEqual([first, loaded[1], loaded[2], copy, ...loaded.slice(4), loaded[3]]);
      // The kept edit is marked where it was typed, on the first row only.
      expect([fills(r.view, 0), fills(r.view, 3)]).toEqual([[EDITED_FILL, EDITABLE_FILL, EDITED_FILL], [EDITABLE_FILL, EDITABLE_FILL, EDITABLE_FILL]]);
      // The copy is unedited, so it does not block: still, two rows of one record are never sent.
      const preview = await previewSync(r.workbook, tableName);
      expect(preview.rows.map((p) => [p.id, p.rows, p.kind, p.message])).toEqual([[a, [0, 3], "invalid", "This record appears in 2 rows (2, 5): keep one row per record, then sync."]]);
    }
  });

  it("different edits on both rows: each stays on its own row, neither applied to the other, and a second refresh changes nothing", async () => {
    const { loaded, type, at } = copyRowZeroOverRowThree();
    type(0, "State", "accounted");
    type(0, "Accounted ID", "ACC-FIRST");
    type(3, "State", "paid");
    type(3, "Paid ID", "PAY-COPY");
    const with_ = (row: CellValue[], cells: Record<string, CellValue>) => row.map((cell, c) => {
      const header = Object.keys(cells).find((h) => at(h) === c);
      return header === undefined ? cell : cells[header];
    });
    const first = with_(loaded[0], { State: "accounted", "Accounted ID": "ACC-FIRST", "Sync status": "Unsynced: accounted, Accounted ID ACC-FIRST (server: approved)" });
    const copy = with_(loaded[0], { State: "paid", "Paid ID": "PAY-COPY", "Sync status": DUPLICATE_NOTE });
    const expected = [first, loaded[1], loaded[2], copy, ...loaded.slice(4), loaded[3]];

    for (const r of await bothRefreshes()) {
      expect(r.report).toMatchObject({ added: 1, keptEdits: 1, conflicts: 0 });
      expect(r.view.rows).toEqual(expected);
      expect([fills(r.view, 0), fills(r.view, 3)]).toEqual([[EDITED_FILL, EDITED_FILL, EDITABLE_FILL], [EDITABLE_FILL, EDITABLE_FILL, EDITABLE_FILL]]);
      const again = await refreshTable(f.client, r.workbook, tableName, { now });
      expect(again).toMatchObject({ added: 0, removed: 0, keptEdits: 1, conflicts: 0 });
      expect(tableView(r.excel, tableName).rows).toEqual(expected);
    }
  });

  it("an id pasted over an earlier row: that row takes the record whole, the record's own edited row is left as it was", async () => {
    const t = tableView(f.excel, tableName);
    const loaded = t.rows.map((r) => [...r]);
    const [b, a] = [loaded[1][0] as string, loaded[3][0] as string];
    f.excel.user.type(t.sheet.name, t.address("State", 3), "paid");
    f.excel.user.type(t.sheet.name, t.address("Paid ID", 3), "PAY-A");
    f.excel.user.paste(t.sheet.name, t.address("Expense ID", 1), a);
    const edited = loaded[3].map((cell, c) => (c === t.column("State") ? "paid" : c === t.column("Paid ID") ? "PAY-A" : c === t.column("Sync status") ? DUPLICATE_NOTE : cell));
    for (const r of await bothRefreshes()) {
      expect(r.report).toMatchObject({ added: 1, removed: 0, keptEdits: 0, conflicts: 0 });
      // Row 1 held record B's cells under A's id: all of them are A's now; B comes back at the end.
      expect(r.view.rows).toEqual([loaded[0], loaded[3], loaded[2], edited, ...loaded.slice(4), loaded[1]]);
      expect(r.view.values("Expense ID").at(-1)).toBe(b);
      const preview = await previewSync(r.workbook, tableName);
      expect(preview.rows.map((p) => [p.id, p.rows, p.kind, p.message])).toEqual([[a, [1, 3], "invalid", "This record appears in 2 rows (3, 5): keep one row per record, then sync."]]);
    }
  });

  it("once the user deletes the copy, the first row's edit is the one Sync states sends, to that record only", async () => {
    const { t, type, a } = copyRowZeroOverRowThree();
    type(0, "State", "paid");
    type(0, "Paid ID", "PAY-FIRST");
    type(3, "State", "accounted");
    type(3, "Accounted ID", "ACC-COPY");
    await refreshTable(f.client, f.workbook, tableName, { now });
    f.excel.user.deleteRow(t.sheet.name, 5); // the copy: sheet row 5
    const preview = await previewSync(f.workbook, tableName);
    expect(preview.rows.map((p) => [p.id, p.rows, p.kind, p.patch])).toEqual([[a, [0], "change", { state: "paid", paid_id: "PAY-FIRST" }]]);
    await runSync(f.client, f.workbook, preview, { now });
    expect(f.sandbox.store.expense(f.sub, a)).toMatchObject({ state: "paid", paid_id: "PAY-FIRST", accounted_id: null });
  });
});
