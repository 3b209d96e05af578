/**
 * A person's writes on a grid that formulas spill into: every cell a user action changes goes through here.
 * A write over an anchor removes its spill; a value written into a spilled cell blocks that formula (#SPILL!)
 * and stays; once the cells in the way are emptied, a blocked formula spills again (Excel recalculates it).
 */
import { formatArea, type Area } from "./address";
import { newCell, type Cell, type SheetModel, type WorkbookModel } from "./model";
import { noteFormula } from "./formula-engine";
import { overlaps, resultArea, SpillRegistry, type Spill } from "./spills";

/** A formula's spill as the grid shows it: its anchor, the area its result covers, what blocks it. */
export interface SpillInfo {
  anchor: string;
  formula: string;
  /** The cells the result covers ("B2:D9"); the anchor alone while blocked. */
  area: string;
  /** The first non-empty cell in the way, while the anchor shows #SPILL! (the anchor, for a table). */
  blockedBy?: string;
  /** The table the result would spill into, while the anchor shows #SPILL! for it. */
  inTable?: string;
  /** The size of the whole result, blocked or not. */
  rows: number;
  columns: number;
}

const SPILL_ERROR = "#SPILL!";
/** A cell's A1 address from its 0-based row and column. */
export const address = (row: number, column: number) => formatArea({ row, column, rowCount: 1, columnCount: 1 });
/** A cell with neither a value nor a formula: what a spill may cover and Delete leaves alone. */
export const isEmpty = (cell: Cell | undefined) => !cell || (cell.value === "" && cell.formula === undefined);

export class UserWrites {
  /** The spills formulas entered through the grid made, live. */
  readonly spills = new SpillRegistry();

  /** Each cell's content before the action that is writing it, for the change event's `details` (settle). */
  private readonly before = new Map<string, Cell>();

  constructor(private readonly model: WorkbookModel) {}

  private noteChange(sheet: SheetModel, cells: { row: number; column: number }[]): void {
    if (cells.length === 0) return;
    const rows = cells.map((c) => c.row), columns = cells.map((c) => c.column);
    const row = Math.min(...rows), column = Math.min(...columns);
    const area = { row, column, rowCount: Math.max(...rows) - row + 1, columnCount: Math.max(...columns) - column + 1 };
    // The first cell's content before: the event tells it only where the change was one cell (change-events.ts).
    const before = this.before.get(`${row},${column}`);
    this.before.clear();
    this.model.noteChange({ sheet, area, changeType: "RangeEdited", before });
  }

  /**
   * Every user write goes through here. Writing over an anchor removes its spill; writing a value into a
   * cell a formula spilled into blocks that formula (#SPILL!), and what was written stays, as in Excel.
   */
  put(sheet: SheetModel, row: number, column: number, write: (cell: Cell) => void): void {
    const anchored = this.spills.anchoredAt(sheet, row, column);
    if (anchored) {
      this.unspill(anchored);
      this.spills.remove(sheet, row, column);
    }
    this.before.set(`${row},${column}`, newCell(sheet.cell(row, column)));
    const cell = sheet.ensure(row, column);
    const covering = this.spills.covering(sheet, row, column);
    if (covering) {
      // Emptying a spilled cell changes nothing (its content is the formula's); anything else blocks it.
      const next = newCell(cell);
      write(next);
      if (isEmpty(next)) return;
      this.block(covering, row, column);
      Object.assign(cell, next);
    } else write(cell);
    if (cell.formula !== undefined) {
      noteFormula(this.model, cell);
      this.model.entered.push({ sheet, row, column });
    }
    // Typing a header right of a table makes the table grow by that column, as Excel does.
    for (const table of this.model.tables) {
      const a = table.area;
      if (table.sheet === sheet && row === a.row && column === a.column + a.columnCount) a.columnCount++;
    }
  }

  /**
   * After a person's action: a formula the emptied cells blocked spills again (Excel recalculates it), and the
   * action's change event is raised over the cells it wrote (one event an action, as Excel raises one for a paste).
   */
  settle(sheet: SheetModel, cells: { row: number; column: number }[]): void {
    this.noteChange(sheet, cells);
    for (const { row, column } of cells) {
      if (!isEmpty(sheet.cell(row, column))) continue;
      for (const spill of this.spills.blockedOver(sheet, row, column)) this.place(spill);
    }
  }

  /** Writes a spill's result if nothing is in the way, or marks its anchor #SPILL!. */
  place(spill: Spill): void {
    const { sheet, row, column, grid } = spill;
    const area = resultArea(row, column, grid);
    const table = area.rowCount * area.columnCount > 1 ? this.model.tables.find((t) => t.sheet === sheet && overlaps(t.area, area)) : undefined;
    spill.inTable = table?.name;
    spill.blockedBy = table ? { row, column } : firstInTheWay(sheet, area, row, column);
    const anchor = sheet.ensure(row, column);
    if (spill.blockedBy) {
      anchor.value = SPILL_ERROR;
      spill.area = { row, column, rowCount: 1, columnCount: 1 };
    } else {
      for (let r = 0; r < area.rowCount; r++) {
        for (let c = 0; c < area.columnCount; c++) {
          const cell = sheet.ensure(row + r, column + c);
          if (r > 0 || c > 0) cell.formula = undefined;
          cell.value = grid[r]?.[c] ?? "";
          // A formatted number from a custom function shows with its format (a date looks like a date).
          const format = spill.formats?.[r]?.[c];
          if (format) cell.numberFormat = format;
        }
      }
      spill.area = area;
    }
    this.spills.add(spill);
  }

  /** Removes what a spill wrote, leaving any cell that has since been given something else. */
  private unspill(spill: Spill): void {
    const { sheet, row, column, grid, area } = spill;
    for (let r = 0; r < area.rowCount; r++) {
      for (let c = 0; c < area.columnCount; c++) {
        if (r === 0 && c === 0) continue;
        const cell = sheet.cell(row + r, column + c);
        if (cell && cell.formula === undefined && cell.value === (grid[r]?.[c] ?? "")) cell.value = "";
      }
    }
  }

  /** Something written into the spill's result: the formula shows #SPILL! until that cell is emptied. */
  private block(spill: Spill, row: number, column: number): void {
    this.unspill(spill);
    spill.blockedBy = { row, column };
    spill.area = { row: spill.row, column: spill.column, rowCount: 1, columnCount: 1 };
    spill.sheet.ensure(spill.row, spill.column).value = SPILL_ERROR;
  }

  /** The spill as the grid shows it. */
  info(spill: Spill): SpillInfo {
    const full = resultArea(spill.row, spill.column, spill.grid);
    return {
      anchor: address(spill.row, spill.column), formula: spill.formula, area: formatArea(spill.area),
      blockedBy: spill.blockedBy ? address(spill.blockedBy.row, spill.blockedBy.column) : undefined, inTable: spill.inTable,
      rows: full.rowCount, columns: full.columnCount,
    };
  }
}

/** The first non-empty cell, row by row, of the area without its anchor; null when the area is free. */
function firstInTheWay(sheet: SheetModel, area: Area, row: number, column: number): { row: number; column: number } | null {
  for (let r = area.row; r < area.row + area.rowCount; r++) {
    const line = sheet.cells.get(r);
    if (!line) continue;
    for (let c = area.column; c < area.column + area.columnCount; c++) {
      if ((r !== row || c !== column) && !isEmpty(line.get(c))) return { row: r, column: c };
    }
  }
  return null;
}
