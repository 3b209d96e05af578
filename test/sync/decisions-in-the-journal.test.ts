/**
 * Rows Sync states decides without a request (invalid, to check and not confirmed) each get one journal line
 * saying so: Request "none", no fields sent, no HTTP status, From as loaded (empty for a record this table
 * never loaded), To as the row asks, and the very message the row's status shows, on every row it concerns.
 */
import { updateExpense } from "../../src/api";
import { refreshTable } from "../../src/sheets";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("an ID typed over, a state that does not exist and an id to check: one line each, and the row says the same", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [moved, payed, check] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, moved.id, { State: "accounted" });
  edit(f, table, moved.id, { "Expense ID": "EXP-TYPED" });
  edit(f, table, payed.id, { State: "payed" });
  edit(f, table, check.id, { State: "paid", "Paid ID": "$1250" });
  const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table), { now: () => new Date("2026-11-21T10:00:00Z"), runId: "r", by: "Ana" });
  expect(report.counts).toMatchObject({ invalid: 2, check: 1 });
  expect(report.requests).toBe(0);

  const messages = {
    "EXP-TYPED": "Record EXP-TYPED was not loaded into this table (was the ID cell edited?). Put the ID back, or refresh the table to load it.",
    [payed.id]: '"payed" is not a state of an expense; choose accounted or paid.',
    [check.id]: 'Paid ID "$1250" looks like an amount, not the id of an entry or a payment. Not confirmed, so not sent: fix the cell, or preview again and confirm it as it is.',
  };
  const j = tableView(f.excel, JOURNAL_TABLE);
  // A decision records no request: its exact request is empty.
  expect(j.rows.map((r) => r[13])).toEqual(j.rows.map(() => ""));
  expect(j.rows.map((r) => r.slice(1, 13)).sort((x, y) => String(x[4]).localeCompare(String(y[4])))).toEqual([
    ["r", "Ana", table, "expense", "EXP-TYPED", "", "accounted", "none", "", "", "invalid", messages["EXP-TYPED"]],
    ["r", "Ana", table, "expense", payed.id, "approved", "payed", "none", "", "", "invalid", messages[payed.id]],
    ["r", "Ana", table, "expense", check.id, "approved", "paid", "none", "", "", "check", messages[check.id]],
  ].sort((x, y) => String(x[4]).localeCompare(String(y[4]))));
  const t = tableView(f.excel, table);
  const status = (id: string) => t.values("Sync status")[t.values(t.header[0]).indexOf(id)];
  expect(status("EXP-TYPED")).toBe(`Not sent, fix the row 2026-11-21 10:00 UTC: ${messages["EXP-TYPED"]}`);
  expect(cellOf(f, table, payed.id, "Sync status")).toBe(`Not sent, fix the row 2026-11-21 10:00 UTC: ${messages[payed.id]}`);
  expect(cellOf(f, table, check.id, "Sync status")).toBe(`Not sent, check the row 2026-11-21 10:00 UTC: ${messages[check.id]}`);
});

it("a row without ID, a record on two rows, and an edit on a record gone from the query: each row says why, each has its line", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [idless, twice, typedOver, gone] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, gone.id, { State: "accounted", "Accounted ID": "ACC-G" });
  await updateExpense(f.client, f.sub, gone.id, { state: "paid", paid_id: "PAY-THEIRS" });
  await refreshTable(f.client, f.workbook, table); // the record leaves the "approved" query; its row keeps the edit
  edit(f, table, idless.id, { State: "accounted" });
  edit(f, table, idless.id, { "Expense ID": "" });
  edit(f, table, twice.id, { State: "accounted" });
  const second = edit(f, table, typedOver.id, { "Expense ID": twice.id });
  const first = tableView(f.excel, table).values("Expense ID").indexOf(twice.id);
  const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table), { now: () => new Date("2026-11-21T10:00:00Z"), runId: "r", by: "Ana" });
  expect(report.counts).toMatchObject({ invalid: 3 });
  expect(report.requests).toBe(0);

  const noId = "This row has no record ID, so it cannot be synced. Records are loaded by Spend Sync; do not add rows by hand.";
  const duplicate = `This record appears in 2 rows (${first + 2}, ${second + 2}): keep one row per record, then sync.`;
  const goneEdit = "This record is no longer returned by this table's query (see its status), so its edit is not sent. " +
    "Refresh to see whether it is back, or load a query that returns it and edit it there.";
  const t = tableView(f.excel, table);
  const statuses = t.values("Sync status");
  const ids = t.values("Expense ID");
  expect(statuses[ids.indexOf("")]).toBe(`Not sent, fix the row 2026-11-21 10:00 UTC: ${noId}`);
  expect([statuses[first], statuses[second]]).toEqual([0, 1].map(() => `Not sent, fix the row 2026-11-21 10:00 UTC: ${duplicate}`));
  // The row keeps the start Refresh gave it, so the next Preview still knows the record is gone.
  expect(cellOf(f, table, gone.id, "Sync status")).toBe(
    "Not returned by the service any more for this table's query (2026-11-21 10:00 UTC): your edit was not sent. " +
      "Refresh to see whether it is back, or load a query that returns it and edit it there.",
  );
  expect(cellOf(f, table, gone.id, "State")).toBe("accounted");

  const j = tableView(f.excel, JOURNAL_TABLE);
  expect(j.rows.map((r) => r.slice(1, 13)).sort((x, y) => String(x[11]).localeCompare(String(y[11])))).toEqual([
    ["r", "Ana", table, "expense", "", "", "accounted", "none", "", "", "invalid", noId],
    ["r", "Ana", table, "expense", gone.id, "approved", "accounted", "none", "", "", "invalid", goneEdit],
    ["r", "Ana", table, "expense", twice.id, "approved", "accounted", "none", "", "", "invalid", duplicate],
  ].sort((x, y) => String(x[11]).localeCompare(String(y[11]))));
});

it("a row emptied of its ID and tracked cells is no edit: Preview lists nothing for it, and its record counts as deleted from the sheet", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [emptied, idOnly] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, emptied.id, { State: "", "Accounted ID": "", "Paid ID": "", "Paid at (UTC)": "" });
  edit(f, table, emptied.id, { "Expense ID": "" });
  edit(f, table, idOnly.id, { "Expense ID": "" }); // its State (approved) is still there: a row without ID
  const preview = await previewSync(f.workbook, table);
  expect(preview.counts).toMatchObject({ invalid: 1, deleted: 2 });
  expect(preview.rows.map((r) => [r.id, r.kind])).toEqual([["", "invalid"]]);
  expect([...preview.deleted].sort()).toEqual([emptied.id, idOnly.id].sort());
});
