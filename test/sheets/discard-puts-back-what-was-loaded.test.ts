/**
 * Discarding unsynced edits puts back, in the edited rows only, the tracked cells last loaded (a Paid at as a real
 * timestamp again) with the editable fill, and clears their status and its colour; every edited row with "all", only
 * the chosen records' otherwise (src/sheets/edits/discard.ts). A recording stand-in for the workbook: no Excel.
 */
import { EDITABLE_FILL } from "../../src/sheets/port/marks";
import { discardEdits } from "../../src/sheets/edits/discard";
import { SETTING_PREFIX } from "../../src/sheets/stored-tables";
import { expenseColumns } from "../../src/sheets/resources/expenses";
import type { CellValue, CellWrite, ColumnsRead, Workbook } from "../../src/sheets/port/workbook";

const T = "SpendExpenses_s";
const HEADER = ["Note", ...expenseColumns(new Set()).map((c) => c.header)];
const at = (h: string) => HEADER.indexOf(h);
const SERIAL = (iso: string) => Date.parse(iso) / 86_400_000 + 25569;

/** The sheet's rows, by header; the snapshot's rows: id, state, accounted_id, paid_id, paid_at. */
function workbookOf(rows: Record<string, CellValue>[], snapshot: string[][], stored = true, header = HEADER, resource = "expenses") {
  const writes: { table: string; cells: CellWrite[] }[] = [];
  const reads: string[][] = [];
  const columnsOf = (headers: string[], body: Record<string, CellValue>[], header: string[]): ColumnsRead => ({
    sheetName: "S", header, rowCount: body.length, columns: new Map(headers.filter((h) => header.includes(h)).map((h) => [h, body.map((r) => r[h] ?? "")])),
  });
  const snapHeader = ["Record ID", "state", "accounted_id", "paid_id", "paid_at", "read_only", "digest", "cells"];
  const workbook = {
    readSetting: async (key: string) => (stored && key === SETTING_PREFIX + T
      ? JSON.stringify({ params: { resource, enterpriseId: "e", subsidiaryId: "s", cardId: "c", billingPeriodId: "b" }, columns: header.slice(1), loadedAt: "2026-05-01T10:00:00.000Z" }) : null),
    readColumns: async (table: string, headers: string[]) => {
      reads.push([table, ...headers]);
      if (table === T) return rows.length === 0 ? null : columnsOf(headers, rows, header);
      if (table === `Snap_${T}`) return columnsOf(headers, snapshot.map((s) => Object.fromEntries(snapHeader.map((h, i) => [h, s[i] ?? ""]))), snapHeader);
      return null;
    },
    writeCells: async (table: string, cells: CellWrite[]) => void writes.push({ table, cells }),
  } as unknown as Workbook;
  return { workbook, writes, reads };
}

const SNAPSHOT = [["E1", "approved", "", "", ""], ["E2", "paid", "A-1", "P-1", "2026-03-31T12:00:00Z"], ["E3", "approved", "", "", ""]];
const ROWS: Record<string, CellValue>[] = [
  { "Expense ID": "E1", State: "paid", "Sync status": "Will send: paid" },
  { "Expense ID": "E2", State: "Paid", "Accounted ID": " A-1 ", "Paid ID": "P-2", "Paid at (UTC)": 46000, "Sync status": "" },
  { "Expense ID": "E9", State: "paid" },
  { "Expense ID": "", State: "paid" },
  { "Expense ID": " E3 ", State: "paid", "Sync status": "" },
];

describe("discarding unsynced edits", () => {
  it("all: each edited row's changed tracked cells back to what was loaded, with the editable fill; its status cleared", async () => {
    const { workbook, writes, reads } = workbookOf(ROWS, SNAPSHOT);
    expect(await discardEdits(workbook, T, "all")).toBe(3);
    expect(reads[0]).toEqual([T, "Expense ID", "State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"]);
    expect(writes).toEqual([{
      table: T, cells: [
        { row: 0, column: at("State"), value: "approved", fill: EDITABLE_FILL }, { row: 0, column: at("Sync status"), value: "", fill: null },
        { row: 1, column: at("Paid ID"), value: "P-1", fill: EDITABLE_FILL },
        { row: 1, column: at("Paid at (UTC)"), value: SERIAL("2026-03-31T12:00:00Z"), fill: EDITABLE_FILL },
        { row: 1, column: at("Sync status"), value: "", fill: null },
        { row: 4, column: at("State"), value: "approved", fill: EDITABLE_FILL }, { row: 4, column: at("Sync status"), value: "", fill: null },
      ],
    }]);
  });

  it("chosen records only; an id with no edit, or not loaded, changes nothing", async () => {
    const { workbook, writes } = workbookOf(ROWS, SNAPSHOT);
    expect(await discardEdits(workbook, T, ["E2", "E9"])).toBe(1);
    expect(writes[0].cells.map((c) => [c.row, HEADER[c.column]])).toEqual([[1, "Paid ID"], [1, "Paid at (UTC)"], [1, "Sync status"]]);
    const again = workbookOf(ROWS, SNAPSHOT);
    expect(await discardEdits(again.workbook, T, ["E3"])).toBe(1);
    expect(again.writes[0].cells.map((c) => [c.row, HEADER[c.column]])).toEqual([[4, "State"], [4, "Sync status"]]);
  });

  it("nothing edited: nothing written, 0 rows", async () => {
    const { workbook, writes } = workbookOf([{ "Expense ID": "E1", State: "approved" }], SNAPSHOT);
    expect(await discardEdits(workbook, T, "all")).toBe(0);
    expect(writes).toEqual([]);
    expect(await discardEdits(workbook, T, [])).toBe(0);
  });

  it("a table with no rows to read: 0", async () => {
    const { workbook, writes } = workbookOf([], SNAPSHOT);
    expect(await discardEdits(workbook, T, "all")).toBe(0);
    expect(writes).toEqual([]);
  });

  it("an id that looks like a date-time is put back as the text it was; only Paid at becomes a date-time", async () => {
    const snapshot = [["E1", "accounted", "2026-03-31T12:00:00Z", "", ""]];
    const { workbook, writes } = workbookOf([{ "Expense ID": "E1", State: "paid", "Accounted ID": "X" }], snapshot);
    expect(await discardEdits(workbook, T, "all")).toBe(1);
    expect(writes[0].cells.filter((c) => c.fill === EDITABLE_FILL).map((c) => [HEADER[c.column], c.value])).toEqual([["State", "accounted"], ["Accounted ID", "2026-03-31T12:00:00Z"]]);
  });

  it("a tracked column the user deleted is left alone: the other columns' edits are put back, nothing is written outside the table", async () => {
    const header = HEADER.filter((h) => h !== "Paid ID" && h !== "Sync status");
    const { workbook, writes } = workbookOf(ROWS, SNAPSHOT, true, header);
    expect(await discardEdits(workbook, T, ["E2"])).toBe(1);
    expect(writes[0].cells).toEqual([{ row: 1, column: header.indexOf("Paid at (UTC)"), value: SERIAL("2026-03-31T12:00:00Z"), fill: EDITABLE_FILL }]);
    const onlyThere = workbookOf([{ "Expense ID": "E2", State: "paid", "Accounted ID": "A-1", "Paid at (UTC)": SERIAL("2026-03-31T12:00:00Z") }], SNAPSHOT, true, header);
    expect(await discardEdits(onlyThere.workbook, T, "all")).toBe(0);
    expect(onlyThere.writes).toEqual([]);
  });

  it("a Sync status column the user moved to the front is cleared there", async () => {
    const header = ["Sync status", ...HEADER.filter((h) => h !== "Sync status")];
    const { workbook, writes } = workbookOf([{ "Expense ID": "E1", State: "paid", "Sync status": "Will send: paid" }], SNAPSHOT, true, header);
    expect(await discardEdits(workbook, T, "all")).toBe(1);
    expect(writes[0].cells.at(-1)).toEqual({ row: 0, column: 0, value: "", fill: null });
  });

  it("a table of cards or movements has no edits to discard: 0, nothing written", async () => {
    for (const resource of ["cards", "movements"]) {
      const { workbook, writes } = workbookOf(ROWS, SNAPSHOT, true, HEADER, resource);
      expect(await discardEdits(workbook, T, "all")).toBe(0);
      expect(writes).toEqual([]);
    }
  });

  it("a table Spend Sync did not load is refused, by name", async () => {
    const { workbook } = workbookOf(ROWS, SNAPSHOT, false);
    await expect(discardEdits(workbook, T, "all")).rejects.toThrow(new Error(`The table ${T} was not loaded by Spend Sync, so it has no edits to discard.`));
  });
});
