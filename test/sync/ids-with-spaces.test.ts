/**
 * An ID cell with spaces around it (pasted from another sheet) still names its record: Preview plans and
 * names its typed values, Sync states sends its edit and writes the outcome on that row.
 */
import { previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("\" id \": planned, typed value named, sent once, its status on its row", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  const row = edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-1", Amount: 999 });
  edit(f, table, e.id, { "Expense ID": ` ${e.id} ` });
  const preview = await previewSync(f.workbook, table);
  expect(preview.rows.map((r) => [r.id, r.kind])).toEqual([[e.id, "change"]]);
  // The ID cell itself no longer holds what was loaded there: it is named too.
  expect(preview.typed.map((t) => [t.id, t.header]).sort()).toEqual([[e.id, "Amount"], [e.id, "Expense ID"]]);
  const report = await runSync(f.client, f.workbook, preview, { now: () => new Date("2026-11-21T10:00:00Z") });
  expect(report.counts.applied).toBe(1);
  expect(f.sandbox.store.transitionsOf(e.id)).toHaveLength(1);
  expect(tableView(f.excel, table).values("Sync status")[row]).toBe("Applied 2026-11-21 10:00 UTC: approved → accounted");
});
