/**
 * The workbook's real state behind the fake Excel API: sheets of cells, tables, number formats, fills,
 * data validation, settings. Excel's typing rules live here, so that a string written naively becomes a
 * formula exactly where Excel would make it one.
 */
import type { Area } from "./address";

export type Scalar = string | number | boolean;

export interface Cell {
  /** What `values` reads: the constant, or for a formula a marker of its (uncomputed) result. */
  value: Scalar;
  /** Set when the cell holds a formula (what `formulas` reads). */
  formula?: string;
  numberFormat: string;
  fill?: string;
  bold?: boolean;
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
  showFilters: boolean;
  style: string;
}

export type Visibility = "Visible" | "Hidden" | "VeryHidden";

export interface ChangeEvent {
  worksheetId: string;
  address: string;
  changeType: "RangeEdited";
  source: "Local";
  triggerSource: "ThisLocalAddin" | "Unknown";
}

export class SheetModel {
  readonly cells = new Map<number, Map<number, Cell>>();
  readonly validations: ValidationRule[] = [];
  readonly columnWidths = new Map<number, number>();
  readonly changeHandlers: ((event: ChangeEvent) => Promise<unknown> | void)[] = [];
  visibility: Visibility = "Visible";
  frozenRows = 0;

  constructor(readonly id: string, public name: string) {}

  cell(row: number, column: number): Cell | undefined {
    return this.cells.get(row)?.get(column);
  }

  /** The cell, created empty (General format) when absent. */
  ensure(row: number, column: number): Cell {
    let line = this.cells.get(row);
    if (!line) this.cells.set(row, (line = new Map()));
    let cell = line.get(column);
    if (!cell) line.set(column, (cell = { value: "", numberFormat: "General" }));
    return cell;
  }

  /** Rows and columns that hold anything, or null for an empty sheet. */
  usedArea(): Area | null {
    let r0 = Infinity, c0 = Infinity, r1 = -1, c1 = -1;
    for (const [row, line] of this.cells) {
      for (const [column, cell] of line) {
        if (cell.value === "" && cell.formula === undefined) continue;
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

export class WorkbookModel {
  readonly sheets: SheetModel[] = [];
  readonly tables: TableModel[] = [];
  readonly settings = new Map<string, unknown>();
  activeSheet: SheetModel | undefined;
  private nextId = 1;

  constructor(firstSheet = "Sheet1") {
    this.addSheet(firstSheet);
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
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Writes a value as Excel does when it comes through `values` (or is typed): in a Text-formatted cell
 * ("@") a string is kept as it is; elsewhere a string starting with "=" is a formula, one starting with
 * "+", "-" or "@" that is not a plain number is taken as a formula too, a numeric string becomes a
 * number (leading zeros lost), and a leading tab or carriage return is dropped.
 */
export function enterValue(cell: Cell, value: Scalar | null): void {
  delete cell.formula;
  if (value === null || value === undefined) {
    cell.value = "";
    return;
  }
  if (typeof value !== "string" || cell.numberFormat === "@") {
    cell.value = value;
    return;
  }
  if (value.startsWith("=")) {
    cell.formula = value;
    cell.value = formulaResult(value);
    return;
  }
  if (/^[+\-@]/.test(value) && !NUMBER.test(value.trim())) {
    cell.formula = `=${value.replace(/^@/, "")}`;
    cell.value = formulaResult(cell.formula);
    return;
  }
  if (NUMBER.test(value.trim())) {
    cell.value = Number(value);
    return;
  }
  const serial = dateSerial(value.trim());
  if (serial !== null) {
    cell.value = serial;
    if (!/[yd]/i.test(cell.numberFormat)) cell.numberFormat = Number.isInteger(serial) ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm";
    return;
  }
  cell.value = value.replace(/^[\t\r]+/, "");
}

/** The fake does not calculate: a formula's value says so, visibly different from any text. */
function formulaResult(formula: string): string {
  return `#FORMULA(${formula})`;
}

/** Excel's reading of a typed date ("2026-11-01", "2026-11-01 14:30"): a serial number of days since 1899-12-30. */
function dateSerial(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) return null;
  return ms / 86_400_000 + 25569;
}
