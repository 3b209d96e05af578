/**
 * Which cells a formula spilled into. Excel keeps a dynamic array's result apart from the cells; the
 * in-memory Excel stores spilled values in the cells themselves, so this registry remembers, per anchor,
 * the area and the values it wrote: enough to remove a spill when its formula is cleared or replaced, to
 * answer #SPILL! when the result would cover a non-empty cell, and to spill again once that cell is cleared.
 * A result of more than one cell that would spill into a table is #SPILL! too ("Spill range in table":
 * "Spilled array formulas aren't supported in Excel tables"), whatever the cells hold.
 * https://support.microsoft.com/office/spill-error-ffe0f555-b479-4a17-a6e2-ef9cc9ad4023
 */
import type { Area } from "./address";
import type { RichValue, Scalar, SheetModel } from "./model";

export interface Spill {
  sheet: SheetModel;
  row: number;
  column: number;
  formula: string;
  /** The formula's whole result, kept so that a blocked spill can spill again once it is free. */
  grid: Scalar[][];
  /** Number formats the result carries (Excel's formatted numbers), by cell; null or absent: as the cell is. */
  formats?: (string | null)[][];
  /** The data type each cell of the result holds (null: a plain value), as a formula referring to it is handed it. */
  typed?: (RichValue | null)[][];
  /** The area the result covers, the anchor included. */
  area: Area;
  /** The first non-empty cell in the way (0-based), while the anchor shows #SPILL!; the anchor itself for a table. */
  blockedBy: { row: number; column: number } | null;
  /** The table the result would spill into, while the anchor shows #SPILL! for it. */
  inTable?: string;
}

export const inArea = (a: Area, row: number, column: number) =>
  row >= a.row && row < a.row + a.rowCount && column >= a.column && column < a.column + a.columnCount;

/** Whether two areas share a cell. */
export const overlaps = (a: Area, b: Area) =>
  a.row < b.row + b.rowCount && b.row < a.row + a.rowCount && a.column < b.column + b.columnCount && b.column < a.column + a.columnCount;

/** The area a result of this shape covers from its anchor (a ragged row is padded to the widest). */
export function resultArea(row: number, column: number, grid: Scalar[][]): Area {
  return { row, column, rowCount: Math.max(1, grid.length), columnCount: Math.max(1, ...grid.map((r) => r.length)) };
}

export class SpillRegistry {
  private readonly spills: Spill[] = [];

  /** Live spills only: one whose anchor no longer holds its formula (an API write replaced it) is forgotten. */
  all(): Spill[] {
    for (let i = this.spills.length - 1; i >= 0; i--) {
      const s = this.spills[i];
      if (s.sheet.cell(s.row, s.column)?.formula !== s.formula) this.spills.splice(i, 1);
    }
    return [...this.spills];
  }

  anchoredAt(sheet: SheetModel, row: number, column: number): Spill | undefined {
    return this.all().find((s) => s.sheet === sheet && s.row === row && s.column === column);
  }

  /** The spill whose result covers this cell, the anchor excluded (a blocked spill covers nothing). */
  covering(sheet: SheetModel, row: number, column: number): Spill | undefined {
    return this.all().find((s) => s.sheet === sheet && !s.blockedBy && inArea(s.area, row, column) && !(s.row === row && s.column === column));
  }

  /** Blocked spills whose result would cover this cell. */
  blockedOver(sheet: SheetModel, row: number, column: number): Spill[] {
    return this.all().filter((s) => s.sheet === sheet && s.blockedBy && inArea(resultArea(s.row, s.column, s.grid), row, column));
  }

  add(spill: Spill): void {
    this.remove(spill.sheet, spill.row, spill.column);
    this.spills.push(spill);
  }

  remove(sheet: SheetModel, row: number, column: number): void {
    const i = this.spills.findIndex((s) => s.sheet === sheet && s.row === row && s.column === column);
    if (i >= 0) this.spills.splice(i, 1);
  }
}
