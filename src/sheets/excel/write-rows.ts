/**
 * Rows written from a sheet row on, in chunks within the request budget (budget.ts), one request at a time:
 * what a whole write, a stream's page and an append all send.
 */
import type { XContext, XRange, XWorksheet } from "./api";
import { buildChunk, planRows, type RowCosts } from "./budget";
import type { RequestOrder } from "./stream-sends";
import type { CellValue } from "../port/workbook";

/** What a write tells its caller, and adds to its last request. */
export interface ChunkHooks {
  /** Rows up to `end` are in Excel. */
  onChunk?: (end: number) => void;
  /** Queues operations into the last request (a table's resize), so they cost no round trip of their own. */
  withLastChunk?: () => void;
  /** The costs of rows already planned (a stream's). */
  plannedCosts?: RowCosts;
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
export async function writeRows(
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
