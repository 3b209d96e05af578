/**
 * The Workbook port over the Excel JavaScript API (typed by @types/office-js through excel/api.ts).
 * - Every Excel.run waits for the user to leave cell edit mode (delayForCellEdit) instead of failing.
 * - Values travel as typed cell values (excel/cells.ts): service text stays exactly that text in every
 *   column, numbers stay numbers; the user's own formulas are written back as formulas.
 * - Writes go in chunks whose UTF-8 size stays under Excel on the web's 5 MB request limit, reads in
 *   chunks under its 5 MB response limit (excel/read.ts); calculation is suspended while chunks land and
 *   the workbook is recalculated after, as suspendApiCalculationUntilNextSync asks.
 * - The body is getDataBodyRange: a Total Row is never read or written as data.
 */
import { sizeColumns } from "./widths";
import { OPERATION_BYTES, REQUEST_BUDGET_BYTES, buildChunk, planRows, type RowCosts } from "./budget";
import type { ExcelHost, XContext, XRange, XWorksheet } from "./api";
import { typedBytes, typedCell } from "./cells";
import { claimEmptySheet, locateTable, sheetAddress, type LocatedTable } from "./locate";
import { RESPONSE_BUDGET_BYTES, readColumnsOf, toRows } from "./read";
import { blocksOf, checkRoomBelow, columnsOf, growOver, makeWay, readRowsOf, writeBlocks } from "./patch";
import { EDITABLE_FILL, EDITABLE_HEADER_FILL } from "../marks";
import { StreamSends, type RequestOrder } from "../stream-sends";
import type { AppendWrite, CellValue, CellWrite, ColumnsRead, TableRead, TableStart, TableStream, TableUpdate, TableWrite, Workbook } from "../workbook";
import { tableGone, WorkbookError } from "../workbook-errors";

/** https://learn.microsoft.com/javascript/api/excel/excel.runoptions: without it a batch fails while the user types in a cell. */
const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };
/**
 * A request Excel has not answered after this long may be waiting for the person to leave a cell: with
 * delayForCellEdit, Excel delays it "until the user exits cell edit mode", and says nothing (no event tells an
 * add-in). On Windows, clicking the taskpane does not end cell edit (office-js #806), so the taskpane says so.
 */
export const WAIT_NOTICE_MS = 2_000;

/** What a write tells its caller, and adds to its last request. */
interface ChunkHooks {
  /** Rows up to `end` are in Excel. */
  onChunk?: (end: number) => void;
  /** Queues operations into the last request (a table's resize), so they cost no round trip of their own. */
  withLastChunk?: () => void;
  /** The costs of rows already planned (a stream's). */
  plannedCosts?: RowCosts;
}

export class ExcelWorkbook implements Workbook {
  /** Requests sent and not answered yet, each with the timer that turns it into a wait. */
  private pending = 0;
  private waiting = false;
  private readonly waitListeners = new Set<(waiting: boolean) => void>();

  constructor(private readonly excel: ExcelHost) {}

  onExcelWait(listener: (waiting: boolean) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  private setWaiting(waiting: boolean): void {
    if (this.waiting === waiting) return;
    this.waiting = waiting;
    for (const listener of this.waitListeners) listener(waiting);
  }

  /** Every run waits for cell edit (RUN_OPTIONS); each of its requests is watched for a long wait (WAIT_NOTICE_MS). */
  private run<T>(batch: (context: XContext) => Promise<T>): Promise<T> {
    return this.excel.run(RUN_OPTIONS, (context) => {
      const sync = context.sync.bind(context);
      context.sync = <S>(passThrough?: S) => this.watched(sync(passThrough));
      return batch(context);
    });
  }

  /** A request: the wait notice goes up if it is unanswered after WAIT_NOTICE_MS, and down once no request is. */
  private watched<T>(request: Promise<T>): Promise<T> {
    this.pending++;
    const timer = setTimeout(() => this.setWaiting(true), WAIT_NOTICE_MS);
    const done = () => {
      clearTimeout(timer);
      if (--this.pending === 0) this.setWaiting(false);
    };
    request.then(done, done);
    return request;
  }

  readTable(tableName: string): Promise<TableRead | null> {
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at) return null;
      const columns = at.header.map((_, c) => at.left + c);
      const read = await readColumnsOf(context, at.sheet, at.top + 1, at.bodyRows, columns, ["values", "formulas"]);
      return { sheetName: at.sheetName, header: at.header, rows: toRows(read.values), formulas: toRows(read.formulas) };
    });
  }

  readColumns(tableName: string, headers: readonly string[]): Promise<ColumnsRead | null> {
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at) return null;
      const wanted = headers.filter((h, i) => at.header.includes(h) && headers.indexOf(h) === i);
      const read = await readColumnsOf(context, at.sheet, at.top + 1, at.bodyRows, wanted.map((h) => at.left + at.header.indexOf(h)), ["values"]);
      return { sheetName: at.sheetName, header: at.header, rowCount: at.bodyRows, columns: new Map(wanted.map((h, i) => [h, read.values[i]])) };
    });
  }

  readRows(tableName: string, rows: readonly number[], headers: readonly string[]): Promise<CellValue[][] | null> {
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at) return null;
      const outside = rows.find((row) => !Number.isInteger(row) || row < 0 || row >= at.bodyRows);
      if (outside !== undefined) throw new WorkbookError("table-changed", `The table ${tableName} has no body row ${outside + 1} (it has ${at.bodyRows}); refresh again.`);
      return readRowsOf(context, at, rows, headers.map((h) => at.header.indexOf(h)), RESPONSE_BUDGET_BYTES);
    });
  }

  updateTable(tableName: string, update: TableUpdate): Promise<void> {
    if (update.rows.length === 0) return Promise.resolve();
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at) throw tableGone(tableName);
      const { columns, missing } = columnsOf(at, update.header);
      if (missing !== null) throw new WorkbookError("table-changed", `The table ${tableName} has no column "${missing}" any more; nothing was written. Refresh again (its columns come back).`);
      const added = update.rows.filter((patch) => patch.row >= at.bodyRows).map((patch) => patch.row).sort((a, b) => a - b);
      if (added.some((row, i) => row !== at.bodyRows + i) || update.rows.some((patch) => patch.row < 0 || !Number.isInteger(patch.row))) {
        throw new WorkbookError("internal", `Rows added to ${tableName} must follow its last row (${at.bodyRows}) with no gap.`);
      }
      await checkRoomBelow(context, at, tableName, added.length);
      const budget = { requestBytes: REQUEST_BUDGET_BYTES, operationBytes: OPERATION_BYTES };
      const blocks = blocksOf(update.rows, columns, budget);
      // Rows as blocks count them (a row of several column runs counts once a run), shown as rows of the update.
      const blockRows = blocks.reduce((sum, block) => sum + block.values.length, 0);
      await writeBlocks(context, at, blocks, budget, {
        firstRequest: () => makeWay(at, added.length),
        lastRequest: () => {
          growOver(at, update, columns, added.length, EDITABLE_FILL);
          context.application.calculate("Recalculate");
        },
        onRows: (rows) => update.onProgress?.(Math.round((rows / Math.max(1, blockRows)) * update.rows.length), update.rows.length),
      });
    });
  }

  writeTable(spec: TableWrite): Promise<void> {
    const columns = spec.header.length;
    return this.run(async (context) => {
      const existing = await locateTable(context, spec.tableName);
      let sheet: XWorksheet;
      let sheetName = spec.sheetName;
      if (existing) {
        sheet = existing.sheet;
        sheetName = existing.sheetName;
      } else {
        sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
        await context.sync();
        if (sheet.isNullObject) sheet = context.workbook.worksheets.add(spec.sheetName);
      }
      const top = existing?.top ?? 0;
      const left = existing?.left ?? 0;
      // Rows written: at least one, as an Excel table always has a body row.
      const rows = spec.rows.length > 0 ? spec.rows : [spec.header.map((): CellValue => "")];
      if (existing) this.clearOld(sheet, existing, columns, rows.length);
      const headerRange = sheet.getRangeByIndexes(top, left, 1, columns);
      headerRange.valuesAsJson = [spec.header.map((h) => typedCell(h))];
      headerRange.format.font.bold = true;
      await context.sync();

      await this.writeRows(context, sheet, top + 1, left, rows, spec.numberFormats, spec.formatsOf, spec.formulas, {
        onChunk: (end) => spec.onProgress?.(Math.min(spec.rows.length, end), spec.rows.length),
      });

      const full = sheetAddress(sheetName, top, left, rows.length + 1, columns);
      if (existing) {
        existing.table.resize(full);
        if (existing.columns > columns) sheet.getRangeByIndexes(top, left + columns, 1, existing.columns - columns).clear(); // headers Excel named ColumnN
        if (existing.showTotals) existing.table.showTotals = true; // the user's Total Row comes back below the new body
      } else {
        const table = sheet.tables.add(full, true);
        table.name = spec.tableName;
        table.style = "TableStyleLight9";
        table.showFilterButton = true;
        if (spec.visibility !== "VeryHidden") sheet.freezePanes.freezeRows(top + 1);
      }
      for (let c = 0; c < columns; c++) {
        const body = sheet.getRangeByIndexes(top + 1, left + c, rows.length, 1);
        if (spec.editable[c]) {
          body.format.fill.color = EDITABLE_FILL;
          sheet.getRangeByIndexes(top, left + c, 1, 1).format.fill.color = EDITABLE_HEADER_FILL;
        }
        const list = spec.dropdowns[c];
        if (list) body.dataValidation.rule = { list: { inCellDropDown: true, source: list.join(",") } };
      }
      // The layout's columns are sized to what they now hold; the user's own columns keep their widths.
      if (spec.widths) await sizeColumns(context, sheet, top, left, rows.length + 1, spec.widths);
      if (spec.visibility === "VeryHidden") sheet.visibility = "VeryHidden";
      context.application.calculate("Recalculate");
      await context.sync();
    });
  }

  /**
   * A new table written as its rows arrive (TableStream). The header and one empty body row (an Excel table
   * always has one) are written at once, so the table exists from the start; rows go in Excel.run batches
   * (stream-sends.ts) whose last chunk also resizes the table (no extra round trip per page), and whose first
   * request waits for the one before to be back; fills and dropdowns go over the whole body in `finish`, as
   * writeTable puts them on after the rows. `discard` waits for whatever is still in Excel, finish's too.
   */
  async createTable(spec: TableStart): Promise<TableStream> {
    const columns = spec.header.length;
    const { sheetName, tableName } = spec;
    const addedSheet = await this.run(async (context) => {
      const clash = context.workbook.tables.getItemOrNullObject(tableName);
      const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
      await context.sync();
      if (!clash.isNullObject && !spec.ownSheet) throw new WorkbookError("sheet-taken", `A table named ${tableName} already exists in this workbook; refresh it instead.`);
      if (!sheet.isNullObject && !spec.ownSheet) return claimEmptySheet(context, sheet, sheetName, tableName);
      if (!sheet.isNullObject) {
        // A sheet of the table's own left from before (its table deleted by hand, say) is replaced whole; one that
        // holds another table is someone's data, never deleted.
        const tables = sheet.tables.load("items/name");
        await context.sync();
        const others = tables.items.map((t) => t.name).filter((name) => name.toLowerCase() !== tableName.toLowerCase());
        if (others.length > 0) throw new WorkbookError("sheet-taken", `The sheet '${sheetName}' holds the table ${others.join(", ")}, so Spend Sync can't use it for ${tableName}; rename that sheet and load again.`);
      }
      if (!clash.isNullObject) clash.delete();
      if (!sheet.isNullObject) deleteSheet(sheet);
      context.workbook.worksheets.add(sheetName);
      await context.sync();
      return true;
    });
    const plannedCosts: RowCosts = new WeakMap();
    const sends = new StreamSends(
      (below, rows, order) => this.run((context) => this.writeBelow(context, spec, columns, below, rows, { ...order, plannedCosts })),
      (rows) => {
        const chunks = planRows(rows, spec.numberFormats, spec.formatsOf, undefined, plannedCosts).chunks;
        return chunks.length > 1 ? chunks[chunks.length - 2][1] : 0;
      },
      spec.holdPartial,
    );
    const body = () => Math.max(1, sends.written);
    // finish's own requests (fills, dropdowns, recalculation), while they run.
    let finishing: Promise<void> | null = null;
    const discard = async () => {
      // What is still on its way lands first (or fails), so that nothing is written after the table is gone.
      await sends.abandon();
      await finishing?.catch(() => undefined);
      try {
        await this.run(async (context) => {
          const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
          if (addedSheet) {
            deleteSheet(sheet); // its table goes with it
          } else {
            const table = context.workbook.tables.getItemOrNullObject(tableName);
            await context.sync();
            if (!table.isNullObject) table.delete();
            const covered = sheet.getRangeByIndexes(0, 0, 1 + body(), columns);
            covered.clear();
            covered.dataValidation.clear(); // clear() leaves a finished table's dropdowns (as Home > Clear All does)
          }
          context.application.calculate("Recalculate");
          await context.sync();
        });
      } catch {
        // Nothing more can be taken back (the sheet or the workbook is gone); the load's own error is what to report.
      }
    };
    try {
      await this.run(async (context) => {
        const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
        const header = sheet.getRangeByIndexes(0, 0, 1, columns);
        header.valuesAsJson = [spec.header.map((h) => typedCell(h))];
        header.format.font.bold = true;
        sheet.getRangeByIndexes(1, 0, 1, columns).valuesAsJson = [spec.header.map(() => typedCell(""))];
        const table = sheet.tables.add(sheetAddress(sheetName, 0, 0, 2, columns), true);
        table.name = tableName;
        table.style = "TableStyleLight9";
        table.showFilterButton = true;
        if (spec.visibility !== "VeryHidden") sheet.freezePanes.freezeRows(1);
        for (let c = 0; c < columns; c++) {
          if (spec.editable[c]) sheet.getRangeByIndexes(0, c, 1, 1).format.fill.color = EDITABLE_HEADER_FILL;
          const width = spec.widths?.[c];
          if (width) sheet.getRangeByIndexes(1, c, 1, 1).format.columnWidth = width;
        }
        if (spec.visibility === "VeryHidden") sheet.visibility = "VeryHidden";
        await context.sync();
      });
    } catch (error) {
      await discard();
      throw error;
    }
    return {
      append: (rows) => sends.append(rows),
      finish: () => (finishing = (async () => {
        // The rows still held go first, in requests of their own: the recalculation below must not share a
        // request whose calculation is suspended.
        await sends.settled();
        await this.run(async (context) => {
          const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
          for (let c = 0; c < columns; c++) {
            const column = sheet.getRangeByIndexes(1, c, body(), 1);
            if (spec.editable[c]) column.format.fill.color = EDITABLE_FILL;
            const list = spec.dropdowns[c];
            if (list) column.dataValidation.rule = { list: { inCellDropDown: true, source: list.join(",") } };
          }
          if (spec.widths) await sizeColumns(context, sheet, 0, 0, 1 + body(), spec.widths);
          context.application.calculate("Recalculate");
          await context.sync();
        });
      })()),
      discard,
    };
  }

  /**
   * Before a table is written again: the body cells it covered beyond the new one are cleared (the header's once resized:
   * Excel names a cleared header cell ColumnN), and its old dropdowns and fills; a Total Row goes off and on around the write.
   */
  private clearOld(sheet: XWorksheet, existing: LocatedTable, columns: number, rows: number): void {
    if (existing.showTotals) existing.table.showTotals = false;
    const { top, left } = existing;
    const covered = existing.bodyRows + (existing.showTotals ? 1 : 0);
    if (existing.columns > columns) sheet.getRangeByIndexes(top + 1, left + columns, covered, existing.columns - columns).clear();
    if (covered > rows) sheet.getRangeByIndexes(top + 1 + rows, left, covered - rows, columns).clear();
    const oldBody = existing.table.getDataBodyRange();
    oldBody.dataValidation.clear();
    oldBody.format.fill.clear();
  }

  /** Writes rows below the `written` ones of a streamed table; its last request also grows the table over them. */
  private async writeBelow(context: XContext, spec: TableStart, columns: number, written: number, rows: CellValue[][], order: RequestOrder & Pick<ChunkHooks, "plannedCosts">): Promise<void> {
    const sheet = context.workbook.worksheets.getItemOrNullObject(spec.sheetName);
    const table = context.workbook.tables.getItemOrNullObject(spec.tableName);
    const grown = sheetAddress(spec.sheetName, 0, 0, 1 + written + rows.length, columns);
    await this.writeRows(context, sheet, 1 + written, 0, rows, spec.numberFormats, spec.formatsOf, undefined, { ...order, withLastChunk: () => table.resize(grown) });
  }

  /**
   * Writes rows starting at a sheet row, in chunks within the request budget: number formats first (null
   * leaves the user's own), then typed values, then the user's formulas where a column holds them.
   *
   * Each chunk's arrays are built while the request before it is in Excel, and handed to a range only once
   * that request is back. Office.js takes a context's queued actions a few microtasks after `sync()` is
   * called (`syncPrivateMain` takes the pending request inside a `.then`), so anything queued before then
   * travels in the request already sent: two budgeted chunks would make one request over Excel on the web's
   * 5 MB. Requests still reach Excel one at a time, in order, and the next leaves as soon as the last is back.
   */
  private async writeRows(
    context: XContext, sheet: XWorksheet, firstRow: number, left: number, rows: CellValue[][], numberFormats: (string | null)[],
    formatsOf: ((row: CellValue[]) => readonly (string | null)[]) | undefined,
    formulas: (string | null)[][] | undefined, { onChunk, withLastChunk, after, onAllSent, plannedCosts }: RequestOrder & ChunkHooks = {},
  ): Promise<void> {
    const columns = numberFormats.length;
    const { rowFormats, chunks } = planRows(rows, numberFormats, formatsOf, formulas, plannedCosts);
    let inFlight: { sent: Promise<unknown>; end: number } | null = null;
    for (const [start, end] of chunks) {
      const chunk = buildChunk(rows, start, end, columns, numberFormats, rowFormats, formulas);
      if (inFlight) {
        await inFlight.sent;
        onChunk?.(inFlight.end);
      } else {
        await after; // the request sent before this write (a stream's previous rows) is back first
      }
      context.application.suspendApiCalculationUntilNextSync();
      const range: XRange = sheet.getRangeByIndexes(firstRow + start, left, end - start, columns);
      // Formats first, so a cell already shows its value the right way when the value lands.
      if (chunk.formats) range.numberFormat = chunk.formats;
      range.valuesAsJson = chunk.values;
      if (chunk.formulas) range.formulas = chunk.formulas;
      // What the caller adds to the last request (a table's resize) costs no round trip of its own.
      if (end === rows.length) withLastChunk?.();
      const sent = context.sync();
      sent.catch(() => undefined); // no unhandled-rejection warning while the next chunk is built: the await above still throws it
      inFlight = { sent, end };
    }
    onAllSent?.();
    if (inFlight) {
      await inFlight.sent;
      onChunk?.(inFlight.end);
    }
  }

  writeCells(tableName: string, cells: CellWrite[]): Promise<void> {
    if (cells.length === 0) return Promise.resolve();
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at) throw tableGone(tableName);
      for (const cell of cells) {
        if (cell.row < 0 || cell.row >= at.bodyRows || cell.column < 0 || cell.column >= at.columns) {
          throw new WorkbookError("table-changed", `The table ${tableName} has no body cell at row ${cell.row + 1}, column ${cell.column + 1} (it has ${at.bodyRows} rows, ${at.columns} columns); load it again.`);
        }
      }
      let bytes = 0;
      const valued = cells.filter((cell): cell is CellWrite & { value: CellValue } => cell.value !== undefined);
      // Cells that take only a fill: runs of one colour, the value left alone.
      const fillsOnly = cells.filter((cell) => cell.value === undefined && cell.fill !== undefined).sort((a, b) => a.column - b.column || a.row - b.row);
      for (const fill of fillRuns(fillsOnly)) {
        const part = at.sheet.getRangeByIndexes(at.top + 1 + fill.row, at.left + fill.column, fill.count, 1);
        if (fill.color === null) part.format.fill.clear();
        else part.format.fill.color = fill.color;
        bytes += OPERATION_BYTES;
        if (bytes > (REQUEST_BUDGET_BYTES * 3) / 4) {
          await context.sync();
          bytes = 0;
        }
      }
      for (const run of cellRuns(valued)) {
        const range = at.sheet.getRangeByIndexes(at.top + 1 + run[0].row, at.left + run[0].column, run.length, 1);
        range.valuesAsJson = run.map((cell) => [typedCell(cell.value)]);
        bytes += OPERATION_BYTES + run.reduce((sum, cell) => sum + typedBytes(cell.value) + 4, 0);
        for (const fill of fillRuns(run)) {
          const part = at.sheet.getRangeByIndexes(at.top + 1 + fill.row, at.left + run[0].column, fill.count, 1);
          if (fill.color === null) part.format.fill.clear();
          else part.format.fill.color = fill.color;
          bytes += OPERATION_BYTES;
        }
        // The next run (at most a quarter of the budget) still fits after this point.
        if (bytes > (REQUEST_BUDGET_BYTES * 3) / 4 - 2 * OPERATION_BYTES) {
          await context.sync();
          bytes = 0;
        }
      }
      await context.sync();
    });
  }

  /**
   * Appends below the table and grows it (the journal): only the new rows travel, in chunks. Creates the
   * table when it does not exist; the empty body row of a new table is filled first.
   */
  async appendRows(spec: AppendWrite): Promise<void> {
    if (spec.rows.length === 0) return;
    const columns = spec.header.length;
    const created = await this.run(async (context) => {
      const table = context.workbook.tables.getItemOrNullObject(spec.tableName);
      await context.sync();
      return !table.isNullObject;
    });
    if (!created) {
      await this.writeTable({ ...spec, editable: spec.header.map(() => false), dropdowns: spec.header.map(() => null) });
      return;
    }
    await this.run(async (context) => {
      const at = await locateTable(context, spec.tableName);
      if (!at) throw tableGone(spec.tableName, null);
      if (at.columns !== columns) throw new WorkbookError("table-changed", `The table ${spec.tableName} has ${at.columns} columns, not ${columns}; rename it to start a new one.`);
      if (at.showTotals) at.table.showTotals = false;
      // A table is never empty in Excel: an only body row with nothing in it is the place of the first new row.
      let startsEmpty = false;
      if (at.bodyRows === 1) {
        const only = at.sheet.getRangeByIndexes(at.top + 1, at.left, 1, columns).load("values");
        await context.sync();
        startsEmpty = only.values[0].every((v) => v === "");
      }
      const firstRow = at.top + 1 + (startsEmpty ? 0 : at.bodyRows);
      await this.writeRows(context, at.sheet, firstRow, at.left, spec.rows, spec.numberFormats, undefined, undefined);
      at.table.resize(sheetAddress(at.sheetName, at.top, at.left, firstRow - at.top + spec.rows.length, columns));
      if (at.showTotals) at.table.showTotals = true;
      context.application.calculate("Recalculate");
      await context.sync();
    });
  }

  readSetting(key: string): Promise<string | null> {
    return this.run(async (context) => {
      const setting = context.workbook.settings.getItemOrNullObject(key);
      setting.load("value");
      await context.sync();
      return setting.isNullObject || setting.value === null || setting.value === undefined ? null : String(setting.value);
    });
  }

  writeSetting(key: string, value: string): Promise<void> {
    return this.run(async (context) => {
      context.workbook.settings.add(key, value);
      await context.sync();
    });
  }

  select(tableName: string, row: number, column: number): Promise<void> {
    return this.run(async (context) => {
      const at = await locateTable(context, tableName);
      if (!at || row >= at.bodyRows) return;
      at.sheet.activate();
      at.sheet.getRangeByIndexes(at.top + 1 + row, at.left + column, 1, 1).select();
      await context.sync();
    });
  }
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

/** The stretches of adjacent rows of one column that get the same fill (cells with no fill given are left out). */
function fillRuns(cells: CellWrite[]): { row: number; column: number; count: number; color: string | null }[] {
  const out: { row: number; column: number; count: number; color: string | null }[] = [];
  for (const cell of cells) {
    if (cell.fill === undefined) continue;
    const last = out[out.length - 1];
    if (last && last.color === cell.fill && last.column === cell.column && last.row + last.count === cell.row) last.count++;
    else out.push({ row: cell.row, column: cell.column, count: 1, color: cell.fill });
  }
  return out;
}

/**
 * Deletes a sheet of the add-in's own, whatever its visibility: "If the worksheet's visibility is set to
 * VeryHidden, the delete operation will fail with an InvalidOperation exception. You should first change its
 * visibility to hidden or visible before deleting it." (d.ts, Excel.Worksheet.delete). Setting a hidden
 * sheet Hidden again changes nothing, so it is set whatever it was.
 */
export function deleteSheet(sheet: XWorksheet): void {
  sheet.visibility = "Hidden";
  sheet.delete();
}
