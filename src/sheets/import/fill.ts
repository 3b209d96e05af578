/**
 * Writes what an import matched into its table: the tracked cells of each filled record, marked as edits (the
 * edited fill) with their source in the row's Sync status. Only cells: nothing is sent; Preview and Confirm
 * send them as any edit. The matcher never fills a record holding another value, so no value is overwritten.
 */
import type { Fill } from "../../domain/import";
import { importNote, importSources } from "./note";
import type { ImportTable } from "./table";
import { EDITED_FILL } from "../port/marks";
import { timestampToSerial } from "../port/values";
import type { CellWrite, Workbook } from "../port/workbook";

/**
 * The cells of the fills: values with the edited fill, and each row's status naming its source lines.
 * @internal bench/import.ts measures the fill alone.
 */
export function fillCells(table: Pick<ImportTable, "columns" | "statuses">, fills: readonly Fill[]): CellWrite[] {
  const cells: CellWrite[] = [];
  const sources = new Map<number, string[]>();
  for (const fill of fills) {
    const { row, values } = fill;
    cells.push({ row, column: table.columns.state, value: values.state, fill: EDITED_FILL });
    if (values.accounted_id !== undefined) cells.push({ row, column: table.columns.accounted_id, value: values.accounted_id, fill: EDITED_FILL });
    if (values.paid_id !== undefined) cells.push({ row, column: table.columns.paid_id, value: values.paid_id, fill: EDITED_FILL });
    if (values.paid_at !== undefined) cells.push({ row, column: table.columns.paid_at, value: timestampToSerial(values.paid_at) ?? values.paid_at, fill: EDITED_FILL });
    sources.set(row, [...(sources.get(row) ?? importSources(table.statuses[row] ?? "")), fill.source]);
  }
  for (const [row, list] of sources) cells.push({ row, column: table.columns.status, value: importNote(list) });
  return cells;
}

/** Writes the fills into the table (one request per run of adjacent rows in a column); returns the rows filled. */
export async function writeImportFills(workbook: Workbook, table: ImportTable, fills: readonly Fill[]): Promise<number> {
  const cells = fillCells(table, fills);
  if (cells.length > 0) await workbook.writeCells(table.tableName, cells);
  return new Set(fills.map((f) => f.row)).size;
}
