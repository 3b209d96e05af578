/**
 * Whole-table writes: a table written (again) whole with every row (writeTable), and rows appended below one
 * (the journal). The body is getDataBodyRange: a Total Row is never read or written as data.
 */
import type { XContext, XWorksheet } from "./api";
import { locateTable, sheetAddress, type LocatedTable } from "./locate";
import { markColumns, setUpTable, writeHeader } from "./table-setup";
import { sizeColumns } from "./widths";
import { writeRows } from "./write-rows";
import type { AppendWrite, CellValue, TableWrite } from "../port/workbook";
import { tableGone, WorkbookError } from "../port/workbook-errors";

/** Writes a table whole: over the one of that name where it is, else as a new one on its sheet (added if missing). */
export async function writeTable(context: XContext, spec: TableWrite): Promise<void> {
  const columns = spec.header.length;
  const existing = await locateTable(context, spec.tableName);
  const sheet = existing ? existing.sheet : await sheetNamed(context, spec.sheetName);
  const sheetName = existing ? existing.sheetName : spec.sheetName;
  const top = existing?.top ?? 0;
  const left = existing?.left ?? 0;
  // Rows written: at least one, as an Excel table always has a body row.
  const rows = spec.rows.length > 0 ? spec.rows : [spec.header.map((): CellValue => "")];
  if (existing) clearOld(sheet, existing, columns, rows.length);
  writeHeader(sheet, top, left, spec.header);
  await context.sync();

  await writeRows(context, sheet, top + 1, left, rows, spec.numberFormats, spec.formatsOf, spec.formulas, {
    onChunk: (end) => spec.onProgress?.(Math.min(spec.rows.length, end), spec.rows.length),
  });

  const full = sheetAddress(sheetName, top, left, rows.length + 1, columns);
  if (existing) growOld(sheet, existing, full, columns);
  else setUpTable(sheet, full, top, spec);
  markColumns(sheet, top, left, rows.length, spec, true);
  // The layout's columns are sized to what they now hold; the user's own columns keep their widths.
  if (spec.widths) await sizeColumns(context, sheet, top, left, rows.length + 1, spec.widths);
  if (spec.visibility === "VeryHidden") sheet.visibility = "VeryHidden";
  context.application.calculate("Recalculate");
  await context.sync();
}

/** The sheet of that name, added when the workbook has none. */
async function sheetNamed(context: XContext, sheetName: string): Promise<XWorksheet> {
  const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
  await context.sync();
  return sheet.isNullObject ? context.workbook.worksheets.add(sheetName) : sheet;
}

/**
 * Before a table is written again: the body cells it covered beyond the new one are cleared (the header's once resized:
 * Excel names a cleared header cell ColumnN), and its old dropdowns and fills; a Total Row goes off and on around the write.
 */
function clearOld(sheet: XWorksheet, existing: LocatedTable, columns: number, rows: number): void {
  if (existing.showTotals) existing.table.showTotals = false;
  const { top, left } = existing;
  const covered = existing.bodyRows + (existing.showTotals ? 1 : 0);
  if (existing.columns > columns) sheet.getRangeByIndexes(top + 1, left + columns, covered, existing.columns - columns).clear();
  if (covered > rows) sheet.getRangeByIndexes(top + 1 + rows, left, covered - rows, columns).clear();
  const oldBody = existing.table.getDataBodyRange();
  oldBody.dataValidation.clear();
  oldBody.format.fill.clear();
}

/** After a table is written again: the table over `full`, the header cells it no longer covers cleared, its Total Row back. */
function growOld(sheet: XWorksheet, existing: LocatedTable, full: string, columns: number): void {
  const { top, left } = existing;
  existing.table.resize(full);
  if (existing.columns > columns) sheet.getRangeByIndexes(top, left + columns, 1, existing.columns - columns).clear(); // headers Excel named ColumnN
  if (existing.showTotals) existing.table.showTotals = true; // the user's Total Row comes back below the new body
}

/** Whether the workbook has a table of that name. */
export async function hasTable(context: XContext, tableName: string): Promise<boolean> {
  const table = context.workbook.tables.getItemOrNullObject(tableName);
  await context.sync();
  return !table.isNullObject;
}

/**
 * Appends below an existing table and grows it over the new rows (the journal): only they travel, in chunks.
 * The empty body row of a new table is filled first.
 */
export async function appendBelow(context: XContext, spec: AppendWrite): Promise<void> {
  const columns = spec.header.length;
  const at = await locateTable(context, spec.tableName);
  if (!at) throw tableGone(spec.tableName, null);
  if (at.columns !== columns) throw new WorkbookError("table-changed", `The table ${spec.tableName} has ${at.columns} columns, not ${columns}; rename it to start a new one.`);
  if (at.showTotals) at.table.showTotals = false;
  // A table is never empty in Excel: an only body row with nothing in it is the place of the first new row.
  let startsEmpty = false;
  if (at.bodyRows === 1) {
    const only = at.sheet.getRangeByIndexes(at.top + 1, at.left, 1, columns).load("values");
    await context.sync();
    startsEmpty = only.values[0].every((v) => v === "");
  }
  const firstRow = at.top + 1 + (startsEmpty ? 0 : at.bodyRows);
  await writeRows(context, at.sheet, firstRow, at.left, spec.rows, spec.numberFormats, undefined, undefined);
  at.table.resize(sheetAddress(at.sheetName, at.top, at.left, firstRow - at.top + spec.rows.length, columns));
  if (at.showTotals) at.table.showTotals = true;
  context.application.calculate("Recalculate");
  await context.sync();
}
