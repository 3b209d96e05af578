/**
 * The Workbook port over the Excel JavaScript API. Big writes go in chunks: every request stays well
 * under Excel on the web's 5 MB payload limit, so the number of syncs grows with cells / chunk, not with
 * rows; calculation is suspended while they land. Text columns are formatted "@" before their values are
 * written, so that text from the service never becomes a formula and ids keep their leading zeros.
 */
import type { ExcelHost, Scalar, XContext, XRange, XWorksheet } from "./excel-api";
import type { AppendWrite, CellValue, CellWrite, TableRead, TableWrite, Workbook } from "./workbook";

/** Budget of one request's JSON payload (values plus number formats). Excel on the web refuses 5 MB. */
export const REQUEST_BUDGET_BYTES = 2_500_000;
/** Cells read per request (responses have the same limit). */
const READ_CELLS = 30_000;
/** Fill of the columns the user edits, and of their headers. */
export const EDITABLE_FILL = "#FFF4CE";
export const EDITABLE_HEADER_FILL = "#FFE699";

function columnName(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function address(row: number, column: number, rowCount: number, columnCount: number): string {
  return `${columnName(column)}${row + 1}:${columnName(column + columnCount - 1)}${row + rowCount}`;
}

/** Splits rows into chunks whose JSON (values + formats) stays within the budget. */
export function chunkRows(rows: CellValue[][], formatRowBytes: number, budget = REQUEST_BUDGET_BYTES): [number, number][] {
  const chunks: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    const rowBytes = JSON.stringify(rows[i]).length + formatRowBytes + 2;
    if (i > start && bytes + rowBytes > budget) {
      chunks.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += rowBytes;
  }
  if (start < rows.length) chunks.push([start, rows.length]);
  return chunks;
}

export class ExcelWorkbook implements Workbook {
  constructor(private readonly excel: ExcelHost) {}

  readTable(tableName: string): Promise<TableRead | null> {
    return this.excel.run(async (ctx) => {
      const table = ctx.workbook.tables.getItemOrNullObject(tableName);
      await ctx.sync();
      if (table.isNullObject) return null;
      const whole = table.getRange().load("rowIndex, columnIndex, rowCount, columnCount");
      const sheet = table.worksheet.load("name");
      const header = table.getHeaderRowRange().load("values");
      await ctx.sync();
      const bodyRows = whole.rowCount - 1;
      const columns = whole.columnCount;
      const rows: CellValue[][] = [];
      const formulas: CellValue[][] = [];
      const step = Math.max(1, Math.floor(READ_CELLS / columns));
      const sheetRef = ctx.workbook.worksheets.getItemOrNullObject(sheet.name);
      for (let start = 0; start < bodyRows; start += step) {
        const part = sheetRef.getRangeByIndexes(whole.rowIndex + 1 + start, whole.columnIndex, Math.min(step, bodyRows - start), columns).load("values, formulas");
        await ctx.sync();
        rows.push(...(part.values as CellValue[][]));
        formulas.push(...(part.formulas as CellValue[][]));
      }
      return { sheetName: sheet.name, header: header.values[0].map(String), rows, formulas };
    });
  }

  writeTable(w: TableWrite): Promise<void> {
    const columns = w.header.length;
    return this.excel.run(async (ctx) => {
      const { sheet, existing } = await this.prepare(ctx, w.sheetName, w.tableName);
      const top = existing ? existing.rowIndex : 0;
      const left = existing ? existing.columnIndex : 0;
      // Rows written: at least one, as an Excel table always has a body row.
      const rows = w.rows.length > 0 ? w.rows : [w.header.map(() => "" as CellValue)];
      if (existing) {
        // Clear what the old table covered beyond the new one, and its old dropdowns and fills.
        if (existing.columnCount > columns) sheet.getRangeByIndexes(top, left + columns, existing.rowCount, existing.columnCount - columns).clear();
        if (existing.rowCount > rows.length + 1) sheet.getRangeByIndexes(top + 1 + rows.length, left, existing.rowCount - rows.length - 1, columns).clear();
        const oldBody = sheet.getRangeByIndexes(top + 1, left, Math.max(1, existing.rowCount - 1), existing.columnCount);
        oldBody.dataValidation.clear();
        oldBody.format.fill.clear();
      }
      const headerRange = sheet.getRangeByIndexes(top, left, 1, columns);
      headerRange.numberFormat = [w.header.map(() => "@")];
      headerRange.values = [w.header];
      headerRange.format.font.bold = true;
      await ctx.sync();

      const formatRow = w.numberFormats;
      const formatRowBytes = JSON.stringify(formatRow).length;
      let written = 0;
      for (const [start, end] of chunkRows(rows, formatRowBytes)) {
        ctx.application.suspendApiCalculationUntilNextSync();
        const range = sheet.getRangeByIndexes(top + 1 + start, left, end - start, columns);
        // Formats first: a text cell must already be "@" when its value lands.
        range.numberFormat = Array.from({ length: end - start }, () => formatRow);
        range.values = rows.slice(start, end) as Scalar[][];
        await ctx.sync();
        written = Math.min(w.rows.length, end);
        w.onProgress?.(written, w.rows.length);
      }

      const full = address(top, left, rows.length + 1, columns);
      if (existing) {
        existing.table.resize(full);
      } else {
        const table = sheet.tables.add(full, true);
        table.name = w.tableName;
        table.style = "TableStyleLight9";
        table.showFilters = true;
        if (w.visibility !== "VeryHidden") sheet.freezePanes.freezeRows(top + 1);
      }
      for (let c = 0; c < columns; c++) {
        const body = sheet.getRangeByIndexes(top + 1, left + c, rows.length, 1);
        if (w.editable[c]) {
          body.format.fill.color = EDITABLE_FILL;
          sheet.getRangeByIndexes(top, left + c, 1, 1).format.fill.color = EDITABLE_HEADER_FILL;
        }
        const list = w.dropdowns[c];
        if (list) body.dataValidation.rule = { list: { inCellDropDown: true, source: list.join(",") } };
        const width = w.widths?.[c];
        if (width) body.format.columnWidth = width;
      }
      if (w.visibility === "VeryHidden") sheet.visibility = "VeryHidden";
      await ctx.sync();
    });
  }

  /** Finds or creates the sheet, and reads where the existing table is. */
  private async prepare(ctx: XContext, sheetName: string, tableName: string) {
    const table = ctx.workbook.tables.getItemOrNullObject(tableName);
    let sheet: XWorksheet = ctx.workbook.worksheets.getItemOrNullObject(sheetName);
    await ctx.sync();
    if (!table.isNullObject) {
      const range: XRange = table.getRange().load("rowIndex, columnIndex, rowCount, columnCount");
      const owner = table.worksheet.load("name");
      await ctx.sync();
      sheet = ctx.workbook.worksheets.getItemOrNullObject(owner.name);
      await ctx.sync();
      return { sheet, existing: { table, rowIndex: range.rowIndex, columnIndex: range.columnIndex, rowCount: range.rowCount, columnCount: range.columnCount } };
    }
    if (sheet.isNullObject) sheet = ctx.workbook.worksheets.add(sheetName);
    return { sheet, existing: null };
  }

  writeCells(tableName: string, cells: CellWrite[]): Promise<void> {
    return this.excel.run(async (ctx) => {
      const table = ctx.workbook.tables.getItemOrNullObject(tableName);
      await ctx.sync();
      if (table.isNullObject) throw new Error(`The table ${tableName} is gone from the workbook; load it again.`);
      const whole = table.getRange().load("rowIndex, columnIndex");
      const sheet = table.worksheet.load("name");
      await ctx.sync();
      const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet.name);
      let bytes = 0;
      for (const cell of cells) {
        const range = ws.getRangeByIndexes(whole.rowIndex + 1 + cell.row, whole.columnIndex + cell.column, 1, 1);
        range.values = [[cell.value]];
        if (cell.fill === null) range.format.fill.clear();
        else if (cell.fill) range.format.fill.color = cell.fill;
        bytes += JSON.stringify(cell.value).length + 120;
        if (bytes > REQUEST_BUDGET_BYTES) {
          await ctx.sync();
          bytes = 0;
        }
      }
      await ctx.sync();
    });
  }

  /**
   * Appends below the table and grows it (the journal): only the new rows travel, in chunks. Creates the
   * table when it does not exist; the empty body row of a new table is filled first.
   */
  async appendRows(w: AppendWrite): Promise<void> {
    if (w.rows.length === 0) return;
    const columns = w.header.length;
    const created = await this.excel.run(async (ctx) => {
      const table = ctx.workbook.tables.getItemOrNullObject(w.tableName);
      await ctx.sync();
      return !table.isNullObject;
    });
    if (!created) {
      await this.writeTable({ ...w, editable: w.header.map(() => false), dropdowns: w.header.map(() => null) });
      return;
    }
    await this.excel.run(async (ctx) => {
      const table = ctx.workbook.tables.getItemOrNullObject(w.tableName);
      const whole = table.getRange().load("rowIndex, columnIndex, rowCount, columnCount");
      const sheet = table.worksheet.load("name");
      await ctx.sync();
      if (whole.columnCount !== columns) throw new Error(`The table ${w.tableName} has ${whole.columnCount} columns, not ${columns}; rename it to start a new one.`);
      const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet.name);
      // A table is never empty in Excel: an only body row with nothing in it is the place of the first new row.
      let startsEmpty = false;
      if (whole.rowCount === 2) {
        const only = ws.getRangeByIndexes(whole.rowIndex + 1, whole.columnIndex, 1, columns).load("values");
        await ctx.sync();
        startsEmpty = only.values[0].every((v) => v === "");
      }
      let at = whole.rowIndex + (startsEmpty ? 1 : whole.rowCount);
      for (const [start, end] of chunkRows(w.rows, JSON.stringify(w.numberFormats).length)) {
        ctx.application.suspendApiCalculationUntilNextSync();
        const range = ws.getRangeByIndexes(at, whole.columnIndex, end - start, columns);
        range.numberFormat = Array.from({ length: end - start }, () => w.numberFormats);
        range.values = w.rows.slice(start, end) as Scalar[][];
        at += end - start;
        await ctx.sync();
      }
      table.resize(address(whole.rowIndex, whole.columnIndex, at - whole.rowIndex, columns));
      await ctx.sync();
    });
  }

  readSetting(key: string): Promise<string | null> {
    return this.excel.run(async (ctx) => {
      const setting = ctx.workbook.settings.getItemOrNullObject(key);
      setting.load("value");
      await ctx.sync();
      return setting.isNullObject || setting.value === null || setting.value === undefined ? null : String(setting.value);
    });
  }

  writeSetting(key: string, value: string): Promise<void> {
    return this.excel.run(async (ctx) => {
      ctx.workbook.settings.add(key, value);
      await ctx.sync();
    });
  }

  select(tableName: string, row: number, column: number): Promise<void> {
    return this.excel.run(async (ctx) => {
      const table = ctx.workbook.tables.getItemOrNullObject(tableName);
      await ctx.sync();
      if (table.isNullObject) return;
      const whole = table.getRange().load("rowIndex, columnIndex");
      const sheet = table.worksheet.load("name");
      await ctx.sync();
      const ws = ctx.workbook.worksheets.getItemOrNullObject(sheet.name);
      ws.activate();
      ws.getRangeByIndexes(whole.rowIndex + 1 + row, whole.columnIndex + column, 1, 1).select();
      await ctx.sync();
    });
  }
}
