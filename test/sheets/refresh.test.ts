import { updateExpense } from "../../src/api";
import type { ExpenseRec } from "../../src/sandbox/model";
import { UnsyncedEditsError, loadTable, refreshTable } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
let tableName: string;
const params = () => ({ resource: "expenses" as const, enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" as const });

beforeEach(async () => {
  f = await withExcel();
  tableName = (await loadTable(f.client, f.workbook, params())).tableName;
});
afterEach(() => f.sandbox.close());

/** The user adds a "Notes" column right of the table and writes a note on a few records. */
function addNotes(ids: string[]): void {
  const t = tableView(f.excel, tableName);
  const notesColumn = t.nextColumn;
  f.excel.user.type(t.sheet.name, `${notesColumn}1`, "Notes");
  for (const id of ids) {
    const row = t.values("Expense ID").indexOf(id);
    f.excel.user.type(t.sheet.name, `${notesColumn}${row + 2}`, `note for ${id.slice(0, 8)}`);
  }
}

const noteOf = (id: string) => {
  const t = tableView(f.excel, tableName);
  return t.values("Notes")[t.values("Expense ID").indexOf(id)];
};

describe("Refresh merges by id", () => {
  it("keeps the user's column with its records after a sort, while rows change, appear and disappear", async () => {
    const before = tableView(f.excel, tableName);
    const ids = before.values("Expense ID") as string[];
    addNotes([ids[0], ids[5], ids[10]]);
    f.excel.user.sortTable(tableName, "Amount", false);
    const sortedIds = tableView(f.excel, tableName).values("Expense ID");
    expect(sortedIds).not.toEqual(ids);

    // Meanwhile on the server: one record is paid by someone else (it leaves the "approved" filter),
    // another's tracked values change, and a new approved expense appears.
    const other = f.sandbox.store.expense(f.sub, ids[5])!;
    await updateExpense(f.client, f.sub, other.id, { state: "paid", paid_id: "ELSEWHERE" });
    const template = f.sandbox.store.expense(f.sub, ids[1])!;
    const newcomer: ExpenseRec = { ...template, id: "11111111-2222-4333-8444-555555555555", expense_number: 99999, description: "Created after the load" };
    f.sandbox.store.insertExpense(newcomer);

    const report = await refreshTable(f.client, f.workbook, tableName);
    expect(report).toMatchObject({ added: 1, removed: 1, userColumns: ["Notes"] });
    const after = tableView(f.excel, tableName);
    expect(after.header.at(-1)).toBe("Notes");
    expect(noteOf(ids[0])).toBe(`note for ${ids[0].slice(0, 8)}`);
    expect(noteOf(ids[10])).toBe(`note for ${ids[10].slice(0, 8)}`);
    // The record gone from the filter is kept and marked, with its note.
    const gone = after.values("Expense ID").indexOf(ids[5]);
    expect(after.values("Sync status")[gone]).toMatch(/^Not returned by the service any more for this table's filters/);
    expect(noteOf(ids[5])).toBe(`note for ${ids[5].slice(0, 8)}`);
    // The sort the user chose is kept; the new record is appended.
    expect(after.values("Expense ID").slice(0, -1)).toEqual(sortedIds);
    expect(after.values("Expense ID").at(-1)).toBe(newcomer.id);
    expect(after.values("Description").at(-1)).toBe("Created after the load");
    expect(after.values("Notes").at(-1)).toBe("");
  });

  it("updates rows in place when the server's values change", async () => {
    const ids = tableView(f.excel, tableName).values("Expense ID") as string[];
    f.sandbox.store.expense(f.sub, ids[3])!.description = "Renamed on the server";
    await refreshTable(f.client, f.workbook, tableName);
    const t = tableView(f.excel, tableName);
    expect(t.values("Expense ID")).toEqual(ids);
    expect(t.values("Description")[3]).toBe("Renamed on the server");
  });

  it("keeps the user's formulas in their own columns", async () => {
    const t = tableView(f.excel, tableName);
    const amount = t.letter("Amount");
    const notes = t.nextColumn;
    f.excel.user.type(t.sheet.name, `${notes}1`, "Double");
    f.excel.user.type(t.sheet.name, `${notes}2`, `=${amount}2*2`);
    await refreshTable(f.client, f.workbook, tableName);
    expect(tableView(f.excel, tableName).formula("Double", 0)).toBe(`=${amount}2*2`);
  });
});

describe("unsynced edits", () => {
  it("block Refresh with a message naming the rows, and nothing is overwritten", async () => {
    const t = tableView(f.excel, tableName);
    const id = t.values("Expense ID")[2] as string;
    f.excel.user.type(t.sheet.name, t.address("State", 2), "paid");
    f.excel.user.type(t.sheet.name, t.address("Paid ID", 2), "PAY-123");
    const error = await refreshTable(f.client, f.workbook, tableName).catch((e) => e);
    expect(error).toBeInstanceOf(UnsyncedEditsError);
    expect(error.message).toBe(
      `1 row has edits that are not synced yet: row 4 (${id.slice(0, 8)}: state approved → paid, paid_id empty → PAY-123). ` +
        "Sync states first, or refresh again choosing to discard your edits.",
    );
    expect(tableView(f.excel, tableName).values("State")[2]).toBe("paid");
  });

  it("are overwritten with the server's values when the user chooses to discard them", async () => {
    const t = tableView(f.excel, tableName);
    f.excel.user.type(t.sheet.name, t.address("State", 1), "accounted");
    const report = await refreshTable(f.client, f.workbook, tableName, { discardEdits: true });
    expect(report.discardedEdits).toBe(1);
    expect(tableView(f.excel, tableName).values("State")[1]).toBe("approved");
  });

  it("a dropdown refuses a state that is not in the list", () => {
    const t = tableView(f.excel, tableName);
    expect(() => f.excel.user.type(t.sheet.name, t.address("State", 0), "done")).toThrow(/data validation/);
  });
});
