/**
 * Refresh writes only what changed (issue 27): the user's own columns are never written (their formulas,
 * errors and data types stay exactly as they were, read through Office.js as an add-in reads them), only
 * the cells of records that changed are, a value typed over the service's cells is replaced only with the
 * user's consent, and the result is the table a whole rewrite would leave.
 */
import { updateExpense } from "../../src/api";
import type { ExpenseRec } from "../../src/sandbox/model";
import { EDITED_FILL, refreshTable, snapshotTableOf, type LoadOptions, type TypedCell } from "../../src/sheets";
import { DUPLICATE_NOTE } from "../../src/sheets/refresh/plan";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { previewInSheet } from "../../src/sync";
import { FakeExcel } from "../../src/workbench/fake-excel";
import type { WorkbookModel } from "../../src/workbench/fake-excel/model";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { REFRESH_NOW, tableView, withApprovedExpenses, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
let tableName: string;
const now = REFRESH_NOW;

beforeEach(async () => {
  ({ f, tableName } = await withApprovedExpenses());
});
afterEach(() => f.sandbox.close());

const ids = () => tableView(f.excel, tableName).values("Expense ID") as string[];

/** Every cell of a sheet as [row, column, value, formula, format, fill], for comparing two states. */
function cellsOf(model: WorkbookModel, sheetName: string) {
  const sheet = model.sheet(sheetName)!;
  const out = new Map<string, string>();
  for (const [row, line] of sheet.cells) {
    for (const [column, cell] of line) out.set(`${row},${column}`, JSON.stringify([cell.value, cell.formula ?? null, cell.numberFormat, cell.fill ?? null, cell.rich ?? null]));
  }
  return out;
}

/** Every rows read `workbook` is asked for, as "table: rows" (each table's name as `label` gives it), while it answers as before. */
function recordReads(workbook: ExcelWorkbook, label: (table: string) => string = (table) => table): string[] {
  const reads: string[] = [];
  const readRows = workbook.readRows.bind(workbook);
  workbook.readRows = async (table, rows, headers) => {
    reads.push(`${label(table)}: ${rows.join(",")}`);
    return readRows(table, rows, headers);
  };
  return reads;
}

/** The cells that differ between two states of a sheet, as "row,column". */
function changedCells(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

/** A refresh on a copy of the workbook as it is now (the saved workbook opened twice): its Excel, its report, its request bytes. */
async function refreshCopy(options: LoadOptions = {}) {
  const excel = new FakeExcel(f.excel.model.copy());
  const report = await refreshTable(f.client, new ExcelWorkbook(excel), tableName, { now, ...options });
  const requests = excel.stats.requests.filter((r) => !r.cleanup);
  return { excel, report, bytes: requests.reduce((sum, r) => sum + r.bytes, 0), requests: requests.length };
}

describe("the user's own columns", () => {
  it("keep their formulas, an error value, an entity and a linked data type exactly (valuesAsJson, formulas, formats before and after); the whole rewrite would not", async () => {
    const t = tableView(f.excel, tableName);
    const right = f.excel.model.table(tableName)!.area;
    const [double, check, team, ticker] = [0, 1, 2, 3].map((i) => columnLetters(right.column + right.columnCount + i));
    const sheet = t.sheet.name;
    f.excel.user.type(sheet, `${double}1`, "Double");
    f.excel.user.type(sheet, `${check}1`, "Check");
    f.excel.user.type(sheet, `${team}1`, "Team");
    f.excel.user.type(sheet, `${ticker}1`, "Ticker");
    const rows = t.rows.length;
    for (let r = 2; r <= rows + 1; r++) f.excel.user.type(sheet, `${double}${r}`, `=${t.letter("Amount")}${r}*2`);
    f.excel.user.insertValue(sheet, `${check}3`, { type: "Error", errorType: "NotAvailable", basicValue: "#N/A" });
    f.excel.user.insertValue(sheet, `${team}4`, { type: "Entity", text: "Audit team", properties: { Lead: { type: "String", basicValue: "Ana Ruiz" } } });
    f.excel.user.insertValue(sheet, `${ticker}5`, {
      type: "LinkedEntity", text: "Microsoft Corp", basicValue: "#VALUE!",
      id: { entityId: "XNAS:MSFT", domainId: "securities", serviceId: 268435456, culture: "en-US" },
    });
    await f.excel.run(async (context) => {
      context.workbook.worksheets.getItem(sheet).getRange(`${double}2:${double}${rows + 1}`).numberFormat = Array.from({ length: rows }, () => ["0.000"]);
      await context.sync();
    });
    expect(tableView(f.excel, tableName).header.slice(-4)).toEqual(["Double", "Check", "Team", "Ticker"]); // Excel grows a table over a column typed beside it

    const userArea = `${double}1:${ticker}${rows + 1}`;
    const readUserCells = (excel: FakeExcel) => excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem(sheet).getRange(userArea).load(["valuesAsJson", "formulas", "numberFormat"]);
      await context.sync();
      return { valuesAsJson: range.valuesAsJson, formulas: range.formulas, numberFormat: range.numberFormat };
    });
    const before = await readUserCells(f.excel);
    expect(before.valuesAsJson[2][1]).toMatchObject({ type: "Error", errorType: "NotAvailable" });
    expect(before.valuesAsJson[3][2]).toMatchObject({ type: "Entity", text: "Audit team" });
    expect(before.valuesAsJson[4][3]).toMatchObject({ type: "LinkedEntity", text: "Microsoft Corp" });

    // On the server: three records change, one leaves the query, one arrives.
    const [a, b, c, gone] = ids();
    f.sandbox.store.expense(f.sub, a)!.description = "Changed on the server";
    f.sandbox.store.expense(f.sub, b)!.amount = 4321.5;
    await updateExpense(f.client, f.sub, c, { state: "accounted", accounted_id: "ACC-SERVER" });
    await updateExpense(f.client, f.sub, gone, { state: "accounted", accounted_id: "ACC-GONE" });
    const template = f.sandbox.store.expense(f.sub, ids()[5])!;
    f.sandbox.store.insertExpense({ ...template, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999, description: "New on the server" } as ExpenseRec);

    const whole = await refreshCopy({ wholeTable: true });
    const report = await refreshTable(f.client, f.workbook, tableName, { now });
    expect(report).toMatchObject({ added: 1, removed: 2, updated: 2, refreshed: { whole: false }, userColumns: ["Double", "Check", "Team", "Ticker"] });
    // c left the "approved" query when it was marked accounted, like `gone`: both are kept and marked.
    const after = tableView(f.excel, tableName);
    expect(after.values("Description")[0]).toBe("Changed on the server");
    expect(after.values("Amount")[1]).toBe(4321.5);
    expect(after.values("Sync status")[2]).toMatch(/^Not returned by the service any more/);
    expect(after.values("Description").at(-1)).toBe("New on the server");

    const afterCells = await readUserCells(f.excel);
    // The formulas calculate (Excel does): Double follows the amount the server changed; every other cell is as it was.
    expect(afterCells.valuesAsJson.slice(1).map((line) => line[0])).toEqual(after.values("Amount").slice(0, rows).map((amount) => ({ type: "Double", basicValue: Number(amount) * 2 })));
    expect(afterCells.valuesAsJson[2][0]).toEqual({ type: "Double", basicValue: 4321.5 * 2 });
    const withoutDouble = (cells: Excel.CellValue[][]) => cells.map((line) => line.slice(1));
    expect(withoutDouble(afterCells.valuesAsJson)).toEqual(withoutDouble(before.valuesAsJson));
    expect(afterCells.formulas).toEqual(before.formulas);
    expect(afterCells.numberFormat).toEqual(before.numberFormat);
    // The comparison would catch the rewrite: the whole table written back turns the data types into their text.
    const rewritten = await readUserCells(whole.excel);
    expect(rewritten.valuesAsJson).not.toEqual(before.valuesAsJson);
  });
});

describe("what Refresh writes", () => {
  it("only the cells of the records that changed, and their snapshot rows; nothing when nothing changed", async () => {
    const sheetName = tableView(f.excel, tableName).sheet.name;
    const snapSheet = f.excel.model.table(snapshotTableOf(tableName))!.sheet.name;
    const nothing = await refreshCopy();
    expect(nothing.report).toMatchObject({ updated: 0, added: 0, removed: 0 });
    expect(changedCells(cellsOf(f.excel.model, sheetName), cellsOf(nothing.excel.model, sheetName))).toEqual([]);
    expect(changedCells(cellsOf(f.excel.model, snapSheet), cellsOf(nothing.excel.model, snapSheet))).toEqual([]);

    const list = ids();
    const changed = [list[3], list[17], list[40]];
    for (const id of changed) f.sandbox.store.expense(f.sub, id)!.description = `Renamed ${id.slice(0, 4)}`;
    const before = { table: cellsOf(f.excel.model, sheetName), snapshot: cellsOf(f.excel.model, snapSheet) };
    const some = await refreshCopy();
    const whole = await refreshCopy({ wholeTable: true });
    expect(some.report).toMatchObject({ updated: 3, added: 0, removed: 0, count: list.length });
    const top = f.excel.model.table(tableName)!.area.row;
    const rowsTouched = [...new Set(changedCells(before.table, cellsOf(some.excel.model, sheetName)).map((k) => Number(k.split(",")[0]) - top - 1))];
    expect(rowsTouched.sort((x, y) => x - y)).toEqual([3, 17, 40]);
    // Their description cells, and in the snapshot the digest and fingerprints of the same three records.
    expect(changedCells(before.table, cellsOf(some.excel.model, sheetName))).toHaveLength(3);
    const snapRows = changedCells(before.snapshot, cellsOf(some.excel.model, snapSheet)).map((k) => k.split(",")[0]);
    expect(new Set(snapRows).size).toBe(3);
    // The whole rewrite sends the table again; this sends a few cells.
    expect(some.bytes).toBeLessThan(whole.bytes / 5);
    expect(some.requests).toBeLessThan(whole.requests);
  });

  it("leaves the table a whole rewrite leaves: changes, new and gone records, kept edits, conflicts, a duplicate row and old statuses", async () => {
    const list = ids();
    const t = tableView(f.excel, tableName);
    const sheet = t.sheet.name;
    // Edits: one the server does not touch (kept), one on a record the server changes too (conflict).
    f.excel.user.type(sheet, t.address("State", 1), "paid");
    f.excel.user.type(sheet, t.address("Paid ID", 1), "PAY-KEPT");
    f.excel.user.type(sheet, t.address("Accounted ID", 2), "ACC-MINE");
    f.excel.user.type(sheet, t.address("State", 2), "accounted");
    // A status left by an earlier sync, and a row pasted twice.
    f.excel.user.paste(sheet, t.address("Sync status", 6), "Applied 2026-11-20 10:00 UTC: approved → accounted");
    f.excel.user.paste(sheet, t.address("Expense ID", 8), list[9]);
    // The server: a description, a conflict on record 2, a record gone from the query, a new one.
    f.sandbox.store.expense(f.sub, list[4])!.description = "Renamed";
    f.sandbox.store.expense(f.sub, list[2])!.accounted_id = "ACC-THEIRS";
    await updateExpense(f.client, f.sub, list[7], { state: "accounted", accounted_id: "ACC-7" });
    const template = f.sandbox.store.expense(f.sub, list[5])!;
    f.sandbox.store.insertExpense({ ...template, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999 } as ExpenseRec);

    const some = await refreshCopy();
    const whole = await refreshCopy({ wholeTable: true });
    // Added: the new record, and the one whose id was pasted over (its row now names record 9).
    expect(some.report).toMatchObject({ keptEdits: 1, conflicts: 1, added: 2, removed: 1, refreshed: { whole: false } });
    expect(whole.report).toMatchObject({ keptEdits: 1, conflicts: 1, added: 2, removed: 1, refreshed: { whole: true } });
    const mine = tableView(some.excel, tableName);
    const theirs = tableView(whole.excel, tableName);
    expect(mine.header).toEqual(theirs.header);
    expect(mine.rows).toEqual(theirs.rows);
    // The snapshot holds the same records (its order is its own: a whole rewrite writes them in the server's).
    // A record gone from the query keeps its loaded values; its fingerprints no longer matter (a whole rewrite drops them).
    const byId = (rows: unknown[][]) => [...rows].sort((x, y) => String(x[0]).localeCompare(String(y[0])))
      .map((row) => (row[0] === list[7] ? row.slice(0, 6) : row));
    expect(byId(tableView(some.excel, snapshotTableOf(tableName)).rows)).toEqual(byId(tableView(whole.excel, snapshotTableOf(tableName)).rows));
    expect(mine.values("Sync status")[9]).toBe(DUPLICATE_NOTE);
    expect(mine.values("Sync status")[6]).toBe("");
    expect(mine.values("Sync status")[2]).toMatch(/^Edited here and changed on the server/);
    expect([mine.values("State")[1], mine.values("Paid ID")[1]]).toEqual(["paid", "PAY-KEPT"]);
  });

  it("with the user's edits discarded, writes the server's values over them, as the whole rewrite does", async () => {
    const t = tableView(f.excel, tableName);
    f.excel.user.type(t.sheet.name, t.address("State", 1), "paid");
    const some = await refreshCopy({ discardEdits: true });
    const whole = await refreshCopy({ discardEdits: true, wholeTable: true });
    expect(some.report.discardedEdits).toBe(1);
    expect(tableView(some.excel, tableName).rows).toEqual(tableView(whole.excel, tableName).rows);
    expect(tableView(some.excel, tableName).values("State")[1]).toBe("approved");
  });
});

describe("values typed over the service's cells", () => {
  it("in a record the server changed: the user is asked, and keeps them or takes the service's; in a record it did not change: left alone, not asked", async () => {
    const list = ids();
    const t = tableView(f.excel, tableName);
    const sheet = t.sheet.name;
    const serviceAmount = t.values("Amount")[0];
    f.excel.user.type(sheet, t.address("Amount", 0), "999");
    f.excel.user.type(sheet, t.address("Description", 1), "My own words");
    // The user typed exactly what the service now has: nothing to ask about.
    f.excel.user.type(sheet, t.address("Description", 2), "Same as the server");
    f.sandbox.store.expense(f.sub, list[0])!.description = "Changed on the server";
    f.sandbox.store.expense(f.sub, list[2])!.description = "Same as the server";

    // Preview names and marks them first (the replaced one must lose its mark).
    await previewInSheet(f.workbook, tableName);
    expect(tableView(f.excel, tableName).fill("Amount", 0)).toBe(EDITED_FILL);
    const asked: TypedCell[][] = [];
    const kept = await refreshCopy({ onTyped: async (typed) => (asked.push([...typed]), "keep") });
    expect(asked).toEqual([[{ id: list[0], row: 0, header: "Amount", typed: 999, service: serviceAmount }]]);
    expect(kept.report.typed).toEqual({ kept: asked[0], replaced: 0 });
    const keptView = tableView(kept.excel, tableName);
    expect([keptView.values("Amount")[0], keptView.values("Description")[0]]).toEqual([999, "Changed on the server"]);
    expect(keptView.fill("Amount", 0)).toBe(EDITED_FILL); // marked as the user's
    expect(keptView.values("Description")[1]).toBe("My own words");

    const replaced = await refreshCopy({ onTyped: async () => "replace" });
    expect(replaced.report.typed).toEqual({ kept: [], replaced: 1 });
    expect(tableView(replaced.excel, tableName).values("Amount")[0]).toBe(serviceAmount);
    expect(tableView(replaced.excel, tableName).fill("Amount", 0)).toBeUndefined(); // no mark (a cleared fill)
    expect(tableView(replaced.excel, tableName).values("Description")[1]).toBe("My own words");

    // Nobody to ask: kept, and reported.
    const unasked = await refreshCopy();
    expect(unasked.report.typed.kept.map((c) => c.header)).toEqual(["Amount"]);
    expect(tableView(unasked.excel, tableName).values("Amount")[0]).toBe(999);
  });
});

describe("when Refresh cannot write only what changed", () => {
  it("a snapshot from before the fingerprints: the table is written whole once, saying why; the next refresh writes what changed", async () => {
    const snap = f.excel.model.table(snapshotTableOf(tableName))!;
    for (const line of snap.sheet.cells.values()) {
      line.delete(snap.area.column + 6);
      line.delete(snap.area.column + 7);
    }
    snap.area.columnCount = 6;
    const first = await refreshTable(f.client, f.workbook, tableName, { now });
    expect(first.refreshed).toEqual({ whole: true, why: "it was loaded by an earlier version of Spend Sync" });
    const second = await refreshTable(f.client, f.workbook, tableName, { now });
    expect(second).toMatchObject({ refreshed: { whole: false }, updated: 0 });
  });

  it("a column of the layout deleted by the user: the table is written whole, the column back", async () => {
    const t = tableView(f.excel, tableName);
    const table = f.excel.model.table(tableName)!;
    const at = t.column("Description");
    for (const line of t.sheet.cells.values()) {
      for (let c = table.area.column + at; c < table.area.column + table.area.columnCount; c++) {
        const next = line.get(c + 1);
        if (next) line.set(c, next);
        else line.delete(c);
      }
    }
    table.area.columnCount -= 1;
    const report = await refreshTable(f.client, f.workbook, tableName, { now });
    expect(report.refreshed).toEqual({ whole: true, why: 'its column "Description" is missing' });
    expect(tableView(f.excel, tableName).header).toContain("Description");
  });
});

describe("rows added below the table", () => {
  it("are refused, before anything is written, where cells below the table hold data", async () => {
    const t = tableView(f.excel, tableName);
    const below = `${t.letter("Description")}${t.rows.length + 3}`;
    f.excel.user.type(t.sheet.name, below, "my note under the table");
    const list = ids();
    f.sandbox.store.expense(f.sub, list[0])!.description = "Changed on the server";
    f.sandbox.store.insertExpense({ ...f.sandbox.store.expense(f.sub, list[1])!, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999 } as ExpenseRec);
    f.sandbox.store.insertExpense({ ...f.sandbox.store.expense(f.sub, list[1])!, id: "11111111-2222-4333-8444-555555555556", expense_number: 99998 } as ExpenseRec);
    const before = cellsOf(f.excel.model, t.sheet.name);
    await expect(refreshTable(f.client, f.workbook, tableName, { now })).rejects.toThrow(
      `Refresh would add 2 rows below ${tableName}, and '${t.sheet.name}'!${below} there holds data. Nothing was written: move those cells (or insert empty rows under the table), then refresh again.`,
    );
    expect(changedCells(before, cellsOf(f.excel.model, t.sheet.name))).toEqual([]);
  });

  it("are refused naming where the person's data is, however much of it there is: it is never read, only found", async () => {
    const t = tableView(f.excel, tableName);
    const top = t.rows.length + 2; // the first sheet row under the table (its header is row 1)
    // The four rows the refresh would take, full of the person's notes (2 MB and more): asked for all of their
    // properties, Excel's answer would pass its 5 MB limit.
    const width = t.header.length;
    const notes = Array.from({ length: 4 }, (_, r) => Array.from({ length: width }, (_, c) => `note ${r}.${c} `.padEnd(30_000, "x")));
    f.excel.user.pasteBlock(t.sheet.name, `A${top}`, notes);
    const list = ids();
    for (const n of [0, 1, 2, 3]) f.sandbox.store.insertExpense({ ...f.sandbox.store.expense(f.sub, list[1])!, id: `11111111-2222-4333-8444-55555555555${n}`, expense_number: 99990 + n } as ExpenseRec);
    const answered = f.excel.stats.responseBytes.length;
    await expect(refreshTable(f.client, f.workbook, tableName, { now })).rejects.toThrow(
      `Refresh would add 4 rows below ${tableName}, and '${t.sheet.name}'!A${top}:${columnLetters(width - 1)}${top + 3} there holds data.`,
    );
    expect(Math.max(...f.excel.stats.responseBytes.slice(answered))).toBeLessThan(1_000_000);
    expect(f.excel.stats.refusedResponses).toBe(0);
  });

  it("go under the last row, with the editable fill and the State dropdown, and a Total Row stays below them", async () => {
    const rows = ids().length;
    await f.excel.run(async (context) => {
      context.workbook.tables.getItem(tableName).showTotals = true;
      await context.sync();
    });
    f.sandbox.store.insertExpense({ ...f.sandbox.store.expense(f.sub, ids()[1])!, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999 } as ExpenseRec);
    const report = await refreshTable(f.client, f.workbook, tableName, { now });
    expect(report.added).toBe(1);
    const t = tableView(f.excel, tableName);
    const table = f.excel.model.table(tableName)!;
    expect(table.showTotals).toBe(true);
    expect(t.rows).toHaveLength(rows + 2); // the body and the Total Row
    expect(t.values("Expense ID")[rows]).toBe("11111111-2222-4333-8444-555555555555");
    expect(t.values("Expense ID")[rows + 1]).toBe("Total");
    expect(t.fill("State", rows)).toBe("#FFF4CE");
    expect(t.sheet.validationAt(table.area.row + 1 + rows, table.area.column + t.column("State"))?.list.source).toContain("paid");
  });
});

describe("cells typed while Refresh reads the service", () => {
  /**
   * Refresh on two copies of the workbook: on one the person types before it starts; on the other, after it read
   * the deciding columns and before it reads back the rows it will write. Both must end the same.
   */
  async function typedWhileRead(type: (excel: FakeExcel) => void) {
    const before = new FakeExcel(f.excel.model.copy());
    type(before);
    const expected = await refreshTable(f.client, new ExcelWorkbook(before), tableName, { now });
    const excel = new FakeExcel(f.excel.model.copy());
    const workbook = new ExcelWorkbook(excel);
    const readRows = workbook.readRows.bind(workbook);
    let typed = 0;
    workbook.readRows = async (table, rows, headers) => {
      if (table === tableName && typed++ === 0) type(excel);
      return readRows(table, rows, headers);
    };
    const report = await refreshTable(f.client, workbook, tableName, { now });
    const after = tableView(excel, tableName);
    // Typed during the refresh, and the table ends as if typed before it.
    expect(typed).toBeGreaterThanOrEqual(1);
    expect(after.rows).toEqual(tableView(before, tableName).rows);
    return { report, expected, after };
  }

  it("an Accounted ID typed into a record the service changed is seen before anything is written: kept as the person's edit, a conflict, as if typed before", async () => {
    f.sandbox.store.expense(f.sub, ids()[3])!.accounted_id = "ACC-THEIRS";
    const t = tableView(f.excel, tableName);
    const r = await typedWhileRead((excel) => excel.user.type(t.sheet.name, t.address("Accounted ID", 3), "ACC-MINE"));
    expect(r.after.values("Accounted ID")[3]).toBe("ACC-MINE");
    expect(r.after.values("Sync status")[3]).toMatch(/^Edited here and changed on the server/);
    expect([r.report.conflicts, r.expected.conflicts, r.report.refreshed]).toEqual([1, 1, { whole: false }]);
  });

  it("a Sync status typed over in a record the service changed ends as if typed before, and Refresh finishes", async () => {
    f.sandbox.store.expense(f.sub, ids()[3])!.description = "Renamed";
    const t = tableView(f.excel, tableName);
    const r = await typedWhileRead((excel) => excel.user.type(t.sheet.name, t.address("Sync status", 3), "checked by me"));
    expect(r.report.refreshed).toEqual({ whole: false });
  });
});

it("reads back only the rows it writes, and the snapshot's fingerprints of the records the service changed alone", async () => {
  const list = ids();
  const t = tableView(f.excel, tableName);
  f.excel.user.type(t.sheet.name, t.address("Paid ID", 1), "PAY-KEPT"); // the person's edit: its row is marked, not changed
  f.sandbox.store.expense(f.sub, list[4])!.description = "Renamed";
  f.sandbox.store.expense(f.sub, list[6])!.description = "Renamed too";
  const excel = new FakeExcel(f.excel.model.copy());
  const workbook = new ExcelWorkbook(excel);
  const reads = recordReads(workbook, (table) => (table === tableName ? "table" : table === snapshotTableOf(tableName) ? "snapshot" : table));
  const progress: string[] = [];
  const report = await refreshTable(f.client, workbook, tableName, { now, onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`) });
  expect(report).toMatchObject({ updated: 2, keptEdits: 1, refreshed: { whole: false } });
  // The write is reported as the rows it writes, not the table's.
  expect(progress.filter((p) => p.startsWith("write"))).toEqual(["write 3/3"]);
  const snapshotRow = (id: string) => tableView(f.excel, snapshotTableOf(tableName)).values("Record ID").indexOf(id);
  const tableRowsRead = reads.filter((r) => r.startsWith("table")).flatMap((r) => r.split(": ")[1].split(",").map(Number));
  const snapshotRead = reads.filter((r) => r.startsWith("snapshot")).flatMap((r) => r.split(": ")[1].split(",").map(Number));
  expect(tableRowsRead).not.toContain(0);
  expect(tableRowsRead).toEqual(expect.arrayContaining([4, 6]));
  expect(snapshotRead.sort((a, b) => a - b)).toEqual([snapshotRow(list[4]), snapshotRow(list[6])].sort((a, b) => a - b));
  expect(tableView(excel, tableName).values("Paid ID")[1]).toBe("PAY-KEPT");
});

it("reads nothing back when no row of the table is to be written: only a new record, added below", async () => {
  f.sandbox.store.insertExpense({ ...f.sandbox.store.expense(f.sub, ids()[1])!, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999 } as ExpenseRec);
  const excel = new FakeExcel(f.excel.model.copy());
  const workbook = new ExcelWorkbook(excel);
  const reads = recordReads(workbook);
  const report = await refreshTable(f.client, workbook, tableName, { now });
  expect(report).toMatchObject({ added: 1, updated: 0, refreshed: { whole: false } });
  expect(reads).toEqual([]);
  expect(tableView(excel, tableName).values("Expense ID").at(-1)).toBe("11111111-2222-4333-8444-555555555555");
});
