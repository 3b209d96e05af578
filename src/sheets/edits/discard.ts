/**
 * Discarding unsynced edits, per row or all: the tracked cells of the chosen records get back the values
 * last loaded (the snapshot) and their status is cleared. Only those cells are written.
 */
import { toCell } from "../columns";
import { EDITABLE_FILL } from "../port/marks";
import { STATUS_KEY, TRACKED_KEYS } from "../resources/tracking";
import { readStoredTable } from "../stored-tables";
import { Query } from "../load/params";
import { readSnapshot } from "./snapshot";
import { canonical } from "./tracked-values";
import type { CellWrite, Workbook } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/** Puts back the loaded values of the edited rows of `ids` (every edited row when `ids` is "all"); returns how many rows. */
export async function discardEdits(workbook: Workbook, tableName: string, ids: readonly string[] | "all"): Promise<number> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) throw new WorkbookError("not-ours", `The table ${tableName} was not loaded by Spend Sync, so it has no edits to discard.`);
  const columns = Query.ofParsed(stored.params).source.columns;
  const headerOf = (key: string) => columns.find((c) => c.key === key)?.header ?? key;
  const wanted = [columns[0].header, ...TRACKED_KEYS.map(headerOf), headerOf(STATUS_KEY)];
  const read = await workbook.readColumns(tableName, wanted);
  if (!read) return 0;
  const snapshot = await readSnapshot(workbook, tableName);
  const only = ids === "all" ? null : new Set(ids);
  const ofHeader = (h: string) => read.columns.get(h) ?? [];
  const idCells = ofHeader(columns[0].header);
  const cells: CellWrite[] = [];
  let rows = 0;
  // A tracked column the user deleted has nothing to put back (a row of it is not an edit); the others still do.
  const present = TRACKED_KEYS.filter((k) => read.header.includes(headerOf(k)));
  const statusAt = read.header.indexOf(headerOf(STATUS_KEY));
  for (let row = 0; row < read.rowCount; row++) {
    const id = String(idCells[row] ?? "").trim();
    const loaded = snapshot.get(id);
    if (!loaded || (only && !only.has(id))) continue;
    const edited = present.filter((k) => canonical(k, ofHeader(headerOf(k))[row]) !== loaded[k]);
    if (edited.length === 0) continue;
    rows++;
    for (const key of edited) {
      // Back to the loaded value and to the editable fill (a preview may have highlighted the cell).
      cells.push({ row, column: read.header.indexOf(headerOf(key)), value: key === "paid_at" ? toCell("timestamp", loaded[key]) : loaded[key], fill: EDITABLE_FILL });
    }
    if (statusAt >= 0) cells.push({ row, column: statusAt, value: "", fill: null });
  }
  if (cells.length > 0) await workbook.writeCells(tableName, cells);
  return rows;
}
