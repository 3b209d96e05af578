/**
 * A value typed in a column that is not synced (Amount, Description…) is never dropped without a trace
 * (issue 24): Preview names it in the row's status and marks the cell, Sync states sends only the tracked
 * fields, a refresh that does not replace it leaves it named, and the marks go once the value is put back.
 */
import { updateExpense } from "../../src/api";
import { EDITED_FILL, loadTable, refreshTable } from "../../src/sheets";
import { PREVIEW_FILLS, TYPED_NOTE_PREFIX, previewInSheet, runSync, typedNote } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, fillOf, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const now = () => new Date("2026-11-24T10:00:00Z");

describe("values typed over the service's cells", () => {
  it("are named by Preview (status and mark), never sent, and forgotten once put back", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b, c] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
    const amountOfA = cellOf(f, table, a.id, "Amount");
    edit(f, table, a.id, { Amount: 999 });
    edit(f, table, b.id, { Description: "My own words", State: "accounted", "Accounted ID": "ACC-B" });

    const preview = await previewInSheet(f.workbook, table);
    expect(preview.counts).toMatchObject({ change: 1, invalid: 0, typed: 2 });
    expect(preview.typed.map((t) => [t.id, t.header, t.typed])).toEqual([[a.id, "Amount", 999], [b.id, "Description", "My own words"]]);
    const noteA = typedNote([{ row: 0, id: a.id, header: "Amount", typed: 999 }]);
    expect(noteA).toBe(`${TYPED_NOTE_PREFIX}Amount is the service's (typed here: Amount 999); Sync states sends only State, Accounted ID, Paid ID and Paid at. Refresh asks before it replaces a typed value.`);
    expect(cellOf(f, table, a.id, "Sync status")).toBe(noteA);
    expect(fillOf(f, table, a.id, "Sync status")).toBe(PREVIEW_FILLS.typed);
    expect(fillOf(f, table, a.id, "Amount")).toBe(EDITED_FILL);
    expect(cellOf(f, table, b.id, "Sync status")).toMatch(/^Will send: approved → accounted \(Accounted ID: ACC-B\) Not sent: Description is the service's/);
    expect(fillOf(f, table, b.id, "Description")).toBe(EDITED_FILL);
    // Untouched rows: no status, no mark.
    expect([cellOf(f, table, c.id, "Sync status"), fillOf(f, table, c.id, "Amount")]).toEqual(["", undefined]);

    // Sync states sends b's state and Accounted ID, never its description.
    const report = await runSync(f.client, f.workbook, preview, { now });
    expect(report.counts.applied).toBe(1);
    expect(f.sandbox.store.expense(f.sub, b.id)).toMatchObject({ state: "accounted", accounted_id: "ACC-B", description: b.description });

    // A put back: its status and mark go; b's typed description is still named.
    edit(f, table, a.id, { Amount: amountOfA as number });
    const again = await previewInSheet(f.workbook, table);
    expect(again.typed.map((t) => t.id)).toEqual([b.id]);
    expect([cellOf(f, table, a.id, "Sync status"), fillOf(f, table, a.id, "Amount")]).toEqual(["", undefined]);
    expect(cellOf(f, table, b.id, "Sync status")).toMatch(new RegExp(`^${TYPED_NOTE_PREFIX}Description is the service's`));
  });

  it("on a row no longer returned by its query: named after the row's mark, which stays", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
    await updateExpense(f.client, f.sub, a.id, { state: "accounted", accounted_id: "ACC-ELSEWHERE" });
    await refreshTable(f.client, f.workbook, table, { now });
    edit(f, table, a.id, { Amount: 999 });
    const preview = await previewInSheet(f.workbook, table);
    expect(preview.counts.typed).toBe(1);
    expect(cellOf(f, table, a.id, "Sync status")).toMatch(/^Not returned by the service any more for this table's query\. Not sent: Amount is the service's/);
  });

  it("a refresh of a record the service did not change leaves the typed value, still named by the next Preview", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    const [a, b] = f.sandbox.store.expensesOf(f.sub);
    edit(f, table, a.id, { Amount: 999 });
    f.sandbox.store.expense(f.sub, b.id)!.description = "Changed on the server";
    const report = await refreshTable(f.client, f.workbook, table, { now, onTyped: async () => { throw new Error("not asked: a's record did not change"); } });
    expect(report).toMatchObject({ updated: 1, typed: { kept: [], replaced: 0 } });
    expect(cellOf(f, table, a.id, "Amount")).toBe(999);
    expect((await previewInSheet(f.workbook, table)).typed.map((t) => [t.id, t.header])).toEqual([[a.id, "Amount"]]);
  });

  it("an allowance's Updated at written by Sync states is not taken for a typed value (its fingerprint follows)", async () => {
    const table = await loadFor(f, { resource: "allowances", state: "approved" });
    const [a] = f.sandbox.store.allowancesOf(f.sub).filter((x) => x.state === "approved");
    const before = cellOf(f, table, a.id, "Updated (UTC)");
    edit(f, table, a.id, { State: "accounted", "Accounted ID": "ACC-A" });
    const report = await runSync(f.client, f.workbook, await previewInSheet(f.workbook, table), { now });
    expect(report.counts.applied).toBe(1);
    expect(cellOf(f, table, a.id, "Updated (UTC)")).not.toBe(before);
    const after = await previewInSheet(f.workbook, table);
    expect(after.typed).toEqual([]);
    expect(after.counts).toMatchObject({ change: 0, invalid: 0, typed: 0 });
  });

  it("a table loaded before fingerprints existed has none to compare with: nothing is named", async () => {
    const { tableName } = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const snap = f.excel.model.table(`Snap_${tableName}`)!;
    for (const line of snap.sheet.cells.values()) {
      line.delete(snap.area.column + 6);
      line.delete(snap.area.column + 7);
    }
    snap.area.columnCount = 6;
    const [a] = f.sandbox.store.expensesOf(f.sub);
    edit(f, tableName, a.id, { Amount: 999 });
    expect((await previewInSheet(f.workbook, tableName)).typed).toEqual([]);
    expect(tableView(f.excel, tableName).values("Sync status").filter((s) => s !== "")).toEqual([]);
  });
});
