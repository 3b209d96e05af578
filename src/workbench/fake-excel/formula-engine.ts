/**
 * The in-memory Excel's formula values, calculated by HyperFormula (https://hyperformula.handsontable.com), a
 * maintained engine of Excel's functions (XLOOKUP, VLOOKUP, INDEX/MATCH, IFERROR, TEXT, dates…), rather than an
 * evaluator of our own. It is GPL-3.0 (`licenseKey: "gpl-v3"`), which is why it is a devDependency used here
 * only: the workbench and the tests, never the production build (test/build/production-build.test.ts fails if
 * any workbench code reaches dist/). Chosen over fast-formula-parser (MIT) because that one parses and evaluates
 * one formula with callbacks for every reference and keeps no dependency graph, lacks XLOOKUP, and has had no
 * release since 2020; HyperFormula calculates a whole workbook of sheets as Excel does and is kept up.
 *
 * What the engine is handed: every cell of the sheets the formulas reach (their own, those they name, those of
 * the tables they name), constants as typed values (text always as text, so "#N/A" or "=1+1" typed as text stay
 * text), each formula with its structured references turned into A1 ranges (structured-refs.ts). The formulas
 * of the add-in's custom functions (`SPEND.`) are not the engine's: the workbench's runtime calculates them
 * (formula.ts) and the engine takes their values as they are. The engine is kept per workbook and handed
 * only the cells that changed (engine-sheets.ts); a workbook holding no formula of the engine's costs nothing.
 *
 * Results as Excel gives them: a formula that refers to an empty cell is 0; an error is its text (`#N/A`) for
 * `values`, and an Error cell value for `valuesAsJson` and `valueTypes` (model.ts keeps it in `rich`); a circular
 * reference is 0 (Excel warns and shows 0; HyperFormula says #CYCLE!, which Excel does not have).
 */
import { DetailedCellError, type RawCellContent } from "hyperformula";
import type { Area } from "./address";
import type { Cell, SheetModel, WorkbookModel } from "./model";
import { engineWith } from "./engine-sheets";
import { errorTypeOf } from "./typing";
import { translateStructured } from "./structured-refs";

/** Formulas of the add-in's custom functions: `SPEND.` as a function's namespace, outside quoted text. */
export function callsCustomFunction(formula: string): boolean {
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""').replace(/'(?:[^']|'')*'/g, "''");
  return /(?:^|[^\w.])SPEND\.[A-Za-z_][\w.]*\s*\(/i.test(code);
}

/** A formula the engine calculates (not a custom function's). */
const isEngineFormula = (cell: Cell | undefined): cell is Cell & { formula: string } =>
  cell?.formula !== undefined && !callsCustomFunction(cell.formula);

/** HyperFormula's error types with Excel's errorType (Excel.ErrorCellValueType in the d.ts). */
const ERROR_TYPES: Readonly<Record<string, string>> = {
  NA: "NotAvailable", DIV_BY_ZERO: "Div0", NAME: "Name", NUM: "Num", REF: "Ref", VALUE: "Value", SPILL: "Spill", NULL: "Null",
};

/** A constant as the engine takes it: text always as text (a leading apostrophe is HyperFormula's text marker). */
function constantOf(cell: Cell): RawCellContent {
  if (cell.value === "" && !cell.emptyText) return null;
  if (typeof cell.value === "string") {
    const error = cell.formula !== undefined || cell.rich?.type === "Error" ? errorTypeOf(cell.value) : undefined;
    return error ? cell.value : `'${cell.value}`;
  }
  return cell.value;
}

/** The sheets the engine needs: those holding its formulas, and those the formulas (translated) name. */
function sheetsNeeded(model: WorkbookModel, formulas: Map<SheetModel, Map<string, string>>): SheetModel[] {
  const texts = [...formulas.values()].flatMap((m) => [...m.values()]).join("\n").toLowerCase();
  return model.sheets.filter((sheet) => formulas.has(sheet)
    || texts.includes(`${sheet.name.toLowerCase()}!`) || texts.includes(`'${sheet.name.toLowerCase().replace(/'/g, "''")}'!`));
}

/** Every engine formula of the workbook, translated, by sheet then "row,column". */
function formulasOf(model: WorkbookModel): Map<SheetModel, Map<string, string>> {
  const out = new Map<SheetModel, Map<string, string>>();
  for (const sheet of model.sheets) {
    for (const [row, line] of sheet.cells) {
      for (const [column, cell] of line) {
        if (!isEngineFormula(cell)) continue;
        let own = out.get(sheet);
        if (!own) out.set(sheet, (own = new Map()));
        own.set(`${row},${column}`, translateStructured(cell.formula, model.tables, { sheet, row, column }));
      }
    }
  }
  return out;
}

/** A sheet's cells as the engine's rows (constants and translated formulas). */
function contentOf(sheet: SheetModel, formulas: Map<string, string> | undefined): RawCellContent[][] {
  const rows: RawCellContent[][] = [];
  for (const [row, line] of sheet.cells) {
    const out: RawCellContent[] = (rows[row] = []);
    for (const [column, cell] of line) out[column] = formulas?.get(`${row},${column}`) ?? constantOf(cell);
  }
  for (let r = 0; r < rows.length; r++) rows[r] ??= [];
  return rows;
}

/** Writes an engine result into its cell, as Excel holds a formula's value. */
function keepResult(cell: Cell, result: unknown): void {
  cell.rich = undefined;
  if (result instanceof DetailedCellError) {
    const errorType = ERROR_TYPES[result.type];
    if (!errorType) {
      cell.value = 0; // #CYCLE! and the engine's own: see the header
      return;
    }
    const text = result.value;
    cell.value = text;
    cell.rich = { type: "Error", basicValue: text, errorType } as Excel.ErrorCellValue;
    return;
  }
  cell.value = result === null || result === undefined ? 0 : (result as string | number | boolean);
}

/**
 * Calculates the workbook's formulas and keeps each value in its cell; only the cells `keep` accepts take their
 * value (Range.calculate, a manual workbook's newly entered formulas), the others stay as they were. Nothing is
 * done for a workbook without a formula of the engine's.
 */
export function calculateValues(model: WorkbookModel, keep: (sheet: SheetModel, row: number, column: number) => boolean = () => true): void {
  if (!model.holdsFormulas) return;
  const formulas = formulasOf(model);
  if (formulas.size === 0) {
    model.holdsFormulas = false;
    return;
  }
  const sheets = sheetsNeeded(model, formulas);
  const { engine, idOf } = engineWith(model, new Map(sheets.map((sheet) => [sheet, contentOf(sheet, formulas.get(sheet))])));
  for (const [sheet, own] of formulas) {
    const id = idOf(sheet);
    for (const key of own.keys()) {
      const [row, column] = key.split(",").map(Number);
      if (!keep(sheet, row, column)) continue;
      keepResult(sheet.cell(row, column)!, engine.getCellValue({ sheet: id, row, col: column }));
    }
  }
}

/** The cells of `area` only (Range.calculate). */
export const cellsOf = (target: SheetModel, area: Area) => (sheet: SheetModel, row: number, column: number) =>
  sheet === target && row >= area.row && row < area.row + area.rowCount && column >= area.column && column < area.column + area.columnCount;

/** Marks the workbook as holding a formula of the engine's when this cell holds one (cheap: every write passes here). */
export function noteFormula(model: WorkbookModel, cell: Cell): void {
  if (cell.formula !== undefined && !model.holdsFormulas && !callsCustomFunction(cell.formula)) model.holdsFormulas = true;
}

/**
 * Values after a change (a request, a person's edit). In Automatic mode (and AutomaticExceptTables: "data
 * tables" there are what-if tables, not these), every formula takes its value, unless `stale`: a request
 * that suspended calculation, or a workbook whose recalculation is pending since one did, keeps the values it
 * had ("it is the developer's responsibility to re-calc the workbook", d.ts 36589), strict reading, until
 * Application.calculate. In Manual mode only Application.calculate and Range.calculate calculate. Either
 * way a formula just entered is calculated, as Excel calculates a formula when it is entered.
 * https://learn.microsoft.com/javascript/api/excel/excel.calculationmode
 */
export function settleValues(model: WorkbookModel, stale: boolean): void {
  const entered = model.entered.splice(0);
  if (model.calculationMode !== "Manual" && !stale) return calculateValues(model);
  if (entered.length === 0) return;
  const just = new Set(entered.map((e) => `${e.sheet.id}!${e.row},${e.column}`));
  calculateValues(model, (sheet, row, column) => just.has(`${sheet.id}!${row},${column}`));
}
