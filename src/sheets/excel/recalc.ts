/**
 * Refresh data's recalculation, scoped to what is Spend Sync's: the formulas of this workbook that call a
 * `SPEND.` function, each run of them calculated on its own (Range.calculate, ExcelApi 1.6). Not
 * Application.calculate: it "Recalculate[s] all currently opened workbooks in Excel" (d.ts 36553), and `full`
 * marks every cell dirty, so a person's other workbooks would be recalculated and other add-ins' functions
 * called again, for nothing.
 * Three requests, whatever the number of sheets: the sheets; each sheet's formula cells, as Excel finds them
 * (Range.getSpecialCells, ExcelApi 1.9: no value of the person's is read, only the formulas of the cells that
 * hold one); the calculations, one call per run of adjacent =SPEND cells in a column, none when no formula is
 * ours. Only formulas too many for one answer take more: one read per FORMULA_CELLS_PER_READ of them. Every
 * sheet is searched, hidden and very hidden ones too (Worksheet.findAll would skip them: "Content in hidden
 * worksheets is not returned", d.ts 37528).
 */
import type { XContext, XRange, XWorksheet } from "./api";

/**
 * Formula cells one request reads when they are too many for one answer: 4 MB (read.ts's budget) at 200
 * characters a formula; a read Excel still refuses is halved.
 */
const FORMULA_CELLS_PER_READ = 20_000;

const isTooLarge = (error: unknown) => (error as { code?: string } | null)?.code === "ResponsePayloadSizeLimitExceeded";

/** A block of formula cells of one sheet, read on its own. */
interface Slice {
  sheet: XWorksheet;
  row: number;
  column: number;
  rowCount: number;
  columnCount: number;
}

const cellsOf = (slice: Slice) => slice.rowCount * slice.columnCount;

/** Adjacent cells of one column, each holding a formula that calls a SPEND. function. */
interface Run {
  row: number;
  column: number;
  rowCount: number;
}

/**
 * A formula that calls one of Spend Sync's functions: `SPEND.` as a function's namespace, in any case, outside
 * a text in double quotes or a sheet name in single quotes (`=SUM(A1)` is not; `=IFERROR(SPEND.EXPENSES(…),"")` is).
 * @internal refresh-data-recalculates-only-spend-formulas.test.ts checks quoted names and texts directly.
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

/** Runs of one sheet, those that touch (a column read in parts, areas cut one under the other) joined into one. */
function joined(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of [...runs].sort((a, b) => a.column - b.column || a.row - b.row)) {
    const last = out[out.length - 1];
    if (last && last.column === run.column && last.row + last.rowCount === run.row) last.rowCount += run.rowCount;
    else out.push({ ...run });
  }
  return out;
}

/** The formula cells of one sheet, as ranges whose formulas, rowIndex and columnIndex are loaded. */
interface SheetFormulas {
  sheet: XWorksheet;
  ranges: XRange[];
}

/**
 * Each sheet's formula cells with their formulas, in one request. A workbook whose formulas weigh more than one
 * answer may carry (Excel on the web refuses 5 MB, read.ts) has them read again: their places first, then their
 * formulas in reads of at most FORMULA_CELLS_PER_READ cells, halved while Excel refuses one as too large.
 */
async function formulasOf(context: XContext, sheets: XWorksheet[]): Promise<SheetFormulas[]> {
  const found = sheets.map((sheet) => ({ sheet, formulas: sheet.getUsedRange(true).getSpecialCellsOrNullObject("Formulas") }));
  for (const { formulas } of found) {
    formulas.load("areaCount");
    formulas.areas.load("items/formulas,items/rowIndex,items/columnIndex");
  }
  try {
    await context.sync();
    return found.map(({ sheet, formulas }) => ({ sheet, ranges: formulas.isNullObject ? [] : formulas.areas.items }));
  } catch (error) {
    if (!isTooLarge(error)) throw error;
  }
  const places = sheets.map((sheet) => ({ sheet, formulas: sheet.getUsedRange(true).getSpecialCellsOrNullObject("Formulas") }));
  for (const { formulas } of places) {
    formulas.load("areaCount");
    formulas.areas.load("items/rowIndex,items/columnIndex,items/rowCount,items/columnCount");
  }
  await context.sync();
  const slices = places.flatMap(({ sheet, formulas }) => (formulas.isNullObject ? [] : formulas.areas.items.flatMap((area) => rowSlices(sheet, area))));
  return readSlices(context, slices);
}

/** An area cut into runs of rows of at most FORMULA_CELLS_PER_READ cells (a row is never cut: 16,384 columns at most). */
function rowSlices(sheet: XWorksheet, area: XRange): Slice[] {
  const rows = Math.max(1, Math.floor(FORMULA_CELLS_PER_READ / area.columnCount));
  const slices: Slice[] = [];
  for (let r = 0; r < area.rowCount; r += rows) {
    slices.push({ sheet, row: area.rowIndex + r, column: area.columnIndex, rowCount: Math.min(rows, area.rowCount - r), columnCount: area.columnCount });
  }
  return slices;
}

/** The slices' formulas, as many slices a request as fit FORMULA_CELLS_PER_READ cells (halved after a refusal, a lone slice cut in two). */
async function readSlices(context: XContext, slices: Slice[]): Promise<SheetFormulas[]> {
  const read: SheetFormulas[] = [];
  let budget = FORMULA_CELLS_PER_READ;
  for (let next = 0; next < slices.length; ) {
    let cells = 0;
    let end = next;
    while (end < slices.length && (end === next || cells + cellsOf(slices[end]) <= budget)) cells += cellsOf(slices[end++]);
    const ranges = slices.slice(next, end).map((s) => ({ sheet: s.sheet, ranges: [s.sheet.getRangeByIndexes(s.row, s.column, s.rowCount, s.columnCount).load("formulas,rowIndex,columnIndex")] }));
    try {
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one request per response budget, by design (5 MB limit)
      await context.sync();
    } catch (error) {
      const one = slices[next];
      if (!isTooLarge(error) || (end - next === 1 && one.rowCount === 1)) throw error;
      budget = Math.max(1, Math.floor(budget / 2));
      // A lone slice too large for an answer is read again as two halves of its rows.
      const half = Math.ceil(one.rowCount / 2);
      if (end - next === 1) slices.splice(next, 1, { ...one, rowCount: half }, { ...one, row: one.row + half, rowCount: one.rowCount - half });
      continue;
    }
    read.push(...ranges);
    next = end;
  }
  return read;
}

/**
 * Calculates the =SPEND formulas of this workbook, and nothing else, in the run's requests (each of which
 * waits for cell edit, runs.ts). A spilled formula is calculated through its anchor, the only cell that holds
 * it. Returns how many formula cells were calculated.
 */
export async function recalculateSpendFormulas(context: XContext): Promise<number> {
  const sheets = context.workbook.worksheets.load("items/name");
  await context.sync();
  const bySheet = new Map<XWorksheet, Run[]>();
  for (const { sheet, ranges } of await formulasOf(context, sheets.items)) bySheet.set(sheet, [...(bySheet.get(sheet) ?? []), ...ranges.flatMap(spendRuns)]);
  let cells = 0;
  for (const [sheet, runs] of bySheet) {
    for (const run of joined(runs)) {
      sheet.getRangeByIndexes(run.row, run.column, run.rowCount, 1).calculate();
      cells += run.rowCount;
    }
  }
  if (cells > 0) await context.sync();
  return cells;
}
