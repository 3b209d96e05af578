/**
 * Excel.RangeAreas (ExcelApi 1.9) on the in-memory Excel: rectangles of one sheet, as Range.getSpecialCells
 * finds them, with their ranges (`areas`, a RangeCollection) and Calculate.
 * https://learn.microsoft.com/javascript/api/excel/excel.rangeareas
 */
import { formatArea, type Area } from "../address";
import { calculateArea } from "../calculation";
import { calculateValues, cellsOf } from "../formula-engine";
import { FakeExcelError } from "../errors";
import type { SheetModel } from "../model";
import { HostObject, readOnly, type HostContext, type Members } from "./host-object";
import { NullHostObject } from "./null-object";
import type { RangeAt } from "./range-cells";

const CELL_TYPES = ["ConditionalFormats", "DataValidations", "Blanks", "Constants", "Formulas", "SameConditionalFormat", "SameDataValidation", "Visible"];

/**
 * Range.getSpecialCells(cellType, cellValueType): "If no special cells are found, an `ItemNotFound` error will
 * be thrown"; the OrNullObject form answers a null object instead (d.ts 39247, 39271). Only `Formulas` of any
 * value type is modelled: another cell type, or a value type, is refused rather than answered wrongly (strict).
 * A spill's cells other than its anchor hold no formula (only the anchor does), so they are not found.
 */
export function specialCells(host: HostContext, sheet: SheetModel, within: Area, cellType: unknown, cellValueType: unknown, orNull: boolean, rangeAt: RangeAt): HostObject {
  if (!CELL_TYPES.includes(String(cellType))) throw new FakeExcelError("InvalidArgument", `Unknown special cell type '${String(cellType)}'.`);
  if (cellType !== "Formulas" || (cellValueType !== undefined && cellValueType !== null && cellValueType !== "All")) {
    throw new FakeExcelError("InvalidArgument", `The in-memory Excel finds formula cells of every value type only, not ${String(cellType)}/${String(cellValueType)}.`);
  }
  const areas = formulaAreas(sheet, within);
  if (areas.length > 0) return new RangeAreasObject(host, sheet, areas, rangeAt);
  if (orNull) return new NullHostObject("RangeAreas", `The special cells (${String(cellType)}) of ${formatArea(within, sheet.name)}`);
  throw new FakeExcelError("ItemNotFound", "No cells were found.");
}

/**
 * The formula cells of `within` as rectangles: each row's runs of adjacent formula cells, a run extended down
 * while the next row has the same run. How Excel cuts its areas is not documented; any cut covers the same cells.
 */
function formulaAreas(sheet: SheetModel, within: Area): Area[] {
  const done: Area[] = [];
  let open = new Map<string, Area>();
  const rows = [...sheet.cells.keys()].filter((r) => r >= within.row && r < within.row + within.rowCount).sort((a, b) => a - b);
  for (const row of rows) {
    const next = new Map<string, Area>();
    const columns = [...sheet.cells.get(row)!.entries()].filter(([c, cell]) => cell.formula !== undefined && c >= within.column && c < within.column + within.columnCount).map(([c]) => c);
    for (let i = 0; i < columns.length;) {
      let j = i;
      while (j + 1 < columns.length && columns[j + 1] === columns[j] + 1) j++;
      const run = `${columns[i]}:${j - i + 1}`;
      const above = open.get(run);
      if (above && above.row + above.rowCount === row) {
        above.rowCount++;
        open.delete(run);
        next.set(run, above);
      } else next.set(run, { row, column: columns[i], rowCount: 1, columnCount: j - i + 1 });
      i = j + 1;
    }
    done.push(...open.values());
    open = next;
  }
  done.push(...open.values());
  return done.sort((a, b) => a.row - b.row || a.column - b.column);
}

export class RangeAreasObject extends HostObject {
  readonly className = "RangeAreas";
  /** Office.js asks Excel to keep a RangeAreas (`_KeepReference`), as it does a Range. */
  override readonly keepable = true;

  constructor(private readonly host: HostContext, private readonly sheet: SheetModel, private readonly areas: readonly Area[], private readonly rangeAt: RangeAt) {
    super();
  }

  protected members(): Members {
    const { areas, sheet } = this;
    return {
      scalars: {
        /** "Sheet1!A1:B4, Sheet1!D1:D4": the sheet's name on each area (d.ts, RangeAreas.address). */
        Address: readOnly(() => areas.map((a) => formatArea(a, sheet.name)).join(", ")),
        AreaCount: readOnly(() => areas.length),
        CellCount: readOnly(() => areas.reduce((sum, a) => sum + a.rowCount * a.columnCount, 0)),
      },
      navigation: { Areas: () => new RangeCollectionObject(areas, this.rangeAt) },
      methods: {
        /** "Calculates all cells in the RangeAreas" (d.ts 39775). */
        Calculate: () => {
          for (const area of areas) calculateArea(this.host.model, sheet, area);
          calculateValues(this.host.model, (at, row, column) => areas.some((area) => cellsOf(sheet, area)(at, row, column)));
          return null;
        },
      },
    };
  }
}

/** Excel.RangeCollection: the rectangles of a RangeAreas, each a Range. */
export class RangeCollectionObject extends HostObject {
  readonly className = "RangeCollection";
  override readonly itemClass = "Range";

  constructor(private readonly areas: readonly Area[], private readonly rangeAt: RangeAt) {
    super();
  }

  override items(): HostObject[] {
    return this.areas.map(this.rangeAt);
  }

  protected members(): Members {
    return { scalars: {} };
  }
}
