/**
 * Writing some cells of some rows of a table (Refresh of what changed) and reading some rows back, within
 * the request and response budgets. A patch names its columns by header and is placed where the table has
 * them now; cells a patch leaves undefined (the user's kept edits) and columns it does not name (the user's
 * own) are never written.
 */
import type { XContext, XRange } from "./api";
import { plainBytes, typedBytes, typedCell } from "../port/cells";
import { sheetAddress, valuesAddress, type LocatedTable } from "./locate";
import type { CellValue, RowPatch, TableUpdate } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/** A fill over cells of one column: a colour, or null to clear. */
interface FillRun {
  row: number;
  column: number;
  count: number;
  color: string | null;
}

/** One range to write: rows × adjacent columns, with their formats, and the fills of its cells. */
interface Block {
  row: number;
  column: number;
  values: Readonly<Excel.CellValue>[][];
  formats: (string | null)[][] | null;
  fills: FillRun[];
  bytes: number;
}

export interface PatchBudget {
  requestBytes: number;
  operationBytes: number;
}

/** The sheet columns of `header` in the table, or the first one missing. */
export function columnsOf(at: LocatedTable, header: readonly string[]): { columns: number[]; missing: string | null } {
  const columns = header.map((h) => at.header.indexOf(h));
  const missing = header.find((_, i) => columns[i] < 0) ?? null;
  return { columns, missing };
}

/**
 * The ranges of a patch: each row's cells are cut into runs of adjacent sheet columns, and a run continues
 * the block of the same run in the row above (a range of many rows), so that rows writing different cells
 * (one its tracked cells too, the next not) still share the ranges of the cells they both write. A block is
 * cut where it would pass a quarter of the request budget.
 */
export function blocksOf(rows: readonly RowPatch[], columns: readonly number[], budget: PatchBudget): Block[] {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  const blocks: Block[] = [];
  // Fills on cells whose value is left (a kept edit's mark): a fill each, in a block with no values.
  for (const patch of sorted) {
    patch.fills?.forEach((color, place) => {
      if (color === undefined || patch.values[place] !== undefined) return;
      blocks.push({ row: patch.row, column: columns[place], values: [], formats: null, fills: [{ row: patch.row, column: columns[place], count: 1, color }], bytes: budget.operationBytes });
    });
  }
  const cuts = cutsOf(sorted, columns);
  /** The block each run is building, by its columns; with the fill run still open in each of its columns. */
  const open = new Map<string, { block: Block; lastRow: number; fills: Map<number, FillRun> }>();
  for (const patch of sorted) {
    for (const run of columnRuns(patch, columns, cuts)) {
      const key = `${run.column}:${run.places.join(",")}`;
      let bytes = 4;
      for (const p of run.places) bytes += typedBytes(patch.values[p] as CellValue) + plainBytes(patch.formats[p] ?? null);
      let building = open.get(key);
      if (!building || building.lastRow + 1 !== patch.row || building.block.bytes + bytes > budget.requestBytes / 4) {
        building = { block: { row: patch.row, column: run.column, values: [], formats: [], fills: [], bytes: budget.operationBytes * 2 }, lastRow: patch.row, fills: new Map() };
        blocks.push(building.block);
        open.set(key, building);
      }
      const { block, fills } = building;
      building.lastRow = patch.row;
      block.values.push(run.places.map((p) => typedCell(patch.values[p] as CellValue)));
      block.formats!.push(run.places.map((p) => patch.formats[p] ?? null));
      block.bytes += bytes;
      run.places.forEach((p, c) => {
        const color = patch.fills?.[p];
        if (color === undefined) return;
        const last = fills.get(run.column + c);
        if (last && last.color === color && last.row + last.count === patch.row) {
          last.count++;
        } else {
          const fill = { row: patch.row, column: run.column + c, count: 1, color };
          fills.set(fill.column, fill);
          block.fills.push(fill);
          block.bytes += budget.operationBytes;
        }
      });
    }
  }
  for (const block of blocks) if (block.formats?.every((line) => line.every((f) => f === null))) block.formats = null;
  return blocks;
}

/**
 * Sheet columns where every row's runs are cut: wherever some row writes one of two adjacent columns and not
 * the other. A row writing both then still cuts there, so that its cells line up with the rows above and
 * below that write only one side (a record's service cells, with or without its tracked cells).
 */
function cutsOf(rows: readonly RowPatch[], columns: readonly number[]): Set<number> {
  const byColumn = new Map(columns.map((column, place) => [column, place]));
  const cuts = new Set<number>();
  for (const patch of rows) {
    for (const [column, place] of byColumn) {
      const next = byColumn.get(column + 1);
      if (next !== undefined && (patch.values[place] === undefined) !== (patch.values[next] === undefined)) cuts.add(column + 1);
    }
  }
  return cuts;
}

/** Runs of adjacent sheet columns among those a row writes (cut at `cuts` too), each with the patch places it takes. */
function columnRuns(patch: RowPatch, columns: readonly number[], cuts: ReadonlySet<number>): { column: number; places: number[] }[] {
  const written = columns.map((column, place) => ({ column, place })).filter(({ place }) => patch.values[place] !== undefined);
  written.sort((a, b) => a.column - b.column);
  const runs: { column: number; places: number[] }[] = [];
  for (const { column, place } of written) {
    const run = runs[runs.length - 1];
    if (run && run.column + run.places.length === column && !cuts.has(column)) run.places.push(place);
    else runs.push({ column, places: [place] });
  }
  return runs;
}

/**
 * Writes the blocks below the table's header, in requests within the budget; each request's ranges are
 * attached only once the request before it is back (see writeRows in write-rows.ts for why), while its arrays
 * are already built. `lastRequest` queues into the last request (a table's resize).
 */
export async function writeBlocks(
  context: XContext, at: LocatedTable, blocks: Block[], budget: PatchBudget,
  hooks: { firstRequest: () => void; lastRequest: () => void; onRows: (rows: number) => void },
): Promise<void> {
  const { firstRequest, lastRequest, onRows } = hooks;
  const requests: Block[][] = [[]];
  let bytes = 0;
  for (const block of blocks) {
    if (bytes > 0 && bytes + block.bytes > budget.requestBytes - 4 * budget.operationBytes) {
      requests.push([]);
      bytes = 0;
    }
    requests[requests.length - 1].push(block);
    bytes += block.bytes;
  }
  let inFlight: Promise<unknown> | null = null;
  let rows = 0;
  for (let i = 0; i < requests.length; i++) {
    if (inFlight) {
      await inFlight;
      onRows(rows);
    }
    // Calculation waits while requests land, but not in the last one: it recalculates (lastRequest), and a
    // request whose calculation is suspended would not.
    if (i < requests.length - 1) context.application.suspendApiCalculationUntilNextSync();
    if (i === 0) firstRequest();
    for (const block of requests[i]) {
      if (block.values.length > 0) {
        const range: XRange = at.sheet.getRangeByIndexes(at.top + 1 + block.row, at.left + block.column, block.values.length, block.values[0].length);
        if (block.formats) range.numberFormat = block.formats;
        range.valuesAsJson = block.values;
      }
      for (const fill of block.fills) {
        const cells = at.sheet.getRangeByIndexes(at.top + 1 + fill.row, at.left + fill.column, fill.count, 1);
        if (fill.color === null) cells.format.fill.clear();
        else cells.format.fill.color = fill.color;
      }
    }
    for (const block of requests[i]) rows += block.values.length;
    if (i === requests.length - 1) lastRequest();
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one request per budget's worth of cells, by design (5 MB limit)
    inFlight = context.sync();
    inFlight.catch(() => undefined); // awaited above, or below
  }
  await inFlight;
  onRows(rows);
}

/**
 * Checks that the rows an update adds below the table are free: Excel's table would take in whatever is
 * there, and the add-in would write over it. A cell holding a value there stops the update before anything
 * is written.
 */
export async function checkRoomBelow(context: XContext, at: LocatedTable, tableName: string, added: number): Promise<void> {
  if (added === 0) return;
  const below = at.top + 1 + at.bodyRows + (at.showTotals ? 1 : 0);
  const used = await valuesAddress(context, at.sheet.getRangeByIndexes(below, at.left, added, at.columns));
  if (used !== null) {
    throw new WorkbookError(
      "sheet-taken",
      `Refresh would add ${added.toLocaleString("en-US")} rows below ${tableName}, and ${used} there holds data. Nothing was written: ` +
        "move those cells (or insert empty rows under the table), then refresh again.",
    );
  }
}

/** Before rows are added: a Total Row makes way (it is the first row they take); it comes back in growOver. */
export function makeWay(at: LocatedTable, added: number): void {
  if (added > 0 && at.showTotals) at.table.showTotals = false;
}

/** After the rows are in: the table grown over the added ones, their fills and dropdowns. */
export function growOver(at: LocatedTable, update: TableUpdate, columns: readonly number[], added: number, editableFill: string): void {
  if (added === 0) return;
  at.table.resize(sheetAddress(at.sheetName, at.top, at.left, 1 + at.bodyRows + added, at.columns));
  if (at.showTotals) at.table.showTotals = true;
  columns.forEach((column, place) => {
    const cells = at.sheet.getRangeByIndexes(at.top + 1 + at.bodyRows, at.left + column, added, 1);
    if (update.editable[place]) cells.format.fill.color = editableFill;
    const list = update.dropdowns[place];
    if (list) cells.dataValidation.rule = { list: { inCellDropDown: true, source: list.join(",") } };
  });
}

/**
 * Rows of `rows` (sorted, distinct) grouped into runs of consecutive rows.
 * @internal a-patch-goes-as-few-ranges test checks the grouping directly.
 */
export function rowRuns(rows: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const row of rows) {
    const run = runs[runs.length - 1];
    if (run && run[0] + run[1] === row) run[1]++;
    else runs.push([row, 1]);
  }
  return runs;
}

/** Cells of the first request of a read, before any has been measured (as excel/read.ts starts). */
const FIRST_READ_CELLS = 2_000;

const isTooLarge = (error: unknown) => (error as { code?: string } | null)?.code === "ResponsePayloadSizeLimitExceeded";

/**
 * The values of some body rows at some sheet columns (table-relative), in the order asked: runs of
 * consecutive rows are one range each, as many ranges a request as the response budget allows (sized from
 * the bytes a cell took so far); a request Excel refuses as too large is asked again in halves.
 */
export async function readRowsOf(context: XContext, at: LocatedTable, rows: readonly number[], columns: readonly number[], responseBudget: number): Promise<CellValue[][]> {
  const found = columns.filter((c) => c >= 0);
  if (rows.length === 0 || found.length === 0) return rows.map(() => columns.map((): CellValue => ""));
  const first = Math.min(...found);
  const width = Math.max(...found) - first + 1;
  const byRow = new Map<number, CellValue[]>();
  const runs = rowRuns([...new Set(rows)].sort((a, b) => a - b));
  let cap = FIRST_READ_CELLS;
  for (let i = 0; i < runs.length; ) {
    // A run longer than a request's worth is read in parts.
    const most = Math.max(1, Math.floor(cap / width));
    if (runs[i][1] > most) runs.splice(i, 1, [runs[i][0], most], [runs[i][0] + most, runs[i][1] - most]);
    const batch: [number, number][] = [];
    let cells = 0;
    while (i + batch.length < runs.length && (batch.length === 0 || cells + runs[i + batch.length][1] * width <= cap)) {
      cells += runs[i + batch.length][1] * width;
      batch.push(runs[i + batch.length]);
    }
    const ranges = batch.map(([row, count]) => at.sheet.getRangeByIndexes(at.top + 1 + row, at.left + first, count, width).load("values"));
    try {
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one request per response budget, by design (5 MB limit)
      await context.sync();
    } catch (error) {
      if (!isTooLarge(error) || (batch.length === 1 && batch[0][1] === 1)) throw error;
      // Asked again in halves: fewer runs a request, or a lone run cut in two.
      cap = Math.max(width, Math.floor(cells / 2));
      continue;
    }
    let bytes = 0;
    batch.forEach(([row], b) => {
      (ranges[b].values as CellValue[][]).forEach((line, r) => {
        byRow.set(row + r, columns.map((c) => (c >= 0 ? line[c - first] : "")));
        for (const value of line) bytes += plainBytes(value);
      });
    });
    cap = Math.max(width, Math.floor(responseBudget / (1.5 * (bytes / cells) + 1)));
    i += batch.length;
  }
  return rows.map((row) => byRow.get(row)!);
}
