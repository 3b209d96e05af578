/**
 * Refresh merges by id (src/sheets/refresh/merge.ts, pure: plain calls, no Excel): a record's row is updated in place and
 * keeps the user's own columns (their formulas too); a record gone from the server stays, marked; a second row of
 * an id is marked as a duplicate, not refreshed; empty rows go; new records are appended; cells Refresh keeps
 * (unsynced edits) replace the server's.
 */
import { mergeRows, type MergeInput } from "../../src/sheets/refresh/merge";
import type { CellValue, TableRead } from "../../src/sheets/port/workbook";

const LAYOUT = ["Expense ID", "Amount", "State", "Sync status"];
const REMOVED = "Not returned by the service any more for this table's query (refresh 2026-05-01 10:00 UTC)";
const DUP = "Duplicate row of this record: not refreshed.";
const table = (header: string[], rows: CellValue[][], formulas?: CellValue[][]): TableRead => ({ sheetName: "Expenses", header, rows, formulas: formulas ?? rows });
const merge = (existing: TableRead | null, incoming: [string, CellValue[]][], more: Partial<MergeInput> = {}) =>
  mergeRows({ layout: LAYOUT, statusHeader: "Sync status", previousLayout: [], existing, incoming: new Map(incoming), removedNote: REMOVED, ...more });

describe("a first load (no table yet)", () => {
  it("writes every record in the server's order, no user columns, no formulas", () => {
    expect(merge(null, [["E2", ["E2", 5, "approved", ""]], ["E1", ["E1", 7, "paid", ""]]])).toEqual({
      header: LAYOUT, rows: [["E2", 5, "approved", ""], ["E1", 7, "paid", ""]], formulas: [[null, null, null, null], [null, null, null, null]],
      added: 2, updated: 0, removed: [], userColumns: [],
    });
  });
});

describe("a refresh over the table the user sorted and added to", () => {
  it("updates each record on its own row, keeps the user's columns beside it, marks the gone, appends the new", () => {
    const existing = table(
      ["Expense ID", "Note", "Amount", "State", "Sync status", "Check"],
      [
        ["E3", "mine", 1, "approved", "Synced", 10],
        ["E1", "", 2, "approved", "", "=B2"],
        ["", "", "", "", "", ""],
        [" E1 ", "dup", 3, "paid", "", ""],
        ["", "loose note", "", "", "", ""],
      ],
      [
        ["E3", "mine", 1, "approved", "Synced", "=1+9"],
        ["E1", "", 2, "approved", "", "=B2"],
        ["", "", "", "", "", ""],
        [" E1 ", "dup", 3, "paid", "", ""],
        ["", "loose note", "", "", "", ""],
      ],
    );
    const result = merge(existing, [["E1", ["E1", 20, "paid", ""]], ["E4", ["E4", 40, "approved", ""]]]);
    expect(result).toEqual({
      header: ["Expense ID", "Amount", "State", "Sync status", "Note", "Check"],
      rows: [
        ["E3", 1, "approved", REMOVED, "mine", 10],
        ["E1", 20, "paid", "", "", "=B2"],
        [" E1 ", 3, "paid", DUP, "dup", ""],
        ["", "", "", "", "loose note", ""],
        ["E4", 40, "approved", "", "", ""],
      ],
      formulas: [
        [null, null, null, null, null, "=1+9"],
        [null, null, null, null, null, null],
        [null, null, null, null, null, null],
        [null, null, null, null, null, null],
        [null, null, null, null, null, null],
      ],
      added: 1, updated: 1, removed: ["E3"], userColumns: ["Note", "Check"],
    });
  });

  it("a column the add-in wrote last time, or one with no header, is not taken for the user's", () => {
    const existing = table(["Expense ID", "Old column", "", "Amount", "State", "Sync status", "Mine"], [["E1", "x", "y", 1, "approved", "", "keep"]]);
    const result = merge(existing, [["E1", ["E1", 2, "approved", ""]]], { previousLayout: ["Expense ID", "Old column"] });
    expect(result.header).toEqual(["Expense ID", "Amount", "State", "Sync status", "Mine"]);
    expect(result.rows).toEqual([["E1", 2, "approved", "", "keep"]]);
    expect(result.userColumns).toEqual(["Mine"]);
  });

  it("a user's formula is kept only where the cell's formula differs from its value; a typed '=text stays text", () => {
    const existing = table(["Expense ID", "Amount", "State", "Sync status", "A", "B", "C"],
      [["E1", 1, "approved", "", 3, "=1+1", 5]],
      [["E1", 1, "approved", "", "=1+2", "=1+1", 5]]);
    const result = merge(existing, [["E1", ["E1", 1, "approved", ""]]]);
    expect(result.formulas).toEqual([[null, null, null, null, "=1+2", null, null]]);
    expect(result.rows).toEqual([["E1", 1, "approved", "", 3, "=1+1", 5]]);
  });

  it("a row with no formulas read takes its values as its formulas: no formula invented", () => {
    const existing: TableRead = { sheetName: "S", header: ["Expense ID", "Amount", "State", "Sync status", "A"], rows: [["E1", 1, "approved", "", "=x"], ["E2", 1, "approved", "", 4]], formulas: [["E1", 1, "approved", "", "=y"]] };
    const result = merge(existing, [["E1", ["E1", 1, "approved", ""]], ["E2", ["E2", 1, "approved", ""]]]);
    expect(result.formulas).toEqual([[null, null, null, null, "=y"], [null, null, null, null, null]]);
  });

  it("the cells Refresh keeps (an unsynced edit and its status) replace the server's on that record's row only", () => {
    const existing = table(["Expense ID", "Amount", "State", "Sync status"], [["E1", 1, "paid", ""], ["E2", 1, "paid", ""]]);
    const result = merge(existing, [["E1", ["E1", 9, "approved", ""]], ["E2", ["E2", 8, "approved", ""]]], {
      overrides: new Map([["E1", { State: "paid", "Sync status": "Unsynced: paid (server: approved)" }]]),
    });
    expect(result.rows).toEqual([["E1", 9, "paid", "Unsynced: paid (server: approved)"], ["E2", 8, "approved", ""]]);
    expect([result.updated, result.added]).toEqual([2, 0]);
  });

  it("a kept cell that is empty replaces the server's too", () => {
    const existing = table(LAYOUT, [["E1", 1, "", ""]]);
    const result = merge(existing, [["E1", ["E1", 1, "approved", ""]]], { overrides: new Map([["E1", { State: "" }]]) });
    expect(result.rows).toEqual([["E1", 1, "", ""]]);
  });

  it("a table whose id column was renamed: its rows stay as they are (the renamed column is the user's), every record is appended", () => {
    const existing = table(["Ref", "Amount", "State", "Sync status"], [["E1", 1, "approved", "x"]]);
    const result = merge(existing, [["E1", ["E1", 2, "paid", ""]]]);
    expect(result.rows).toEqual([["", 1, "approved", "x", "E1"], ["E1", 2, "paid", "", ""]]);
    expect([result.added, result.updated, result.removed]).toEqual([1, 0, []]);
  });

  it("a row without an id that holds something in the add-in's columns (the person typed an Amount on a new row) is kept as typed", () => {
    const existing = table(["Expense ID", "Amount", "State", "Sync status", "Mine"], [["", 12, "", "", ""], ["", "", "", "", ""], ["", "", "paid", "", ""]]);
    const result = merge(existing, []);
    expect(result.rows).toEqual([["", 12, "", "", ""], ["", "", "paid", "", ""]]);
    expect([result.added, result.updated, result.removed]).toEqual([0, 0, []]);
  });

  it("a short row reads its missing cells as empty", () => {
    const existing = table(["Expense ID", "Amount", "State", "Sync status", "Mine"], [["E9", 1]]);
    expect(merge(existing, []).rows).toEqual([["E9", 1, "", REMOVED, ""]]);
  });

  it("a layout with no status column is refused, naming it", () => {
    expect(() => merge(null, [], { statusHeader: "Status" })).toThrow(new Error('The layout has no column "Status".'));
  });
});
