/**
 * Where a loaded table's editable columns are (State → Accounted ID → Paid ID → Paid at), so the workbench can
 * show them after a load on a laptop's screen (docs/layout.md, "On a laptop's screen").
 */
import { TRACKED_KEYS, recordColumns } from "../sheets";
import type { SheetModel } from "./fake-excel";
import type { Area } from "./fake-excel/address";

/** The headers of the editable columns (the same for allowances and expenses). */
const EDITABLE = new Set(recordColumns("expense").filter((c) => (TRACKED_KEYS as readonly string[]).includes(c.key)).map((c) => c.header));

/** The sheet columns of the table's first and last editable header, or null for a table without them (cards, movements). */
export function editableColumns(table: { sheet: SheetModel; area: Area }): { first: number; last: number } | null {
  const { sheet, area } = table;
  const columns: number[] = [];
  for (let c = area.column; c < area.column + area.columnCount; c++) {
    const header = sheet.cell(area.row, c)?.value;
    if (typeof header === "string" && EDITABLE.has(header)) columns.push(c);
  }
  return columns.length === 0 ? null : { first: Math.min(...columns), last: Math.max(...columns) };
}
