/**
 * Preview's colours on the status cell, as the user reads them: blue for a row that will be sent, red for one
 * that cannot be, yellow for one to check and for a value typed over the service's cells. Pure.
 */
import type { TrackedValues } from "../../src/sheets";
import { previewMarks, type PlannedRow, type SheetRow } from "../../src/sync";

const [BLUE, RED, YELLOW] = ["#DDEBF7", "#FFC7CE", "#FFEB9C"];
const loaded: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
const columns = { id: 0, state: 5, accounted_id: 6, paid_id: 7, paid_at: 8, status: 9 };
const where = { header: ["ID", "Amount", "b", "c", "d", "State", "Accounted ID", "Paid ID", "Paid at", "Sync status"], service: ["Amount"] };
const sheetRow = (row: number, desired: Partial<TrackedValues>): SheetRow => {
  const d = { ...loaded, ...desired };
  return { row, id: `id-${row}`, desired: d, raw: { ...d }, status: "" };
};

it("will send: blue; invalid: red; to check: yellow; a typed value alone: yellow", () => {
  const rows = [sheetRow(0, { state: "accounted" }), sheetRow(1, { state: "payed" }), sheetRow(2, { state: "paid", paid_id: "10:00" }), sheetRow(3, {})];
  const planned: PlannedRow[] = [
    { id: "id-0", rows: [0], kind: "change", loaded, desired: rows[0].desired, patch: { state: "accounted" } },
    { id: "id-1", rows: [1], kind: "invalid", loaded, desired: rows[1].desired, message: "no" },
    { id: "id-2", rows: [2], kind: "check", loaded, desired: rows[2].desired, patch: { state: "paid", paid_id: "10:00" }, message: "?" },
  ];
  const typed = [{ row: 3, id: "id-3", header: "Amount", typed: 5 }];
  const statusFills = previewMarks({ columns, rows }, planned, typed, where).filter((c) => c.column === columns.status).map((c) => [c.row, c.fill]);
  expect(statusFills).toEqual([[0, BLUE], [1, RED], [2, YELLOW], [3, YELLOW]]);
});
