/**
 * The workbook's real state behind the fake Excel API: sheets of cells, tables, number formats, fills,
 * data validation, settings. Excel's typing rules live here, so that a string written naively becomes a
 * formula exactly where Excel would make it one.
 */
import { formatArea, type Area } from "./address";
import { FakeExcelError } from "./errors";

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

/**
 * A cell with every field present, so that all cells share one shape (no `delete`, which turns an object
 * into a slow dictionary): a 51,000-row load is 1.7 million cells, table and snapshot, and their cost is the benchmark's.
 */
export function newCell(from?: Cell): Cell {
  return from
    ? { value: from.value, formula: from.formula, numberFormat: from.numberFormat, fill: from.fill, bold: from.bold }
    : { value: "", formula: undefined, numberFormat: "General", fill: undefined, bold: undefined };
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

export interface ChangeEvent {
  worksheetId: string;
  address: string;
  changeType: "RangeEdited";
  source: "Local";
  triggerSource: "ThisLocalAddin" | "Unknown";
}

export class SheetModel {
  readonly cells = new Map<number, CellLine>();
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
  private nextId = 1;
  private pendingChanges: { sheet: SheetModel; area: Area }[] = [];

  /** An API write changed these cells: worksheet onChanged fires after the sync, for the add-in's own writes too. */
  noteChange(sheet: SheetModel, area: Area): void {
    this.pendingChanges.push({ sheet, area });
  }

  /**
   * Fires the change events of the last sync, after it: Worksheet.onChanged fires for changes made by the
   * add-in itself (triggerSource "ThisLocalAddin", ExcelApi 1.14):
   * https://learn.microsoft.com/javascript/api/excel/excel.worksheetchangedeventargs#excel-excel-worksheetchangedeventargs-triggersource-member
   */
  flushChanges(): void {
    const changes = this.pendingChanges;
    this.pendingChanges = [];
    for (const { sheet, area } of changes) {
      const event: ChangeEvent = { worksheetId: sheet.id, address: areaAddress(area), changeType: "RangeEdited", source: "Local", triggerSource: "ThisLocalAddin" };
      for (const handler of [...sheet.changeHandlers]) queueMicrotask(() => void handler(event));
    }
  }

  /**
   * Table headers are unique, non-empty text: Excel names a blank header ColumnN and adds a number to a
   * repeated one. https://support.microsoft.com/office/overview-of-excel-tables-7ab0bb7d-3a9e-4b56-a3c9-6c94334e492c
   */
  normaliseTables(): void {
    for (const table of this.tables) {
      const seen = new Set<string>();
      for (let c = 0; c < table.area.columnCount; c++) {
        const cell = table.sheet.ensure(table.area.row, table.area.column + c);
        cell.formula = undefined;
        let name = String(cell.value ?? "");
        if (name === "") name = `Column${c + 1}`;
        const base = name;
        for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base}${n}`;
        seen.add(name.toLowerCase());
        cell.value = name;
      }
    }
  }

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

const areaAddress = (area: Area) => formatArea(area);

/** The most characters a cell holds: https://support.microsoft.com/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3 */
export const CELL_TEXT_LIMIT = 32_767;

/**
 * Prefixes that make a string written through `values` a formula. The d.ts of Range.values names + - =
 * ("Excel interprets this value as a formula"). Undocumented, so taken the strict way here: "@" (Excel's
 * implicit-intersection operator, which it turns into a formula when typed), the full-width forms
 * (＝ ＋ － ＠, which an IME produces and Excel's parser accepts in East Asian locales), and any of them
 * after leading white space (space, tab, CR, LF), which Excel's entry parser skips.
 */
const FORMULA_START = /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
const NUMBER = /^\s*[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?\s*%?\s*$/;

const isNumberLike = (text: string) => NUMBER.test(text) && /\d/.test(text);

/** The error a write through the API gets for text over the cell limit (strict: Excel's own wording is undocumented). */
function checkLength(text: string): void {
  if (text.length > CELL_TEXT_LIMIT) {
    throw new FakeExcelError("InvalidArgument", `A cell can hold at most ${CELL_TEXT_LIMIT} characters; this text has ${text.length}.`);
  }
}

/**
 * A value written through `Range.values` (or `formulas`, for a non-formula string). Rules:
 * - `null` leaves the cell as it is; "" clears it.
 *   https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-blank-null-values
 * - a string starting with a formula prefix (see FORMULA_START) becomes a formula. Whether a cell formatted
 *   Text ("@") keeps such a string as text when it comes through the API is not documented, so here it
 *   does not: the strict reading. The only documented way to write exact text is a typed `String` value
 *   through `valuesAsJson` (see writeTyped).
 * - a number-like string becomes a number (leading zeros, exponent forms and thousands separators read as
 *   Excel reads them), TRUE / FALSE become booleans, and date-like text becomes a date serial: Excel
 *   converts text typed or written as values (the d.ts of Range.values on dates), whatever the format.
 */
export function writeValue(cell: Cell, value: unknown): void {
  if (value === null) return;
  if (value === undefined) throw new FakeExcelError("InvalidArgument", "undefined is not a cell value; use null to leave a cell unchanged.");
  cell.formula = undefined;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new FakeExcelError("InvalidArgument", `${value} is not a number Excel can hold.`);
    cell.value = value;
    return;
  }
  if (typeof value === "boolean") {
    cell.value = value;
    return;
  }
  if (typeof value !== "string") throw new FakeExcelError("InvalidArgument", `A cell value is a string, number or boolean, not ${typeof value}.`);
  checkLength(value);
  if (FORMULA_START.test(value) && !isNumberLike(value)) {
    const formula = value.trimStart().replace(/^[@\uFF20]/, "").replace(/^[\uFF1D\uFF0B\uFF0D]/, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
    cell.formula = formula.startsWith("=") ? formula : `=${formula}`;
    cell.value = formulaResult(cell.formula);
    return;
  }
  cell.value = convertText(cell, value);
}

/** What Excel makes of a constant string: a number, a boolean, a date, or the text with leading tabs/CRs dropped. */
function convertText(cell: Cell, value: string): Scalar {
  if (isNumberLike(value)) {
    const n = Number(value.replace(/[,%\s]/g, ""));
    return value.trim().endsWith("%") ? n / 100 : n;
  }
  if (/^\s*(true|false)\s*$/i.test(value)) return value.trim().toLowerCase() === "true";
  const serial = dateSerial(value.trim());
  if (serial !== null) {
    if (!/[yd]/i.test(cell.numberFormat)) cell.numberFormat = Number.isInteger(serial) ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm";
    return serial;
  }
  return value.replace(/^[\t\r\n]+/, "");
}

/** A formula written through `Range.formulas`: a string starting with "=" is a formula; anything else is a value. */
export function writeFormula(cell: Cell, value: unknown): void {
  if (typeof value === "string" && value.startsWith("=")) {
    checkLength(value);
    cell.formula = value;
    cell.value = formulaResult(value);
    return;
  }
  writeValue(cell, value);
}

/** The typed cell values the in-memory Excel accepts through `Range.valuesAsJson` (ExcelApi 1.16). */
type TypedValue = { type: string; basicValue?: unknown };

/**
 * A typed value written through `Range.valuesAsJson` (ExcelApi 1.16): a `String` cell value is "the value
 * of a cell containing a string" (Excel.StringCellValue). That Excel stores it without parsing is our
 * reading, not a documented sentence: the self-test ("Check this Excel") confirms it in the user's Excel.
 * https://learn.microsoft.com/javascript/api/excel/excel.stringcellvalue
 * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member
 * Whether `null` leaves a cell unchanged here, as it does for `values`, is not documented: refused (strict).
 */
export function writeTyped(cell: Cell, value: unknown): void {
  if (value === null || typeof value !== "object") {
    throw new FakeExcelError("InvalidArgument", "valuesAsJson takes a typed cell value for every cell (null is not documented to leave a cell unchanged).");
  }
  const typed = value as TypedValue;
  cell.formula = undefined;
  switch (typed.type) {
    case "String":
      if (typeof typed.basicValue !== "string") throw new FakeExcelError("InvalidArgument", "A String cell value needs a string basicValue.");
      checkLength(typed.basicValue);
      cell.value = typed.basicValue;
      return;
    case "Double":
      if (typeof typed.basicValue !== "number" || !Number.isFinite(typed.basicValue)) throw new FakeExcelError("InvalidArgument", "A Double cell value needs a finite number.");
      cell.value = typed.basicValue;
      return;
    case "Boolean":
      if (typeof typed.basicValue !== "boolean") throw new FakeExcelError("InvalidArgument", "A Boolean cell value needs a boolean.");
      cell.value = typed.basicValue;
      return;
    case "Empty":
      cell.value = "";
      return;
    default:
      throw new FakeExcelError("InvalidArgument", `The in-memory Excel writes String, Double, Boolean and Empty cell values, not ${String(typed.type)}.`);
  }
}

/** A cell as `valuesAsJson` reads it. */
export function typedOf(cell: Cell | undefined): TypedValue {
  const value = cell?.value ?? "";
  if (cell?.formula !== undefined) return { type: "String", basicValue: String(value) };
  if (value === "") return { type: "Empty", basicValue: "" };
  if (typeof value === "number") return { type: "Double", basicValue: value };
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  return { type: "String", basicValue: value };
}

/**
 * What a person typing into the grid gets: as `values`, except that a cell formatted Text ("@") keeps what
 * is typed as text, and a leading apostrophe marks text and is not stored (both documented for the UI:
 * https://support.microsoft.com/office/format-numbers-as-text-583160db-8e6b-4c15-8c83-1ae5d4e1a6b3).
 */
export function typeIntoCell(cell: Cell, input: Scalar): void {
  if (typeof input === "string" && (cell.numberFormat === "@" || input.startsWith("'"))) {
    cell.formula = undefined;
    cell.value = input.startsWith("'") ? input.slice(1) : input;
    return;
  }
  writeValue(cell, input);
}

/** The fake does not calculate: a formula's value says so, visibly different from any text. */
function formulaResult(formula: string): string {
  return `#FORMULA(${formula})`;
}

/** Excel's reading of date-like text ("2026-11-01", "2026-11-01 14:30", "11/1/2026"): a serial number of days since 1899-12-30. */
function dateSerial(text: string): number | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const m = iso ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]] : us ? [us[3], us[1], us[2], us[4], us[5], us[6]] : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[0]), Number(m[1]), Number(m[2])];
  const ms = Date.UTC(y, mo - 1, d, Number(m[3] ?? 0), Number(m[4] ?? 0), Number(m[5] ?? 0));
  const back = new Date(ms);
  if (Number.isNaN(ms) || back.getUTCDate() !== d || back.getUTCMonth() !== mo - 1 || y < 1900) return null;
  return ms / 86_400_000 + 25569;
}
