/**
 * Which tables the person is looking at: the sheet on screen (Worksheet collection's getActiveWorksheet) and its
 * tables, and the tables under the selection (Workbook.getSelectedRange, Range.getTables, ExcelApi 1.9). The
 * ribbon's Sync states acts on what they name rather than on whatever the taskpane last picked.
 */
import type { XContext } from "./api";

/** The sheet on screen and its tables' names, top to bottom as Excel lists them. */
export async function activeSheetTables(context: XContext): Promise<{ sheetName: string; sheetTables: string[] }> {
  const sheet = context.workbook.worksheets.getActiveWorksheet().load("name");
  const tables = sheet.tables.load("items/name");
  await context.sync();
  return { sheetName: sheet.name, sheetTables: tables.items.map((t) => t.name) };
}

/**
 * The names of the tables the selection overlaps, top-left first. Excel refuses getSelectedRange when several
 * ranges are selected: the caller runs this in a request of its own and reads a refusal as "no single selection".
 */
export async function selectedTables(context: XContext): Promise<string[]> {
  const tables = context.workbook.getSelectedRange().getTables(false).load("items/name");
  await context.sync();
  return tables.items.map((t) => t.name);
}
