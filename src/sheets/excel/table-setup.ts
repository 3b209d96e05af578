/**
 * What every new table of the add-in gets, whether written whole (write-table.ts) or streamed (create-table.ts):
 * a bold header, the table's name, style, filter buttons and frozen header row, and its columns' marks (the
 * editable columns' fills, the dropdowns).
 */
import type { XWorksheet } from "./api";
import { typedCell } from "../port/cells";
import { EDITABLE_FILL, EDITABLE_HEADER_FILL } from "../port/marks";
import type { TableStart } from "../port/workbook";

/** Writes the header row at (`top`, `left`), in bold. */
export function writeHeader(sheet: XWorksheet, top: number, left: number, header: readonly string[]): void {
  const range = sheet.getRangeByIndexes(top, left, 1, header.length);
  range.valuesAsJson = [header.map((h) => typedCell(h))];
  range.format.font.bold = true;
}

/**
 * Makes `address` (its header on sheet row `top`) a table named as `spec` says, styled, with filter buttons;
 * the header row is frozen, except on a very hidden sheet (nobody scrolls it).
 */
export function setUpTable(sheet: XWorksheet, address: string, top: number, spec: Pick<TableStart, "tableName" | "visibility">): void {
  const table = sheet.tables.add(address, true);
  table.name = spec.tableName;
  table.style = "TableStyleLight9";
  table.showFilterButton = true;
  if (spec.visibility !== "VeryHidden") sheet.freezePanes.freezeRows(top + 1);
}

/**
 * Marks the `rows` body rows below the header at (`top`, `left`): editable columns filled (and their header
 * cells too, with `headers`), dropdowns where a column has a list.
 */
export function markColumns(
  sheet: XWorksheet, top: number, left: number, rows: number, spec: Pick<TableStart, "header" | "editable" | "dropdowns">, headers: boolean,
): void {
  for (let c = 0; c < spec.header.length; c++) {
    const body = sheet.getRangeByIndexes(top + 1, left + c, rows, 1);
    if (spec.editable[c]) {
      body.format.fill.color = EDITABLE_FILL;
      if (headers) sheet.getRangeByIndexes(top, left + c, 1, 1).format.fill.color = EDITABLE_HEADER_FILL;
    }
    const list = spec.dropdowns[c];
    if (list) body.dataValidation.rule = { list: { inCellDropDown: true, source: list.join(",") } };
  }
}
