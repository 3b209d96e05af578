/**
 * The workbook's state behind the in-memory Excel: sheets of cells, tables, number formats, fills, data
 * validation, settings. What a write does to a cell (Excel's typing rules) is in typing.ts; what a request
 * does to the workbook, in protocol/.
 */
import type { Area } from "./address";

export type Scalar = string | number | boolean;

/**
 * A value richer than a string, number or boolean (ExcelApi 1.16 data types): an error, an entity, a linked
 * data type (Stocks, Geography), a formatted number. `values` reads only its basic value; `valuesAsJson`
 * reads it whole, as it was stored.
 */
export type RichValue = Excel.ErrorCellValue | Excel.EntityCellValue | Excel.LinkedEntityCellValue | Excel.FormattedNumberCellValue | Excel.DoubleCellValue;

export interface Cell {
  /** What `values` reads: the constant, for a formula its last calculated value (formula-engine.ts), for a rich value its basic value. */
  value: Scalar;
  /** Set when the cell holds a formula (what `formulas` reads). */
  formula?: string;
  numberFormat: string;
  fill?: string;
  bold?: boolean;
  /** The whole value when it is richer than `value` (see RichValue); for a formula, its error value when it has one. */
  rich?: RichValue;
  /** The cell holds a text of no characters (a String "" written through valuesAsJson): not blank, unlike "". */
  emptyText?: boolean;
}

/**
 * A cell with every field present, so that all cells share one shape (no `delete`, which turns an object
 * into a slow dictionary): a 51,000-row load is 1.7 million cells, table and snapshot, and their cost is the benchmark's.
 */
export function newCell(from?: Cell): Cell {
  return from
    ? { value: from.value, formula: from.formula, numberFormat: from.numberFormat, fill: from.fill, bold: from.bold, rich: from.rich, emptyText: from.emptyText }
    : { value: "", formula: undefined, numberFormat: "General", fill: undefined, bold: undefined, rich: undefined, emptyText: undefined };
}

/**
 * One row of a sheet's cells, by column: a Map's interface over an array, for speed (a load's writes and
 * reads index by column; measured, the memory of a load's cells stayed about the same as with a Map).
 */
export class CellLine {
  private readonly byColumn: (Cell | undefined)[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(column: number): Cell | undefined {
    return this.byColumn[column];
  }

  has(column: number): boolean {
    return this.byColumn[column] !== undefined;
  }

  set(column: number, cell: Cell): this {
    if (this.byColumn[column] === undefined) this.count++;
    this.byColumn[column] = cell;
    return this;
  }

  delete(column: number): boolean {
    if (this.byColumn[column] === undefined) return false;
    this.byColumn[column] = undefined;
    this.count--;
    return true;
  }

  *keys(): IterableIterator<number> {
    for (let c = 0; c < this.byColumn.length; c++) if (this.byColumn[c] !== undefined) yield c;
  }

  *values(): IterableIterator<Cell> {
    for (const cell of this.byColumn) if (cell !== undefined) yield cell;
  }

  *entries(): IterableIterator<[number, Cell]> {
    for (let c = 0; c < this.byColumn.length; c++) {
      const cell = this.byColumn[c];
      if (cell !== undefined) yield [c, cell];
    }
  }

  [Symbol.iterator](): IterableIterator<[number, Cell]> {
    return this.entries();
  }
}

export interface ValidationRule {
  area: Area;
  list: { inCellDropDown: boolean; source: string };
}

export interface TableModel {
  id: string;
  name: string;
  sheet: SheetModel;
  /** Including the header row. */
  area: Area;
  showFilterButton: boolean;
  /** A Total Row is the last row of `area` (Table.showTotals). */
  showTotals: boolean;
  style: string;
}

export type Visibility = "Visible" | "Hidden" | "VeryHidden";

export class SheetModel {
  readonly cells = new Map<number, CellLine>();
  readonly validations: ValidationRule[] = [];
  readonly columnWidths = new Map<number, number>();
  visibility: Visibility = "Visible";
  frozenRows = 0;
  /** The selection on this sheet (Excel keeps one per sheet; A1 at first): Workbook.getSelectedRange reads the active sheet's. */
  selected: Area = { row: 0, column: 0, rowCount: 1, columnCount: 1 };

  constructor(readonly id: string, public name: string) {}

  cell(row: number, column: number): Cell | undefined {
    return this.cells.get(row)?.get(column);
  }

  /** The cell, created empty (General format) when absent. */
  ensure(row: number, column: number): Cell {
    const line = this.line(row);
    let cell = line.get(column);
    if (!cell) line.set(column, (cell = newCell()));
    return cell;
  }

  /** The row's cells, created empty when absent. */
  line(row: number): CellLine {
    let line = this.cells.get(row);
    if (!line) this.cells.set(row, (line = new CellLine()));
    return line;
  }

  /**
   * The smallest area holding every used cell (inside `within`, when given), or null when none is: a used
   * cell has a value or formula, or, unless `valuesOnly`, formatting (a fill, bold, a number format other
   * than General), as Worksheet.getUsedRange and Range.getUsedRange describe "used".
   */
  usedArea(valuesOnly = false, within?: Area): Area | null {
    let r0 = Infinity, c0 = Infinity, r1 = -1, c1 = -1;
    for (const [row, line] of this.cells) {
      if (within && (row < within.row || row >= within.row + within.rowCount)) continue;
      for (const [column, cell] of line) {
        if (within && (column < within.column || column >= within.column + within.columnCount)) continue;
        const holds = cell.value !== "" || cell.formula !== undefined || cell.rich !== undefined || cell.emptyText === true;
        const formatted = cell.fill !== undefined || cell.bold === true || cell.numberFormat !== "General";
        if (!holds && (valuesOnly || !formatted)) continue;
        r0 = Math.min(r0, row); r1 = Math.max(r1, row); c0 = Math.min(c0, column); c1 = Math.max(c1, column);
      }
    }
    return r1 < 0 ? null : { row: r0, column: c0, rowCount: r1 - r0 + 1, columnCount: c1 - c0 + 1 };
  }

  validationAt(row: number, column: number): ValidationRule | undefined {
    return [...this.validations].reverse().find((v) =>
      row >= v.area.row && row < v.area.row + v.area.rowCount && column >= v.area.column && column < v.area.column + v.area.columnCount);
  }
}

/**
 * A change of cell data, as Excel raises change events for it (protocol/change-events.ts): cells edited (typed,
 * pasted, filled, cleared, written by an add-in), table rows inserted or deleted, rows sorted. `before` is the one
 * cell's content before the edit, where a single cell changed (what the event's `details` report).
 */
export interface DataChange {
  sheet: SheetModel;
  area: Area;
  changeType: "RangeEdited" | "RowInserted" | "RowDeleted" | "RowSorted";
  before?: Cell;
}

/** A person typing in a cell: batches fail or wait until `ended` resolves. */
export interface CellEdit {
  sheet: string;
  address: string;
  ended: Promise<void>;
  /** Batches waiting for the edit to end (runs that passed delayForCellEdit). */
  waiting: number;
  end(): void;
}

export class WorkbookModel {
  readonly sheets: SheetModel[] = [];
  readonly tables: TableModel[] = [];
  readonly settings = new Map<string, unknown>();
  activeSheet: SheetModel | undefined;
  /** Set while the user is in cell edit mode. */
  cellEdit: CellEdit | null = null;
  /** A request suspended calculation and no later request recalculated (the add-in's duty, per the d.ts). */
  recalculationPending = false;
  /** Application.calculationMode (ExcelApi 1.1 to read, 1.8 to set): when formulas take their values (formula-engine.ts). */
  calculationMode: "Automatic" | "AutomaticExceptTables" | "Manual" = "Automatic";
  /** Some cell may hold a formula of the engine's: calculation is skipped, at no cost, while none does. */
  holdsFormulas = false;
  /** Formula cells entered since the last calculation: Excel calculates a formula when it is entered, even in Manual mode. */
  readonly entered: { sheet: SheetModel; row: number; column: number }[] = [];
  /** How many times Excel calculated each formula cell, by sheet id and cell (calculation.ts). */
  readonly calculated = new Map<string, number>();
  /** The last cell the add-in selected (Range.select), for the workbench page to show; taken by whoever shows it. */
  selection: { sheet: string; area: Area } | null = null;
  /** Who hears of data changes: the hosts' change events (protocol/change-events.ts); a copy of the workbook has none. */
  readonly changeListeners: ((change: DataChange) => void)[] = [];
  private nextId = 1;

  constructor(firstSheet = "Sheet1") {
    this.addSheet(firstSheet);
  }

  /** Tells every listener of a data change (a person's or an add-in's: Excel raises events for both). */
  noteChange(change: DataChange): void {
    for (const listener of this.changeListeners) listener(change);
  }

  newId(prefix: string): string {
    return `{${prefix}-${this.nextId++}}`;
  }

  sheet(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  addSheet(name: string): SheetModel {
    const sheet = new SheetModel(this.newId("sheet"), name);
    this.sheets.push(sheet);
    this.activeSheet ??= sheet;
    return sheet;
  }

  table(name: string): TableModel | undefined {
    return this.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  }

  /**
   * What the workbook holds once saved and opened again: sheets, cells, tables, validation, widths and
   * settings, each copied (changing one workbook leaves the other as it was); no cell edit, no selection.
   */
  copy(): WorkbookModel {
    const copy = new WorkbookModel();
    copy.sheets.length = 0;
    copy.activeSheet = undefined;
    const sheetOf = new Map<SheetModel, SheetModel>();
    for (const sheet of this.sheets) {
      const to = new SheetModel(sheet.id, sheet.name);
      for (const [row, line] of sheet.cells) {
        const next = new CellLine();
        for (const [column, cell] of line) next.set(column, newCell(cell));
        to.cells.set(row, next);
      }
      for (const rule of sheet.validations) to.validations.push({ area: { ...rule.area }, list: { ...rule.list } });
      for (const [column, width] of sheet.columnWidths) to.columnWidths.set(column, width);
      to.visibility = sheet.visibility;
      to.frozenRows = sheet.frozenRows;
      copy.sheets.push(to);
      sheetOf.set(sheet, to);
    }
    for (const table of this.tables) copy.tables.push({ ...table, area: { ...table.area }, sheet: sheetOf.get(table.sheet)! });
    for (const [key, value] of this.settings) copy.settings.set(key, structuredClone(value));
    copy.activeSheet = this.activeSheet && sheetOf.get(this.activeSheet);
    copy.nextId = this.nextId;
    copy.calculationMode = this.calculationMode;
    copy.holdsFormulas = this.holdsFormulas;
    return copy;
  }
}

