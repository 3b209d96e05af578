/**
 * Reads of a table by name: whole (values and formulas), some columns, or some rows, each in responses within
 * Excel on the web's 5 MB limit (read.ts, patch.ts). Null where the workbook has no table of that name.
 */
import type { XContext, XRange } from "./api";
import { OPERATION_BYTES, REQUEST_BUDGET_BYTES } from "./budget";
import { columnName, locateTable } from "./locate";
import { readRowsOf } from "./patch";
import { RESPONSE_BUDGET_BYTES, readColumnsOf, toRows } from "./read";
import type { CellValue, ColumnsRead, TableRead } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/** Every body row of a table, as values and as formulas. */
export async function readTable(context: XContext, tableName: string): Promise<TableRead | null> {
  const at = await locateTable(context, tableName);
  if (!at) return null;
  const columns = at.header.map((_, c) => at.left + c);
  const read = await readColumnsOf(context, at.sheet, at.top + 1, at.bodyRows, columns, ["values", "formulas"]);
  return { sheetName: at.sheetName, header: at.header, rows: toRows(read.values), formulas: toRows(read.formulas) };
}

/** The body of the columns named `headers` the table has (each once), by header. */
export async function readColumns(context: XContext, tableName: string, headers: readonly string[]): Promise<ColumnsRead | null> {
  const at = await locateTable(context, tableName);
  if (!at) return null;
  const wanted = headers.filter((h, i) => at.header.includes(h) && headers.indexOf(h) === i);
  const read = await readColumnsOf(context, at.sheet, at.top + 1, at.bodyRows, wanted.map((h) => at.left + at.header.indexOf(h)), ["values"]);
  return { sheetName: at.sheetName, header: at.header, rowCount: at.bodyRows, columns: new Map(wanted.map((h, i) => [h, read.values[i]])) };
}

/** The cells of `headers` in the body rows `rows`; refused when the table has no such row any more. */
export async function readRows(context: XContext, tableName: string, rows: readonly number[], headers: readonly string[]): Promise<CellValue[][] | null> {
  const at = await locateTable(context, tableName);
  if (!at) return null;
  const outside = rows.find((row) => !Number.isInteger(row) || row < 0 || row >= at.bodyRows);
  if (outside !== undefined) throw new WorkbookError("table-changed", `The table ${tableName} has no body row ${outside + 1} (it has ${at.bodyRows}); refresh again.`);
  return readRowsOf(context, at, rows, headers.map((h) => at.header.indexOf(h)), RESPONSE_BUDGET_BYTES);
}

/** What a tracked cell holds beyond its value: its A1 address, whether a formula gives it, whether it is an Excel error. */
export interface CellKind {
  address: string;
  formula: boolean;
  error: boolean;
  /** The cell's number format: a number an id column holds is named as the date it shows (src/sync/non-text-values.ts). */
  format: string;
}

/**
 * Of the body rows `rows` (0-based), the cells of `headers`: their address, whether they hold a formula, whether
 * their value is an Excel error (valueTypes "Error": a text "#N/A" the service sent is a String). The formula
 * cells as Excel finds them (Range.getSpecialCellsOrNullObject, ExcelApi 1.9; no formula text travels), and each
 * asked cell's value type: one request while they fit Excel on the web's 5 MB, as many as they take beyond it
 * (each asked cell is an operation of its own: 1,500 rows of four columns already weigh 5 MB).
 */
export async function describeCells(context: XContext, tableName: string, headers: readonly string[], rows: readonly number[]): Promise<Map<string, Map<number, CellKind>> | null> {
  const at = await locateTable(context, tableName);
  if (!at) return null;
  const wanted = headers.filter((h) => at.header.includes(h));
  const asked = rows.filter((row) => Number.isInteger(row) && row >= 0 && row < at.bodyRows);
  const out = new Map<string, Map<number, CellKind>>(wanted.map((h) => [h, new Map()]));
  if (asked.length === 0) return out;
  const perChunk = Math.max(1, Math.floor((REQUEST_BUDGET_BYTES * 3) / 4 / (OPERATION_BYTES * Math.max(1, wanted.length))));
  const found = wanted.map((h) => {
    const column = at.left + at.header.indexOf(h);
    const formulas = at.sheet.getRangeByIndexes(at.top + 1, column, at.bodyRows, 1).getSpecialCellsOrNullObject("Formulas");
    formulas.load("areaCount");
    formulas.areas.load("items/rowIndex,items/rowCount");
    return { header: h, column, formulas, types: [] as XRange[] };
  });
  for (let start = 0; start < asked.length; start += perChunk) {
    for (const one of found) {
      for (const row of asked.slice(start, start + perChunk)) one.types.push(at.sheet.getRangeByIndexes(at.top + 1 + row, one.column, 1, 1).load("valueTypes,numberFormat"));
    }
    await context.sync();
  }
  for (const { header, column, formulas, types } of found) {
    const withFormula = new Set<number>();
    if (!formulas.isNullObject) for (const area of formulas.areas.items) for (let r = 0; r < area.rowCount; r++) withFormula.add(area.rowIndex + r - at.top - 1);
    asked.forEach((row, k) => out.get(header)!.set(row, {
      address: `${columnName(column)}${at.top + row + 2}`, formula: withFormula.has(row), error: types[k].valueTypes[0][0] === "Error",
      format: String(types[k].numberFormat[0][0]),
    }));
  }
  return out;
}
