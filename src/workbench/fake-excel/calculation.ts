/**
 * What a calculation reaches. The in-memory Excel does not compute formulas, but it counts, per workbook and
 * per formula cell, every calculation that reaches the cell (a custom function in it would be called again),
 * so a test sees what a recalculation touched. Application.calculate reaches every open workbook ("Recalculate all currently
 * opened workbooks in Excel", d.ts 36553); Range.calculate and RangeAreas.calculate only their own cells.
 * Which cells are dirty is not modelled: CalculationType.recalculate reaches none (a workbook whose formulas
 * depend on nothing that changed), `full` and `fullRebuild` every formula ("mark all cells as dirty", d.ts 60600).
 */
import { parseArea, type Area } from "./address";
import type { SheetModel, WorkbookModel } from "./model";

const key = (sheet: SheetModel, row: number, column: number) => `${sheet.id}!${row},${column}`;

/** Calculates the formula cells of `area` (only the formulas: a constant has nothing to calculate). */
export function calculateArea(model: WorkbookModel, sheet: SheetModel, area: Area): void {
  for (const [row, line] of sheet.cells) {
    if (row < area.row || row >= area.row + area.rowCount) continue;
    for (const [column, cell] of line) {
      if (column < area.column || column >= area.column + area.columnCount || cell.formula === undefined) continue;
      const at = key(sheet, row, column);
      model.calculated.set(at, (model.calculated.get(at) ?? 0) + 1);
    }
  }
}

/** Every formula of the workbook, every sheet, hidden ones too (what `full` marks dirty). */
export function calculateWorkbook(model: WorkbookModel): void {
  const everything = { row: 0, column: 0, rowCount: Infinity, columnCount: Infinity };
  for (const sheet of model.sheets) calculateArea(model, sheet, everything);
}

/** How many times the formula in this cell was calculated (0 for a cell no calculation reached). */
export function calculationsOf(model: WorkbookModel, sheetName: string, address: string): number {
  const sheet = model.sheet(sheetName);
  const { row, column } = parseArea(address);
  return sheet ? model.calculated.get(key(sheet, row, column)) ?? 0 : 0;
}
