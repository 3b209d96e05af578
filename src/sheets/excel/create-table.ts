/**
 * A new table written as its rows arrive (TableStream, a first load): its sheet made ready, the table set up
 * at once, rows streamed below it (stream-sends.ts), its columns marked at the end, and all of it taken back
 * when the load is cancelled or fails.
 */
import type { XContext, XWorksheet } from "./api";
import { planRows, type RowCosts } from "./budget";
import { typedCell } from "../port/cells";
import { claimEmptySheet, sheetAddress } from "./locate";
import type { Run } from "./runs";
import { markColumns, setUpTable, writeHeader } from "./table-setup";
import { sizeColumns } from "./widths";
import { writeRows, type ChunkHooks } from "./write-rows";
import { EDITABLE_HEADER_FILL } from "../port/marks";
import { StreamSends, type RequestOrder } from "./stream-sends";
import type { CellValue, TableStart, TableStream } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/**
 * A new table written as its rows arrive (TableStream). The header and one empty body row (an Excel table
 * always has one) are written at once, so the table exists from the start; rows go in Excel.run batches
 * (stream-sends.ts) whose last chunk also resizes the table (no extra round trip per page), and whose first
 * request waits for the one before to be back; fills and dropdowns go over the whole body in `finish`, as
 * writeTable puts them on after the rows. `discard` waits for whatever is still in Excel, finish's too.
 */
export async function createTable(run: Run, spec: TableStart): Promise<TableStream> {
  const columns = spec.header.length;
  const addedSheet = await run((context) => readySheet(context, spec));
  const plannedCosts: RowCosts = new WeakMap();
  const sends = new StreamSends(
    (below, rows, order) => run((context) => writeBelow(context, spec, columns, below, rows, { ...order, plannedCosts })),
    (rows) => {
      const chunks = planRows(rows, spec.numberFormats, spec.formatsOf, undefined, plannedCosts).chunks;
      return chunks.length > 1 ? chunks[chunks.length - 2][1] : 0;
    },
    spec.holdPartial,
  );
  const body = () => Math.max(1, sends.written);
  // finish's own requests (fills, dropdowns, recalculation), while they run.
  let finishing: Promise<void> | null = null;
  const discard = async () => {
    // What is still on its way lands first (or fails), so that nothing is written after the table is gone.
    await sends.abandon();
    await finishing?.catch(() => undefined);
    try {
      await run((context) => takeBack(context, spec, addedSheet, body));
    } catch {
      // Nothing more can be taken back (the sheet or the workbook is gone); the load's own error is what to report.
    }
  };
  try {
    await run((context) => startTable(context, spec));
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    append: (rows) => sends.append(rows),
    finish: () => (finishing = (async () => {
      // The rows still held go first, in requests of their own: the recalculation below must not share a
      // request whose calculation is suspended.
      await sends.settled();
      await run((context) => finishTable(context, spec, body()));
    })()),
    discard,
  };
}

/**
 * Makes the table's sheet ready to take it, or refuses with what to do; resolves to whether the sheet was added
 * (then taking the load back deletes the sheet, not only what was written on it).
 */
async function readySheet(context: XContext, spec: TableStart): Promise<boolean> {
  const { sheetName, tableName } = spec;
  const clash = context.workbook.tables.getItemOrNullObject(tableName);
  const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
  await context.sync();
  if (!clash.isNullObject && !spec.ownSheet) throw new WorkbookError("sheet-taken", `A table named ${tableName} already exists in this workbook; refresh it instead.`);
  if (!sheet.isNullObject && !spec.ownSheet) return claimEmptySheet(context, sheet, sheetName, tableName);
  if (!sheet.isNullObject) {
    // A sheet of the table's own left from before (its table deleted by hand, say) is replaced whole; one that
    // holds another table is someone's data, never deleted.
    const tables = sheet.tables.load("items/name");
    await context.sync();
    const others = tables.items.map((t) => t.name).filter((name) => name.toLowerCase() !== tableName.toLowerCase());
    if (others.length > 0) throw new WorkbookError("sheet-taken", `The sheet '${sheetName}' holds the table ${others.join(", ")}, so Spend Sync can't use it for ${tableName}; rename that sheet and load again.`);
  }
  if (!clash.isNullObject) clash.delete();
  if (!sheet.isNullObject) deleteSheet(sheet);
  context.workbook.worksheets.add(sheetName);
  await context.sync();
  return true;
}

/** The table from the start: its header and one empty body row, set up, its editable headers marked, its columns as wide as asked. */
async function startTable(context: XContext, spec: TableStart): Promise<void> {
  const columns = spec.header.length;
  const sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
  writeHeader(sheet, 0, 0, spec.header);
  sheet.getRangeByIndexes(1, 0, 1, columns).valuesAsJson = [spec.header.map(() => typedCell(""))];
  setUpTable(sheet, sheetAddress(spec.sheetName, 0, 0, 2, columns), 0, spec);
  for (let c = 0; c < columns; c++) {
    if (spec.editable[c]) sheet.getRangeByIndexes(0, c, 1, 1).format.fill.color = EDITABLE_HEADER_FILL;
    const width = spec.widths?.[c];
    if (width) sheet.getRangeByIndexes(1, c, 1, 1).format.columnWidth = width;
  }
  if (spec.visibility === "VeryHidden") sheet.visibility = "VeryHidden";
  await context.sync();
}

/** Writes rows below the `written` ones of a streamed table; its last request also grows the table over them. */
async function writeBelow(context: XContext, spec: TableStart, columns: number, written: number, rows: CellValue[][], order: RequestOrder & Pick<ChunkHooks, "plannedCosts">): Promise<void> {
  const sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
  const table = context.workbook.tables.getItemOrNullObject(spec.tableName);
  const grown = sheetAddress(spec.sheetName, 0, 0, 1 + written + rows.length, columns);
  await writeRows(context, sheet, 1 + written, 0, rows, spec.numberFormats, spec.formatsOf, undefined, { ...order, withLastChunk: () => table.resize(grown) });
}

/** Once every row is in: the editable columns' fills and the dropdowns over the whole body, widths, recalculation. */
async function finishTable(context: XContext, spec: TableStart, body: number): Promise<void> {
  const sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
  markColumns(sheet, 0, 0, body, spec, false);
  if (spec.widths) await sizeColumns(context, sheet, 0, 0, 1 + body, spec.widths);
  context.application.calculate("Recalculate");
  await context.sync();
}

/** Takes back what a stream wrote: the sheet when it was added for the table, else the table and the cells it covered. */
async function takeBack(context: XContext, spec: TableStart, addedSheet: boolean, body: () => number): Promise<void> {
  const sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
  if (addedSheet) {
    deleteSheet(sheet); // its table goes with it
  } else {
    const table = context.workbook.tables.getItemOrNullObject(spec.tableName);
    await context.sync();
    if (!table.isNullObject) table.delete();
    const covered = sheet.getRangeByIndexes(0, 0, 1 + body(), spec.header.length);
    covered.clear();
    covered.dataValidation.clear(); // clear() leaves a finished table's dropdowns (as Home > Clear All does)
  }
  context.application.calculate("Recalculate");
  await context.sync();
}

/**
 * Deletes a sheet of the add-in's own, whatever its visibility: "If the worksheet's visibility is set to
 * VeryHidden, the delete operation will fail with an InvalidOperation exception. You should first change its
 * visibility to hidden or visible before deleting it." (d.ts, Excel.Worksheet.delete). Setting a hidden
 * sheet Hidden again changes nothing, so it is set whatever it was.
 */
export function deleteSheet(sheet: XWorksheet): void {
  sheet.visibility = "Hidden";
  sheet.delete();
}
