/**
 * Preview lists the rows it will send and those it will not in the order of the sheet (a row without ID where
 * it is, not first), counts every kind, and what the user confirms is the set of edits, not their order: the
 * table sorted after Preview still syncs.
 */
import { updateExpense } from "../../src/api";
import { refreshTable } from "../../src/sheets";
import { previewInSheet, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("rows in sheet order, each kind counted", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  await updateExpense(f.client, f.sub, String(tableView(f.excel, table).values("Expense ID")[0]), { state: "accounted" });
  await refreshTable(f.client, f.workbook, table); // the record left the query: Refresh marks its row gone
  const ids = tableView(f.excel, table).values("Expense ID").map(String);
  const [r0, r1, r2, r3, r4, r5, r6, r7] = ids;
  expect(f.sandbox.store.expense(f.sub, r0)!.state).toBe("accounted");
  // Row 7 is typed over (Description), row 6 deleted from the sheet's point of view (its ID cleared with its cells).
  edit(f, table, r1, { State: "accounted" });
  edit(f, table, r2, { "Accounted ID": "A-2" }); // invalid: no change of state
  edit(f, table, r4, { State: "paid", "Paid ID": "$1250" }); // to check
  edit(f, table, r5, { State: "paid", "Paid ID": "PAY-5" });
  edit(f, table, r3, { State: "accounted" });
  edit(f, table, r3, { "Expense ID": "" }); // a row without ID, below the others' first rows
  edit(f, table, r6, { State: "", "Accounted ID": "", "Paid ID": "", "Paid at (UTC)": "" });
  edit(f, table, r6, { "Expense ID": "" });
  edit(f, table, r7, { Description: "typed over" });

  const preview = await previewInSheet(f.workbook, table);
  expect(preview.rows.map((r) => [r.id, r.kind])).toEqual([[r1, "change"], [r2, "invalid"], ["", "invalid"], [r4, "check"], [r5, "change"]]);
  const unchanged = ids.length - 1 /* gone */ - 2 /* no ID */ - 4 /* edited */;
  expect(preview.counts).toEqual({ change: 2, check: 1, invalid: 2, unchanged, deleted: 2, gone: 1, typed: 1 });
  expect([...preview.deleted].sort()).toEqual([r3, r6].sort());
  expect(preview.typed.map((t) => [t.id, t.header, t.typed])).toEqual([[r7, "Description", "typed over"]]);
});

it("the table sorted after Preview: the same edits, so the run goes ahead", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b, c] = tableView(f.excel, table).values("Expense ID").map(String);
  edit(f, table, a, { State: "accounted", "Accounted ID": "ACC-A" });
  edit(f, table, b, { State: "payed" });
  edit(f, table, c, { State: "paid", "Paid ID": "PAY-C" });
  const preview = await previewSync(f.workbook, table);
  f.excel.user.sortTable(table, "Description", false);
  expect(tableView(f.excel, table).values("Expense ID").slice(0, 3)).not.toEqual([a, b, c]);
  const report = await runSync(f.client, f.workbook, preview);
  expect(report.counts).toMatchObject({ applied: 2, invalid: 1 });
});
