/** Finding a table and addressing its cells: the body through getDataBodyRange, addresses with their sheet. */
import type { XContext, XRange, XTable, XWorksheet } from "./api";
import { WorkbookError } from "../port/workbook-errors";

export function columnName(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * An A1 address qualified by its quoted sheet ('My sheet'!A1:C9): Table.resize and tables.add must not depend on
 * which sheet happens to be active when the address is resolved.
 */
export function sheetAddress(sheetName: string, row: number, column: number, rowCount: number, columnCount: number): string {
  // Always quoted: a bare name that looks like a cell (Q1, FY2026, R1C1) would be read as one.
  const sheet = `'${sheetName.replace(/'/g, "''")}'`;
  return `${sheet}!${columnName(column)}${row + 1}:${columnName(column + columnCount - 1)}${row + rowCount}`;
}

export interface LocatedTable {
  table: XTable;
  sheet: XWorksheet;
  sheetName: string;
  header: string[];
  /** Sheet row of the header. */
  top: number;
  left: number;
  columns: number;
  /** Rows of the data body: without the header and without a Total Row. */
  bodyRows: number;
  showTotals: boolean;
}

/**
 * Reads where a table is; null when the workbook has no table of that name. One round trip: the table is
 * asked for with getItem and everything about it loaded in the same request; where the workbook has no such
 * table, Excel refuses the request with ItemNotFound ("Gets a table by name or ID", TableCollection.getItem)
 * and nothing of it is done. (getItemOrNullObject would need a round trip of its own before the table's
 * header could be asked for: a method called on a null object is not documented to do anything.)
 */
export async function locateTable(context: XContext, tableName: string): Promise<LocatedTable | null> {
  const table = context.workbook.tables.getItem(tableName);
  table.load("showTotals");
  const header = table.getHeaderRowRange().load("values, rowIndex, columnIndex, columnCount");
  const body = table.getDataBodyRange().load("rowCount");
  const owner = table.worksheet.load("name");
  try {
    await context.sync();
  } catch (error) {
    if ((error as { code?: string } | null)?.code === "ItemNotFound") return null;
    throw error;
  }
  return {
    table,
    sheet: context.workbook.worksheets.getItemOrNullObject(owner.name),
    sheetName: owner.name,
    header: header.values[0].map(String),
    top: header.rowIndex,
    left: header.columnIndex,
    columns: header.columnCount,
    bodyRows: body.rowCount,
    showTotals: table.showTotals,
  };
}

/** Where `area` (a sheet or a range) holds values, as its used range's address, or null: formats alone do not count. */
export async function valuesAddress(context: XContext, area: Pick<XRange, "getUsedRangeOrNullObject">): Promise<string | null> {
  const used = area.getUsedRangeOrNullObject(true).load("address");
  await context.sync();
  return used.isNullObject ? null : used.address;
}

/**
 * A sheet that already exists takes a new table only when it holds no values: a person's sheet of the same name
 * (notes, or last month's table converted to a range) is never written over. Refused with what to do; resolves
 * to false (the sheet was not added by the load, so taking the load back clears its cells, never the sheet).
 */
export async function claimEmptySheet(context: XContext, sheet: XWorksheet, sheetName: string, tableName: string): Promise<false> {
  const used = await valuesAddress(context, sheet);
  if (used !== null) {
    const cells = used.slice(used.lastIndexOf("!") + 1);
    throw new WorkbookError("sheet-taken", `The sheet '${sheetName}' already holds data (${cells}), so Spend Sync can't write ${tableName} there. Nothing was written: rename that sheet or clear it, then load again.`);
  }
  return false;
}
