/**
 * Excel.Range on the in-memory Excel: a fixed area of a sheet (Excel keeps a range object to the cells it
 * was made for), its values in every form, number formats, and the ranges derived from it. Its format
 * (widths, fills, fonts) is in range-format.ts, its data validation in data-validation.ts.
 * https://learn.microsoft.com/javascript/api/excel/excel.range
 */
import { formatArea, type Area } from "../address";
import { calculateArea } from "../calculation";
import { FakeExcelError } from "../errors";
import { calculateValues, cellsOf, noteFormula } from "../formula-engine";
import { newCell, type Cell, type SheetModel } from "../model";
import { currentProfile } from "../profiles";
import { typedOf, valueTypeOf, writeFormula, writeTyped, writeValue } from "../typing";
import { DataValidationObject } from "./data-validation";
import { HostObject, readOnly, type HostContext, type Members } from "./host-object";
import { NullHostObject } from "./null-object";
import { specialCells } from "./range-areas";
import type { RangeCells } from "./range-cells";
import { RangeFormatObject } from "./range-format";
import { TableScopedCollectionObject } from "./table-scoped";

/** The grid's size: https://support.microsoft.com/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3 */
export const SHEET_ROWS = 1_048_576;
export const SHEET_COLUMNS = 16_384;

export function checkArea(area: Area): Area {
  if (!Number.isInteger(area.row) || !Number.isInteger(area.column) || !Number.isInteger(area.rowCount) || !Number.isInteger(area.columnCount)
    || area.row < 0 || area.column < 0 || area.rowCount < 1 || area.columnCount < 1
    || area.row + area.rowCount > SHEET_ROWS || area.column + area.columnCount > SHEET_COLUMNS) {
    throw new FakeExcelError("InvalidArgument", `The range (row ${area.row}, column ${area.column}, ${area.rowCount} x ${area.columnCount}) is not inside a sheet of ${SHEET_ROWS} rows and ${SHEET_COLUMNS} columns.`);
  }
  return area;
}

/** "A range is limited to five million cells for get operations" (resource limits; Excel performance article). */
const READ_CELL_LIMIT = 5_000_000;
/** "The attempted operation affects more than the limit of 33554000 cells", an error that "only occurs in Excel on the web" (error table). */
const WEB_OPERATION_CELL_LIMIT = 33_554_000;

/** An operation on this many cells, where Excel on the web refuses it. */
function checkOperationCells(cells: number): void {
  if (currentProfile().platform === "OfficeOnline" && cells > WEB_OPERATION_CELL_LIMIT) {
    throw new FakeExcelError("OperationCellsExceedLimit", `The attempted operation affects more than the limit of ${WEB_OPERATION_CELL_LIMIT} cells (${cells}).`);
  }
}

/** What `values` reads of a cell: a constant, a formula's calculated value (formula-engine.ts), a rich value's basic value. */
const valueOf = (cell: Cell | undefined): unknown => cell?.value ?? "";

export class RangeObject extends HostObject implements RangeCells {
  readonly className = "Range";
  override readonly keepable = true;

  constructor(readonly host: HostContext, readonly sheet: SheetModel, readonly area: Area) {
    super();
    checkArea(area);
  }

  private derived(area: Area): RangeObject {
    return new RangeObject(this.host, this.sheet, area);
  }

  private grid<T>(pick: (cell: Cell | undefined, row: number, column: number) => T): T[][] {
    const { row: r0, column: c0, rowCount, columnCount } = this.area;
    if (rowCount * columnCount > READ_CELL_LIMIT) {
      throw new FakeExcelError("RangeExceedsLimit", `The cell count in the range has exceeded the maximum supported number (${rowCount * columnCount} cells > ${READ_CELL_LIMIT}).`);
    }
    const out: T[][] = new Array(rowCount);
    for (let r = 0; r < rowCount; r++) {
      const line = this.sheet.cells.get(r0 + r);
      const row: T[] = new Array(columnCount);
      for (let c = 0; c < columnCount; c++) row[c] = pick(line?.get(c0 + c), r0 + r, c0 + c);
      out[r] = row;
    }
    return out;
  }

  /**
   * Every 2-D input must match the range's shape (a lone value or `null` for the whole property is refused:
   * https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-blank-null-values), and an operation
   * lands whole or not at all (strict): every cell is computed on a copy first, and the copies replace the
   * cells only once all of them were accepted.
   */
  private write(property: string, input: unknown, apply: (cell: Cell, value: unknown) => void): void {
    const { row: r0, column: c0, rowCount, columnCount } = this.area;
    const grid = input as unknown[][];
    if (!Array.isArray(input) || grid.length !== rowCount || grid.some((row) => !Array.isArray(row) || row.length !== columnCount)) {
      throw new FakeExcelError(
        "InvalidArgument",
        `The number of rows or columns in the input array doesn't match the size or dimensions of the range (${property}: range ${rowCount}x${columnCount}, input ${Array.isArray(input) ? `${grid.length}x${Array.isArray(grid[0]) ? grid[0].length : 0}` : typeof input}).`,
      );
    }
    const next: Cell[][] = new Array(rowCount);
    for (let r = 0; r < rowCount; r++) {
      const line = this.sheet.cells.get(r0 + r);
      const row = grid[r];
      const cells: Cell[] = new Array(columnCount);
      for (let c = 0; c < columnCount; c++) {
        const cell = newCell(line?.get(c0 + c));
        apply(cell, row[c]);
        cells[c] = cell;
      }
      next[r] = cells;
    }
    const { model } = this.host;
    const enters = property === "values" || property === "formulas";
    const before = newCell(this.sheet.cell(r0, c0));
    for (let r = 0; r < rowCount; r++) {
      const line = this.sheet.line(r0 + r);
      const cells = next[r];
      for (let c = 0; c < columnCount; c++) {
        const cell = cells[c];
        line.set(c0 + c, cell);
        if (!enters || cell.formula === undefined) continue;
        noteFormula(model, cell);
        model.entered.push({ sheet: this.sheet, row: r0 + r, column: c0 + c });
      }
    }
    // An add-in's write of data raises change events as a person's edit does (change-events.ts); a format does not.
    if (property !== "numberFormat") model.noteChange({ sheet: this.sheet, area: this.area, changeType: "RangeEdited", before });
  }

  private each(apply: (cell: Cell) => void): void {
    const { row, column, rowCount, columnCount } = this.area;
    checkOperationCells(rowCount * columnCount);
    for (let r = 0; r < rowCount; r++) for (let c = 0; c < columnCount; c++) apply(this.sheet.ensure(row + r, column + c));
  }

  protected members(): Members {
    return {
      scalars: this.properties(),
      navigation: {
        Format: () => new RangeFormatObject(this),
        DataValidation: () => new DataValidationObject(this),
        Worksheet: () => this.host.worksheet(this.sheet),
      },
      methods: this.methods(),
    };
  }

  /** Where the range is and how large, and its cells' values in every form and their number formats. */
  private properties(): Members["scalars"] {
    const { area, sheet } = this;
    return {
      Address: readOnly(() => formatArea(area, sheet.name)),
      RowCount: readOnly(() => area.rowCount),
      ColumnCount: readOnly(() => area.columnCount),
      RowIndex: readOnly(() => area.row),
      ColumnIndex: readOnly(() => area.column),
      CellCount: readOnly(() => area.rowCount * area.columnCount),
      /** null leaves a cell unchanged: https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-blank-null-values */
      Values: { get: () => this.grid((cell) => valueOf(cell)), set: (v) => this.write("values", v, writeValue) },
      /** Typed values, ExcelApi 1.16: https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member */
      ValuesAsJson: { get: () => this.grid((cell) => typedOf(cell)), set: (v) => this.write("valuesAsJson", v, writeTyped) },
      ValueTypes: readOnly(() => this.grid((cell) => valueTypeOf(cell))),
      Formulas: { get: () => this.grid((cell) => cell?.formula ?? valueOf(cell)), set: (v) => this.write("formulas", v, writeFormula) },
      /** null leaves a cell's format unchanged and "" resets it to General (same page as Values). */
      NumberFormat: {
        get: () => this.grid((cell) => cell?.numberFormat ?? "General"),
        set: (v) => this.write("numberFormat", v, (cell, format) => {
          if (format === null) return;
          if (typeof format !== "string") throw new FakeExcelError("InvalidArgument", `A number format is a string, not ${typeof format}.`);
          cell.numberFormat = format === "" ? "General" : format;
        }),
      },
      Text: readOnly(() => this.grid((cell) => String(valueOf(cell)))),
    };
  }

  /** The ranges derived from this one, and what can be done to its cells. */
  private methods(): Members["methods"] {
    const { area, sheet } = this;
    return {
      GetCell: (row, column) => this.derived({ row: area.row + Number(row), column: area.column + Number(column), rowCount: 1, columnCount: 1 }),
      // Zero-indexed into the range; unlike getCell, no "outside the bounds" allowance is documented (strict).
      GetRow: (row) => this.derived({ ...area, row: area.row + inside(row, area.rowCount, "row"), rowCount: 1 }),
      GetColumn: (column) => this.derived({ ...area, column: area.column + inside(column, area.columnCount, "column"), columnCount: 1 }),
      GetResizedRange: (rows, columns) => this.derived({ ...area, rowCount: area.rowCount + Number(rows), columnCount: area.columnCount + Number(columns) }),
      /** "If there are no used cells within the range, then this method returns an object with its isNullObject property set to true" (d.ts, ExcelApi 1.4). */
      GetUsedRangeOrNullObject: (valuesOnly) => {
        const used = sheet.usedArea(valuesOnly === true, area);
        return used ? this.derived(used) : new NullHostObject("Range", `The used range of ${formatArea(area, sheet.name)}`);
      },
      /** The tables the range overlaps, or with `fullyContained` only those wholly inside it (ExcelApi 1.9). */
      GetTables: (fullyContained) => new TableScopedCollectionObject(this.host, sheet, area, fullyContained === true),
      GetOffsetRange: (rows, columns) => this.derived({ ...area, row: area.row + Number(rows), column: area.column + Number(columns) }),
      GetBoundingRect: (other) => {
        if (!(other instanceof RangeObject) || other.sheet !== sheet) throw new FakeExcelError("InvalidArgument", "getBoundingRect needs a range of the same sheet.");
        const row = Math.min(area.row, other.area.row);
        const column = Math.min(area.column, other.area.column);
        return this.derived({
          row, column,
          rowCount: Math.max(area.row + area.rowCount, other.area.row + other.area.rowCount) - row,
          columnCount: Math.max(area.column + area.columnCount, other.area.column + other.area.columnCount) - column,
        });
      },
      /** Office.js sends it before splitting a large `values`/`numberFormat`/`formulas` write into rows. */
      _ValidateArraySize: (rows, columns) => {
        if (rows !== area.rowCount || columns !== area.columnCount) {
          throw new FakeExcelError("InvalidArgument", `The number of rows or columns in the input array (${String(rows)}x${String(columns)}) doesn't match the size or dimensions of the range (${area.rowCount}x${area.columnCount}).`);
        }
        return null;
      },
      /**
       * Clears contents and formats (ClearApplyTo.all). "Clears everything in the range" does not say whether data
       * validation goes too (https://learn.microsoft.com/javascript/api/excel/excel.clearapplyto): the stricter
       * reading, validation stays (dataValidation.clear() removes it).
       */
      Clear: (applyTo) => {
        if (applyTo !== undefined && applyTo !== null && applyTo !== "All") {
          throw new FakeExcelError("InvalidArgument", `The in-memory Excel clears everything (ClearApplyTo.all), not '${String(applyTo)}'.`);
        }
        checkOperationCells(area.rowCount * area.columnCount);
        for (const [r, line] of sheet.cells) {
          if (r < area.row || r >= area.row + area.rowCount) continue;
          for (let c = area.column; c < area.column + area.columnCount; c++) line.delete(c);
        }
        this.host.model.noteChange({ sheet, area, changeType: "RangeEdited" });
        return null;
      },
      /** "Calculates a range of cells on a worksheet" (ExcelApi 1.6): its formulas only, in this workbook only (calculation.ts). */
      Calculate: () => {
        calculateArea(this.host.model, sheet, area);
        calculateValues(this.host.model, cellsOf(sheet, area));
        return null;
      },
      /** ExcelApi 1.9: ItemNotFound when no cell matches (range-areas.ts). */
      GetSpecialCells: (cellType, cellValueType) => specialCells(this.host, sheet, area, cellType, cellValueType, false, (a) => this.derived(a)),
      /** ExcelApi 1.9: a null object when no cell matches. */
      GetSpecialCellsOrNullObject: (cellType, cellValueType) => specialCells(this.host, sheet, area, cellType, cellValueType, true, (a) => this.derived(a)),
      /** Strict (undocumented): only a range of the active sheet can be selected; activate its sheet first. */
      Select: () => {
        if (sheet.visibility !== "Visible") throw new FakeExcelError("InvalidOperation", "A range of a hidden sheet can't be selected.");
        if (this.host.model.activeSheet !== sheet) throw new FakeExcelError("InvalidOperation", `The range is on '${sheet.name}', which is not the active sheet: activate it first.`);
        this.host.model.activeSheet = sheet;
        this.host.model.selection = { sheet: sheet.name, area };
        sheet.selected = area;
        return null;
      },
    };
  }

  /** Applies a format to every cell of the range (fills, fonts). */
  eachCell(apply: (cell: Cell) => void): void {
    this.each(apply);
  }
}

/** A zero-based row or column index into the range, checked to be inside it. */
function inside(index: unknown, count: number, what: string): number {
  const n = Number(index);
  if (!Number.isInteger(n) || n < 0 || n >= count) throw new FakeExcelError("InvalidArgument", `The ${what} index ${String(index)} is outside the range (${count} ${what}s, zero-indexed).`);
  return n;
}
