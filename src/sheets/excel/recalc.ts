/**
 * Refresh data's recalculation, scoped to what is Spend Sync's: the formulas of this workbook that call a
 * `SPEND.` function, each run of them calculated on its own (Range.calculate, ExcelApi 1.6). Not
 * Application.calculate: it "Recalculate[s] all currently opened workbooks in Excel" (d.ts 36553), and `full`
 * marks every cell dirty, so a person's other workbooks would be recalculated and other add-ins' functions
 * called again, for nothing.
 * At most three requests, whatever the workbook holds: its sheets; each sheet's formula cells, as Excel finds
 * them (Range.getSpecialCells, ExcelApi 1.9: no value of the person's is read, only the formulas of the cells
 * that hold one); the calculations, one call per run of adjacent =SPEND cells in a column, none when no
 * formula is ours. Every sheet is searched, hidden and very hidden ones too (Worksheet.findAll would skip
 * them: "Content in hidden worksheets is not returned", d.ts 37528).
 */
import type { XContext, XRange } from "./api";

/** Adjacent cells of one column, each holding a formula that calls a SPEND. function. */
interface Run {
  row: number;
  column: number;
  rowCount: number;
}

/**
 * A formula that calls one of Spend Sync's functions: `SPEND.` as a function's namespace, in any case, outside
 * a text in double quotes or a sheet name in single quotes (`=SUM(A1)` is not; `=IFERROR(SPEND.EXPENSES(…),"")` is).
 */
export function callsSpend(formula: string): boolean {
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""').replace(/'(?:[^']|'')*'/g, "''");
  return /(?:^|[^\w.])SPEND\.[A-Za-z_][\w.]*\s*\(/i.test(code);
}

/** The runs of =SPEND cells in one area of formula cells, column by column. */
function spendRuns(area: XRange): Run[] {
  const runs: Run[] = [];
  const formulas = area.formulas as unknown[][];
  for (let c = 0; c < (formulas[0]?.length ?? 0); c++) {
    let open: Run | null = null;
    for (let r = 0; r < formulas.length; r++) {
      if (!callsSpend(String(formulas[r][c]))) {
        open = null;
        continue;
      }
      if (open) open.rowCount++;
      else runs.push((open = { row: area.rowIndex + r, column: area.columnIndex + c, rowCount: 1 }));
    }
  }
  return runs;
}

/**
 * Calculates the =SPEND formulas of this workbook, and nothing else, in the run's requests (each of which
 * waits for cell edit, runs.ts). A spilled formula is calculated through its anchor, the only cell that holds
 * it. Returns how many formula cells were calculated.
 */
export async function recalculateSpendFormulas(context: XContext): Promise<number> {
  const sheets = context.workbook.worksheets.load("items/name");
  await context.sync();
  const found = sheets.items.map((sheet) => {
    const formulas = sheet.getUsedRange(true).getSpecialCellsOrNullObject("Formulas");
    formulas.load("areaCount");
    formulas.areas.load("items/formulas,items/rowIndex,items/columnIndex");
    return { sheet, formulas };
  });
  await context.sync();
  let cells = 0;
  for (const { sheet, formulas } of found) {
    if (formulas.isNullObject) continue;
    for (const run of formulas.areas.items.flatMap(spendRuns)) {
      sheet.getRangeByIndexes(run.row, run.column, run.rowCount, 1).calculate();
      cells += run.rowCount;
    }
  }
  if (cells > 0) await context.sync();
  return cells;
}
