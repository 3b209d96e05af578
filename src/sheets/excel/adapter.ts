/**
 * The Workbook port over the Excel JavaScript API (typed by @types/office-js through excel/api.ts): each
 * method is one or a few Excel.runs (runs.ts) of the file that does that job.
 * - Every Excel.run waits for the user to leave cell edit mode (delayForCellEdit) instead of failing.
 * - Values travel as typed cell values (excel/cells.ts): service text stays exactly that text in every
 *   column, numbers stay numbers; the user's own formulas are written back as formulas.
 * - Writes go in chunks whose UTF-8 size stays under Excel on the web's 5 MB request limit (write-rows.ts),
 *   reads in chunks under its 5 MB response limit (excel/read.ts); calculation is suspended while chunks land
 *   and the workbook is recalculated after, as suspendApiCalculationUntilNextSync asks.
 * - The body is getDataBodyRange: a Total Row is never read or written as data.
 */
import type { ExcelHost } from "./api";
import { writeCells } from "./cell-writes";
import { createTable } from "./create-table";
import { ExcelEditMarks } from "./edit-marks";
import { locateTable } from "./locate";
import { activeSheetTables, selectedTables } from "./looked-at";
import { WatchedRuns, type Run } from "./runs";
import { recalculateSpendFormulas } from "./recalc";
import { readSetting, writeSetting } from "./settings";
import { describeCells, readColumns, readRows, readTable, type CellKind } from "./table-reads";
import { updateTable } from "./update-table";
import { appendBelow, hasTable, writeTable } from "./write-table";
import type { AppendWrite, LookedAt, CellValue, CellWrite, ColumnsRead, TableRead, TableStart, TableStream, TableUpdate, TableWrite, Workbook } from "../port/workbook";


export class ExcelWorkbook implements Workbook {
  private readonly runs: WatchedRuns;
  /** One Excel.run of this workbook, watched for a long wait. */
  private readonly run: Run;

  /** The rows changed since Preview's last full read, from Excel's change events (edit-marks.ts). */
  readonly editMarks: ExcelEditMarks;

  constructor(excel: ExcelHost) {
    this.runs = new WatchedRuns(excel);
    this.run = (batch) => this.runs.run(batch);
    this.editMarks = new ExcelEditMarks(this.run);
  }

  onExcelWait(listener: (waiting: boolean) => void): () => void {
    return this.runs.onExcelWait(listener);
  }

  /** Refresh data's recalculation: this workbook's =SPEND formulas only (recalc.ts); how many cells it calculated. */
  recalculateSpendFormulas(): Promise<number> {
    return this.run((context) => recalculateSpendFormulas(context));
  }

  readTable(tableName: string): Promise<TableRead | null> {
    return this.run((context) => readTable(context, tableName));
  }

  readColumns(tableName: string, headers: readonly string[]): Promise<ColumnsRead | null> {
    return this.run((context) => readColumns(context, tableName, headers));
  }

  readRows(tableName: string, rows: readonly number[], headers: readonly string[]): Promise<CellValue[][] | null> {
    return this.run((context) => readRows(context, tableName, rows, headers));
  }

  describeCells(tableName: string, headers: readonly string[], rows: readonly number[]): Promise<Map<string, Map<number, CellKind>> | null> {
    return this.run((context) => describeCells(context, tableName, headers, rows));
  }

  updateTable(tableName: string, update: TableUpdate): Promise<void> {
    if (update.rows.length === 0) return Promise.resolve();
    return this.run((context) => updateTable(context, tableName, update));
  }

  writeTable(spec: TableWrite): Promise<void> {
    return this.run((context) => writeTable(context, spec));
  }

  createTable(spec: TableStart): Promise<TableStream> {
    return createTable(this.run, spec);
  }

  writeCells(tableName: string, cells: CellWrite[]): Promise<void> {
    if (cells.length === 0) return Promise.resolve();
    return writeCells(this.run, tableName, cells);
  }

  /**
   * Appends below the table and grows it (the journal): only the new rows travel, in chunks. Creates the
   * table when it does not exist; the empty body row of a new table is filled first.
   */
  async appendRows(spec: AppendWrite): Promise<void> {
    if (spec.rows.length === 0) return;
    const created = await this.run((context) => hasTable(context, spec.tableName));
    if (!created) {
      await this.writeTable({ ...spec, editable: spec.header.map(() => false), dropdowns: spec.header.map(() => null) });
      return;
    }
    await this.run((context) => appendBelow(context, spec));
  }

  readSetting(key: string): Promise<string | null> {
    return this.run((context) => readSetting(context, key));
  }

  writeSetting(key: string, value: string): Promise<void> {
    return this.run((context) => writeSetting(context, key, value));
  }

  /** The sheet on screen and its tables; the selection's tables only where the sheet holds more than one. */
  async lookedAt(): Promise<LookedAt> {
    const sheet = await this.run((context) => activeSheetTables(context));
    if (sheet.sheetTables.length < 2) return { ...sheet, selectedTables: null };
    const selected = await this.run((context) => selectedTables(context)).catch(() => null);
    return { ...sheet, selectedTables: selected };
  }

  select(tableName: string, row: number, column: number | string): Promise<void> {
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at || row >= at.bodyRows) return;
      const index = typeof column === "number" ? column : Math.max(0, at.header.indexOf(column));
      at.sheet.activate();
      at.sheet.getRangeByIndexes(at.top + 1 + row, at.left + index, 1, 1).select();
      await context.sync();
    });
  }
}
