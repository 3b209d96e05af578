/**
 * An unsynced edit keeps its mark and its status until it is synced or discarded (issue 24): through Refresh,
 * Refresh All, the workbook saved and opened again, and another table loaded beside it; and the Preview after
 * all that says what the Preview before it said.
 */
import { EDITABLE_FILL, EDITED_FILL, discardEdits, loadTable, refreshAll, refreshTable } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { previewInSheet, runSync } from "../../src/sync";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const now = () => new Date("2026-11-24T12:00:00Z");
const TRACKED = ["State", "Accounted ID", "Paid ID", "Paid at (UTC)"];

/** Status, the tracked cells and their fills of some records' rows. */
function shown(excel: FakeExcel, table: string, ids: string[]) {
  const t = tableView(excel, table);
  return ids.map((id) => {
    const row = t.values("Expense ID").indexOf(id);
    return { status: t.values("Sync status")[row], values: TRACKED.map((h) => t.values(h)[row]), fills: TRACKED.map((h) => t.fill(h, row)) };
  });
}

it("through Refresh, Refresh All, save and reopen, and another table's load; Preview then says what it said before; a discard takes it away", async () => {
  const table = await loadFor(f, { resource: "expenses" });
  const all = f.sandbox.store.expensesOf(f.sub);
  const [a, c] = all.filter((e) => e.state === "approved");
  const b = all.find((e) => e.state === "paid")!;
  edit(f, table, a.id, { State: "paid", "Paid at (UTC)": "24/11/2026" });
  edit(f, table, b.id, { State: "accounted" });
  edit(f, table, c.id, { State: "accounted", "Accounted ID": "ACC-KEPT-1" });
  const first = await previewInSheet(f.workbook, table);
  const firstStatuses = shown(f.excel, table, [a.id, b.id]).map((r) => r.status);
  expect(first.counts).toMatchObject({ change: 1, invalid: 2 });
  await runSync(f.client, f.workbook, first, { now });
  const afterSync = shown(f.excel, table, [a.id, b.id]);
  expect(afterSync.map((r) => r.status)).toEqual([expect.stringMatching(/^Not sent, fix the row/), expect.stringMatching(/^Not sent, fix the row/)]);
  const marks = [[EDITED_FILL, EDITABLE_FILL, EDITABLE_FILL, EDITED_FILL], [EDITED_FILL, EDITABLE_FILL, EDITABLE_FILL, EDITABLE_FILL]];
  expect(afterSync.map((r) => r.fills)).toEqual(marks);

  // Refresh: statuses say what they are; marks and values stay.
  const refreshed = await refreshTable(f.client, f.workbook, table, { now });
  expect(refreshed).toMatchObject({ keptEdits: 2, conflicts: 0, refreshed: { whole: false } });
  const kept = shown(f.excel, table, [a.id, b.id]);
  expect(kept[0].status).toBe("Unsynced: paid, Paid at 24/11/2026 (server: approved)");
  expect(kept[1].status).toMatch(/^Unsynced: accounted(, [^()]*)? \(server: paid(, [^()]*)?\)$/);
  expect(kept.map((r) => r.fills)).toEqual(marks);
  expect(kept.map((r) => r.values)).toEqual(afterSync.map((r) => r.values));

  // Refresh All, another table loaded beside it, then the workbook saved and opened again (its model copied).
  await loadTable(f.client, f.workbook, { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub }, { now });
  expect((await refreshAll(f.client, f.workbook, { now })).map((o) => o.kind)).toEqual(["refreshed", "refreshed"]);
  expect(shown(f.excel, table, [a.id, b.id])).toEqual(kept);
  const reopened = new FakeExcel(f.excel.model.copy());
  const workbook = new ExcelWorkbook(reopened);
  expect(shown(reopened, table, [a.id, b.id])).toEqual(kept);
  await refreshTable(f.client, workbook, table, { now });
  expect(shown(reopened, table, [a.id, b.id])).toEqual(kept);

  // Preview after all that: what it said before the refresh.
  const again = await previewInSheet(workbook, table);
  expect(again.counts).toMatchObject({ change: 0, invalid: 2 });
  expect(shown(reopened, table, [a.id, b.id]).map((r) => r.status)).toEqual(firstStatuses);
  expect(again.rows.map((r) => [r.id, r.kind, r.message])).toEqual(first.rows.filter((r) => r.id !== c.id).map((r) => [r.id, r.kind, r.message]));

  // Discarded: the server's values, no mark, no status.
  await discardEdits(workbook, table, [a.id, b.id]);
  const discarded = shown(reopened, table, [a.id, b.id]);
  expect(discarded.map((r) => r.fills)).toEqual([Array(4).fill(EDITABLE_FILL), Array(4).fill(EDITABLE_FILL)]);
  expect(discarded[0].values[0]).toBe("approved");
  const cleared = await previewInSheet(workbook, table);
  expect(cleared.counts).toMatchObject({ change: 0, invalid: 0 });
  expect(shown(reopened, table, [a.id, b.id]).map((r) => r.status)).toEqual(["", ""]);
});
