import { updateExpense } from "../../src/api";
import type { ExpenseRec } from "../../src/sandbox/model";
import { EDITABLE_FILL, EDITED_FILL, discardEdits, loadTable, refreshTable } from "../../src/sheets";
import { previewSync, runSync } from "../../src/sync";
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
    expect(after.values("Sync status")[gone]).toMatch(/^Not returned by the service any more for this table's query/);
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

describe("Refresh is three-way: loaded, the sheet, the server", () => {
  const row = (id: string) => tableView(f.excel, tableName).values("Expense ID").indexOf(id);
  const cell = (id: string, header: string) => tableView(f.excel, tableName).values(header)[row(id)];
  const type = (id: string, header: string, value: string) => {
    const t = tableView(f.excel, tableName);
    f.excel.user.type(t.sheet.name, t.address(header, row(id)), value);
  };

  it("keeps edits where the server did not move, takes the server's values where only it moved, flags both moved", async () => {
    const ids = tableView(f.excel, tableName).values("Expense ID") as string[];
    const [keep, serverOnly, both, same, invalid] = ids;
    type(keep, "State", "paid");
    type(keep, "Paid ID", "PAY-KEEP");
    type(both, "State", "accounted");
    type(both, "Accounted ID", "ACC-MINE");
    type(same, "State", "accounted");
    type(same, "Accounted ID", "ACC-SAME");
    type(invalid, "Accounted ID", "ACC-NO-STATE"); // invalid (no change of state): it no longer blocks anything
    const colleague = { state: "accounted" as const, accounted_id: "ACC-THEIRS" };
    f.sandbox.store.expense(f.sub, serverOnly)!.description = "Renamed on the server";
    await updateExpense(f.client, f.sub, serverOnly, colleague);
    await updateExpense(f.client, f.sub, both, { state: "paid", paid_id: "PAY-THEIRS" });
    await updateExpense(f.client, f.sub, same, { state: "accounted", accounted_id: "ACC-SAME" });

    // The table is the "approved" query: the three records the server moved leave it.
    const report = await refreshTable(f.client, f.workbook, tableName);
    expect(report).toMatchObject({ keptEdits: 2, conflicts: 0, discardedEdits: 0, removed: 3 });
    // A kept edit says what it is and keeps its mark, so it never looks like the server's value (issue 24).
    expect([cell(keep, "State"), cell(keep, "Paid ID"), cell(keep, "Sync status")]).toEqual(["paid", "PAY-KEEP", "Unsynced: paid, Paid ID PAY-KEEP (server: approved)"]);
    const view = tableView(f.excel, tableName);
    const keepRow = view.values("Expense ID").indexOf(keep);
    expect([view.fill("State", keepRow), view.fill("Paid ID", keepRow), view.fill("Accounted ID", keepRow)]).toEqual([EDITED_FILL, EDITED_FILL, EDITABLE_FILL]);
    expect(cell(invalid, "Accounted ID")).toBe("ACC-NO-STATE");
    for (const id of [serverOnly, both, same]) expect(cell(id, "Sync status")).toMatch(/^Not returned by the service any more for this table's query/);
    // Preview: the kept edit is to send; the invalid one says why; the edited rows gone from the query are listed, not dropped.
    const preview = await previewSync(f.workbook, tableName);
    const byId = new Map(preview.rows.map((r) => [r.id, r]));
    expect(byId.get(keep)).toMatchObject({ kind: "change", patch: { state: "paid", paid_id: "PAY-KEEP" } });
    expect(byId.get(invalid)).toMatchObject({ kind: "invalid", message: expect.stringMatching(/^Accounted ID changed but State did not/) });
    for (const id of [both, same]) {
      expect(byId.get(id)).toMatchObject({ kind: "invalid", message: expect.stringMatching(/^This record is no longer returned by this table's query/) });
    }
    expect(byId.has(serverOnly)).toBe(false); // not edited: counted as gone, nothing to say
    expect(preview.counts).toMatchObject({ change: 1, invalid: 3, gone: 1 });
    // After a sync, the gone rows keep their mark: the next Preview still lists their edits as gone, never sends them.
    await runSync(f.client, f.workbook, preview);
    for (const id of [both, same]) expect(cell(id, "Sync status")).toMatch(/^Not returned by the service any more for this table's query \(.* UTC\): your edit was not sent\./);
    const again = await previewSync(f.workbook, tableName);
    for (const id of [both, same]) expect(again.rows.find((r) => r.id === id)).toMatchObject({ kind: "invalid", message: expect.stringMatching(/^This record is no longer returned/) });
  });

  it("on an unfiltered table, a record both edited here and changed on the server is flagged with both values, and can be discarded alone", async () => {
    const all = (await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub })).tableName;
    tableName = all;
    const ids = (tableView(f.excel, all).values("State") as string[]).map((s, i) => [s, tableView(f.excel, all).values("Expense ID")[i] as string] as const)
      .filter(([s]) => s === "approved").map(([, id]) => id);
    const [both, serverOnly, keep] = ids;
    type(both, "State", "accounted");
    type(both, "Accounted ID", "ACC-MINE");
    type(keep, "State", "accounted");
    await updateExpense(f.client, f.sub, both, { state: "paid", paid_id: "PAY-THEIRS" });
    await updateExpense(f.client, f.sub, serverOnly, { state: "accounted", accounted_id: "ACC-THEIRS" });

    const report = await refreshTable(f.client, f.workbook, all);
    expect(report).toMatchObject({ keptEdits: 1, conflicts: 1, removed: 0 });
    expect([cell(serverOnly, "State"), cell(serverOnly, "Accounted ID")]).toEqual(["accounted", "ACC-THEIRS"]);
    // The user's edited cells are kept; Paid ID, which only the colleague set, shows their value (not "" read as a clearing).
    expect([cell(both, "State"), cell(both, "Accounted ID"), cell(both, "Paid ID")]).toEqual(["accounted", "ACC-MINE", "PAY-THEIRS"]);
    expect(cell(both, "Sync status")).toMatch(
      /^Edited here and changed on the server \(refresh .*\): someone else changed it since you loaded, the server now has paid, Paid ID PAY-THEIRS; your edit \(State accounted, Accounted ID ACC-MINE\) is kept on top of it: accounted, Accounted ID ACC-MINE, Paid ID PAY-THEIRS\./,
    );
    // Preview judges the kept edit against the server's values: the colleague paid it, so the person's accounted is
    // refused for that, never as though the person had cleared the colleague's Paid ID (issue 43).
    const preview = await previewSync(f.workbook, all);
    expect(preview.rows.find((r) => r.id === both)).toMatchObject({
      kind: "invalid", message: "Cannot change state from 'paid': only approved or accounted expenses can be changed through the API.",
    });
    // Discarding that one row puts back the server's values; the other edit stays.
    expect(await discardEdits(f.workbook, all, [both])).toBe(1);
    expect([cell(both, "State"), cell(both, "Accounted ID"), cell(both, "Paid ID"), cell(both, "Sync status")]).toEqual(["paid", "", "PAY-THEIRS", ""]);
    expect(cell(keep, "State")).toBe("accounted");
    expect((await previewSync(f.workbook, all)).counts).toMatchObject({ change: 1, invalid: 0 });
    // Or all of them.
    expect(await discardEdits(f.workbook, all, "all")).toBe(1);
    expect((await previewSync(f.workbook, all)).counts).toMatchObject({ change: 0, invalid: 0 });
  });

  it("are overwritten with the server's values when the user chooses to discard them all", async () => {
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
