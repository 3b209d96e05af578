/**
 * Single cells written into a table's body (a sync's server values, statuses and fills): grouped into runs of
 * adjacent rows of one column, in requests within the request budget, an Excel.run each.
 */
import type { XContext, XRange } from "./api";
import { OPERATION_BYTES, REQUEST_BUDGET_BYTES } from "./budget";
import { typedBytes, typedCell } from "../port/cells";
import { locateTable, type LocatedTable } from "./locate";
import type { Run } from "./runs";
import type { CellValue, CellWrite } from "../port/workbook";
import { tableGone, WorkbookError } from "../port/workbook-errors";

/** A request's worth of writes: stretches that only take a fill, and runs of values (with their fills). */
type Batch = { fills: FillRun[]; runs: (CellWrite & { value: CellValue })[][] };

/**
 * Writes cells of a table's body by body row and column: values where given, fills where given. One Excel.run
 * per request: Office.js keeps every range a run made (and its proxies: 1.6 KB each) until the run ends, so
 * that a 100,000-cell import in one run held some 160 MB of the taskpane's heap to its last request. The
 * table is found (and every cell checked against it) in the first run; the later ones write where it was.
 */
export async function writeCells(run: Run, tableName: string, cells: CellWrite[]): Promise<void> {
  let place: Pick<LocatedTable, "sheetName" | "top" | "left"> | null = null;
  for (const batch of batches(cells)) {
    await run(async (context) => {
      if (!place) place = await locateCells(context, tableName, cells);
      const sheet = context.workbook.worksheets.getItemOrNullObject(place.sheetName);
      const range = (row: number, column: number, count: number) => sheet.getRangeByIndexes(place!.top + 1 + row, place!.left + column, count, 1);
      for (const fill of batch.fills) paint(range(fill.row, fill.column, fill.count), fill.color).untrack();
      for (const cellRun of batch.runs) {
        const values = range(cellRun[0].row, cellRun[0].column, cellRun.length);
        values.valuesAsJson = cellRun.map((cell) => [typedCell(cell.value)]);
        const fills = fillRuns(cellRun);
        for (const fill of fills) {
          // One fill over the whole run (an import's edited cells) goes on the run's own range: no range more.
          const part = fills.length === 1 && fill.count === cellRun.length ? values : range(fill.row, fill.column, fill.count);
          paint(part, fill.color).untrack();
        }
        values.untrack();
      }
      await context.sync();
    });
  }
}

/** The table's place, once every cell is checked to be in its body (else nothing is written). */
async function locateCells(context: XContext, tableName: string, cells: CellWrite[]): Promise<LocatedTable> {
  const at = await locateTable(context, tableName);
  if (!at) throw tableGone(tableName);
  for (const cell of cells) {
    if (cell.row < 0 || cell.row >= at.bodyRows || cell.column < 0 || cell.column >= at.columns) {
      throw new WorkbookError("table-changed", `The table ${tableName} has no body cell at row ${cell.row + 1}, column ${cell.column + 1} (it has ${at.bodyRows} rows, ${at.columns} columns); load it again.`);
    }
  }
  return at;
}

/** The writes cut into requests within the budget: the fill-only stretches first, then the runs of values. */
function batches(cells: CellWrite[]): Batch[] {
  const out: Batch[] = [{ fills: [], runs: [] }];
  let bytes = 0;
  const cut = () => {
    out.push({ fills: [], runs: [] });
    bytes = 0;
  };
  const valued = cells.filter((cell): cell is CellWrite & { value: CellValue } => cell.value !== undefined);
  // Cells that take only a fill: runs of one colour, the value left alone.
  const fillsOnly = cells.filter((cell) => cell.value === undefined && cell.fill !== undefined).sort((a, b) => a.column - b.column || a.row - b.row);
  for (const fill of fillRuns(fillsOnly)) {
    out[out.length - 1].fills.push(fill);
    bytes += OPERATION_BYTES;
    if (bytes > (REQUEST_BUDGET_BYTES * 3) / 4) cut();
  }
  for (const run of cellRuns(valued)) {
    out[out.length - 1].runs.push(run);
    bytes += OPERATION_BYTES + run.reduce((sum, cell) => sum + typedBytes(cell.value) + 4, 0) + fillRuns(run).length * OPERATION_BYTES;
    // The next run (at most a quarter of the budget) still fits after this point.
    if (bytes > (REQUEST_BUDGET_BYTES * 3) / 4 - 2 * OPERATION_BYTES) cut();
  }
  const last = out[out.length - 1];
  // The last cut may leave an empty batch; a write of nothing still finds the table and checks the cells.
  return last.fills.length + last.runs.length === 0 && out.length > 1 ? out.slice(0, -1) : out;
}

/**
 * A fill (null clears it) on a range whose every write is queued: the caller untracks it then. Inside Excel.run
 * Office.js keeps (auto-tracks) every range made, and at the run's end releases each in a cleanup request whose
 * every release scans that request's actions: quadratic in the ranges of the run, 10 minutes of the add-in's CPU
 * for the 200,000 ranges of a 100,000-cell import (bench/import.ts), and a cleanup over Excel on the web's 5 MB,
 * refused and retried. Untracked as soon as their writes are queued, the ranges cost nothing at the end; the
 * performance article says so: https://learn.microsoft.com/office/dev/add-ins/excel/performance#untrack-unneeded-ranges
 */
function paint(range: XRange, color: string | null): XRange {
  if (color === null) range.format.fill.clear();
  else range.format.fill.color = color;
  return range;
}

/**
 * Cells grouped into runs of adjacent rows of one column (the last write of a cell wins); a run is cut
 * where its values would pass a quarter of the request budget, so that one operation always fits.
 */
function cellRuns<C extends CellWrite & { value: CellValue }>(cells: C[]): C[][] {
  const latest = new Map<string, C>();
  for (const cell of cells) latest.set(`${cell.column}:${cell.row}`, cell);
  const sorted = [...latest.values()].sort((a, b) => a.column - b.column || a.row - b.row);
  const runs: C[][] = [];
  let bytes = 0;
  for (const cell of sorted) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    // A cell's value, plus an operation when its fill starts a new stretch (see fillRuns).
    const fillOperation = cell.fill !== undefined && (last?.fill !== cell.fill) ? OPERATION_BYTES : 0;
    const size = typedBytes(cell.value) + 4 + fillOperation;
    if (last && last.column === cell.column && last.row + 1 === cell.row && bytes + size <= REQUEST_BUDGET_BYTES / 4) {
      run.push(cell);
      bytes += size;
    } else {
      runs.push([cell]);
      bytes = size + OPERATION_BYTES;
    }
  }
  return runs;
}

interface FillRun {
  row: number;
  column: number;
  count: number;
  color: string | null;
}

/** The stretches of adjacent rows of one column that get the same fill (cells with no fill given are left out). */
function fillRuns(cells: CellWrite[]): FillRun[] {
  const out: FillRun[] = [];
  for (const cell of cells) {
    if (cell.fill === undefined) continue;
    const last = out[out.length - 1];
    if (last && last.color === cell.fill && last.column === cell.column && last.row + last.count === cell.row) last.count++;
    else out.push({ row: cell.row, column: cell.column, count: 1, color: cell.fill });
  }
  return out;
}
