/** Excel.Range: values, formulas, number formats, fills, data validation, within one sheet. */
import { formatArea, type Area } from "./address";
import { ClientObject, type Context } from "./client-object";
import { FakeExcelError } from "./errors";
import { newCell, typedOf, writeFormula, writeTyped, writeValue, type Cell, type Scalar, type SheetModel } from "./model";

type Grid<T> = T[][];

export class Range extends ClientObject {
  protected readonly scalarProperties = ["address", "rowCount", "columnCount", "rowIndex", "columnIndex", "values", "numberFormat", "formulas", "text", "valuesAsJson"];
  readonly format: RangeFormat;
  readonly dataValidation: DataValidation;

  /** `resolve` runs at sync time: a table's body range follows the table as it is then. */
  constructor(ctx: Context, readonly resolve: () => { sheet: SheetModel; area: Area }) {
    super(ctx);
    this.format = new RangeFormat(ctx, this);
    this.dataValidation = new DataValidation(ctx, this);
  }

  get address(): string { return this.read("address"); }
  get rowCount(): number { return this.read("rowCount"); }
  get columnCount(): number { return this.read("columnCount"); }
  get rowIndex(): number { return this.read("rowIndex"); }
  get columnIndex(): number { return this.read("columnIndex"); }
  get values(): Grid<Scalar> { return this.read("values"); }
  get formulas(): Grid<Scalar> { return this.read("formulas"); }
  get numberFormat(): Grid<string> { return this.read("numberFormat"); }
  get text(): Grid<string> { return this.read("text"); }

  get valuesAsJson(): Excel.CellValue[][] { return this.read("valuesAsJson"); }

  /** null leaves a cell unchanged: https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-blank-null-values */
  set values(grid: Grid<Scalar | null>) { this.write("values", grid, writeValue); }
  set formulas(grid: Grid<Scalar | null>) { this.write("formulas", grid, writeFormula); }
  /** Typed values, ExcelApi 1.16: https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member */
  set valuesAsJson(grid: Excel.CellValue[][]) { this.write("valuesAsJson", grid, writeTyped); }
  /** null leaves a cell's format unchanged and "" resets it to General (same page as above). */
  set numberFormat(grid: Grid<string | null>) {
    this.write("numberFormat", grid, (cell, v) => {
      if (v === null) return;
      if (typeof v !== "string") throw new FakeExcelError("InvalidArgument", `A number format is a string, not ${typeof v}.`);
      cell.numberFormat = v === "" ? "General" : v;
    });
  }

  protected snapshot(property: string): unknown {
    const { sheet, area } = this.resolve();
    const grid = <T>(pick: (row: number, column: number) => T): T[][] =>
      Array.from({ length: area.rowCount }, (_, r) => Array.from({ length: area.columnCount }, (_, c) => pick(area.row + r, area.column + c)));
    switch (property) {
      case "address": return formatArea(area, sheet.name);
      case "rowCount": return area.rowCount;
      case "columnCount": return area.columnCount;
      case "rowIndex": return area.row;
      case "columnIndex": return area.column;
      case "values": return grid((r, c) => sheet.cell(r, c)?.value ?? "");
      case "formulas": return grid((r, c) => sheet.cell(r, c)?.formula ?? sheet.cell(r, c)?.value ?? "");
      case "numberFormat": return grid((r, c) => sheet.cell(r, c)?.numberFormat ?? "General");
      case "text": return grid((r, c) => String(sheet.cell(r, c)?.value ?? ""));
      case "valuesAsJson": return grid((r, c) => typedOf(sheet.cell(r, c)));
      default: throw new FakeExcelError("InvalidArgument", `The fake Excel has no Range property '${property}'.`);
    }
  }

  /** Every 2-D input must match the range's shape; a lone value or `null` for the whole property is refused. */
  private write(property: string, input: unknown, apply: (cell: ReturnType<SheetModel["ensure"]>, value: unknown) => void): void {
    this.ctx.enqueue({ [property]: input }, () => {
      const { sheet, area } = this.resolve();
      const grid = input as unknown[][];
      if (!Array.isArray(input) || grid.length !== area.rowCount || grid.some((row) => !Array.isArray(row) || row.length !== area.columnCount)) {
        throw new FakeExcelError(
          "InvalidArgument",
          `The number of rows or columns in the input array doesn't match the size or dimensions of the range (${property}: range ${area.rowCount}x${area.columnCount}, input ${Array.isArray(input) ? `${grid.length}x${Array.isArray(grid[0]) ? grid[0].length : 0}` : typeof input}).`,
        );
      }
      // An operation lands whole or not at all: every cell is computed on a copy first, row by row,
      // and the copies replace the cells only once all of them were accepted.
      const next: Cell[][] = [];
      for (let r = 0; r < area.rowCount; r++) {
        const line = sheet.cells.get(area.row + r);
        const row = grid[r];
        const cells: Cell[] = [];
        for (let c = 0; c < area.columnCount; c++) {
          const cell = newCell(line?.get(area.column + c));
          apply(cell, row[c]);
          cells.push(cell);
        }
        next.push(cells);
      }
      for (let r = 0; r < area.rowCount; r++) {
        const line = sheet.line(area.row + r);
        const cells = next[r];
        for (let c = 0; c < area.columnCount; c++) line.set(area.column + c, cells[c]);
      }
      this.ctx.model.noteChange(sheet, area);
    });
  }

  private derived(make: (area: Area) => Area): Range {
    return new Range(this.ctx, () => {
      const { sheet, area } = this.resolve();
      return { sheet, area: make(area) };
    });
  }

  getCell(row: number, column: number): Range {
    return this.derived((a) => ({ row: a.row + row, column: a.column + column, rowCount: 1, columnCount: 1 }));
  }

  getRow(row: number): Range {
    return this.derived((a) => ({ ...a, row: a.row + row, rowCount: 1 }));
  }

  getColumn(column: number): Range {
    return this.derived((a) => ({ ...a, column: a.column + column, columnCount: 1 }));
  }

  getResizedRange(deltaRows: number, deltaColumns: number): Range {
    return this.derived((a) => ({ ...a, rowCount: a.rowCount + deltaRows, columnCount: a.columnCount + deltaColumns }));
  }

  getOffsetRange(rowOffset: number, columnOffset: number): Range {
    return this.derived((a) => ({ ...a, row: a.row + rowOffset, column: a.column + columnOffset }));
  }

  /**
   * Clears contents and formats. ClearApplyTo.all "Clears everything in the range" without saying whether
   * data validation goes too (https://learn.microsoft.com/javascript/api/excel/excel.clearapplyto): the
   * stricter reading, validation stays (dataValidation.clear() removes it).
   */
  clear(): void {
    this.ctx.enqueue({ clear: true }, () => {
      const { sheet, area } = this.resolve();
      for (let r = area.row; r < area.row + area.rowCount; r++) {
        const line = sheet.cells.get(r);
        if (!line) continue;
        for (let c = area.column; c < area.column + area.columnCount; c++) line.delete(c);
      }
    });
  }

  select(): void {
    this.ctx.enqueue({ select: true }, () => {
      const { sheet, area } = this.resolve();
      selection.current = { sheet: sheet.name, area };
    });
  }
}

/** The last selection made through the API (the workbench page highlights it). */
export const selection: { current: { sheet: string; area: Area } | null } = { current: null };

export class RangeFormat {
  readonly fill: { color: string; clear(): void };
  readonly font: { bold: boolean; color: string };

  constructor(private readonly ctx: Context, private readonly range: Range) {
    const each = (apply: (cell: ReturnType<SheetModel["ensure"]>) => void) => {
      const { sheet, area } = range.resolve();
      for (let r = 0; r < area.rowCount; r++) for (let c = 0; c < area.columnCount; c++) apply(sheet.ensure(area.row + r, area.column + c));
    };
    this.fill = {
      set color(color: string) {
        ctx.enqueue({ fill: color }, () => each((cell) => (cell.fill = color)));
      },
      get color(): string {
        throw new FakeExcelError("PropertyNotLoaded", "The fake Excel does not read fills through the API.");
      },
      clear() {
        ctx.enqueue({ fill: null }, () => each((cell) => delete cell.fill));
      },
    };
    this.font = {
      set bold(bold: boolean) {
        ctx.enqueue({ bold }, () => each((cell) => (cell.bold = bold)));
      },
      get bold(): boolean {
        throw new FakeExcelError("PropertyNotLoaded", "The fake Excel does not read fonts through the API.");
      },
      set color(_c: string) {
        ctx.enqueue({ fontColor: _c }, () => undefined);
      },
      get color(): string {
        return "";
      },
    };
  }

  set columnWidth(width: number) {
    this.ctx.enqueue({ columnWidth: width }, () => {
      const { sheet, area } = this.range.resolve();
      for (let c = area.column; c < area.column + area.columnCount; c++) sheet.columnWidths.set(c, width);
    });
  }

  autofitColumns(): void {
    this.ctx.enqueue({ autofit: true }, () => undefined);
  }
}

export class DataValidation {
  constructor(private readonly ctx: Context, private readonly range: Range) {}

  set rule(rule: { list?: { inCellDropDown: boolean; source: string } }) {
    this.ctx.enqueue({ rule }, () => {
      if (!rule.list) throw new FakeExcelError("InvalidArgument", "The fake Excel supports list validation rules only.");
      const { sheet, area } = this.range.resolve();
      sheet.validations.push({ area, list: { ...rule.list } });
    });
  }

  clear(): void {
    this.ctx.enqueue({ clearValidation: true }, () => {
      const { sheet, area } = this.range.resolve();
      for (let i = sheet.validations.length - 1; i >= 0; i--) {
        const v = sheet.validations[i].area;
        const overlaps = v.row < area.row + area.rowCount && area.row < v.row + v.rowCount && v.column < area.column + area.columnCount && area.column < v.column + v.columnCount;
        if (overlaps) sheet.validations.splice(i, 1);
      }
    });
  }
}
