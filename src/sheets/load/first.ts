/**
 * A first load: the table of a query that has none yet, written page by page as the pages arrive, with its
 * snapshot beside it.
 */
import { CancelledError, type Page } from "../../api";
import { NUMBER_FORMATS, widthOf } from "../columns";
import { type Load, type LoadReport } from "./context";
import { keepParams } from "../stored-tables";
import { AmountAudit, rowFormatter } from "../money-formats";
import { inPageOrder, recordRenderer } from "../render";
import { rowHashes } from "../edits/row-hashes";
import { snapshotRow, snapshotStart, type ReadOnly, type Snapshot } from "../edits/snapshot";
import { BatchedWrites } from "./batched-writes";
import type { CellValue, TableStream } from "../port/workbook";

/** Rendered pages waiting for Excel while the next ones are fetched (a first load): at most this many. */
const PAGES_AHEAD = 4;

/**
 * A first load (no table of this query yet): each page is rendered as it arrives and written into the new
 * table in order, while the next pages are fetched; the records are dropped once rendered, the rows once
 * written. A cancel or an error takes back the table (and its sheet, if this load added it): no partial
 * table, no snapshot, no setting.
 */
export async function firstLoad(load: Load, pages: AsyncGenerator<Page<{ id: string }>>): Promise<LoadReport> {
  const { workbook, options, source, tableName } = load;
  const render = recordRenderer(load.query);
  const audit = new AmountAudit(source.columns);
  const fresh: Snapshot = new Map();
  const readOnly: ReadOnly = new Map();
  let malformed = 0;
  let stream: TableStream | null = null;
  // The snapshot grows beside the table, page by page, so that it is not written whole after the last page.
  let snapshot: TableStream | null = null;
  let fetched = 0;
  let written = 0;
  let total: number | null = null;
  const checkCancel = () => {
    if (options.signal?.aborted) throw new CancelledError("Cancelled.");
  };
  // The table and its snapshot are created at once, while the first page travels (its header is the
  // layout's): the first rows then land without waiting for them. Taken back if the load fails.
  checkCancel();
  const started = Promise.all([
    workbook.createTable({
      sheetName: load.sheetName, tableName, header: load.layout, numberFormats: source.columns.map((c) => NUMBER_FORMATS[c.kind]),
      formatsOf: rowFormatter(source.columns),
      editable: source.columns.map((c) => Boolean(c.editable)), dropdowns: source.columns.map((c) => c.dropdown ?? null),
      widths: source.columns.map(widthOf), holdPartial: "whileExcelBusy",
    }).then((created) => (stream = created)),
    workbook.createTable(snapshotStart(tableName)).then((created) => (snapshot = created)),
  ]);
  started.catch(() => undefined); // observed by the first write, or by the cleanup below
  const start = async () => {
    const [table, tracked] = await started;
    return { table, snapshot: tracked };
  };
  const writes = new BatchedWrites<{ rows: CellValue[][]; tracked: string[][] }>(async (batch) => {
    checkCancel();
    const streams = await start();
    const rows = batch.length === 1 ? batch[0].rows : batch.flatMap((page) => page.rows);
    const tracked = batch.length === 1 ? batch[0].tracked : batch.flatMap((page) => page.tracked);
    // Table and snapshot at once; each append returns once its requests are sent, so the next pages are made
    // ready while Excel works. A failure of either stops the load, and taking back (discard) waits for what
    // the other still has in Excel.
    const outcomes = await Promise.allSettled([streams.table.append(rows), streams.snapshot.append(tracked)]);
    for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
    written += rows.length;
    options.onProgress?.({ phase: "write", done: written, total: total ?? fetched });
  }, PAGES_AHEAD);
  try {
    for await (const page of pages) {
      total = page.count;
      const records = inPageOrder(page);
      malformed += page.malformed.length;
      const rows = records.map((record) => render(record, fresh, readOnly));
      for (const row of rows) audit.check(row);
      const tracked = records.map((record, i) => snapshotRow(record.id, fresh.get(record.id), readOnly.get(record.id), rowHashes(rows[i], load.hashed)));
      fetched += rows.length;
      await writes.push({ rows, tracked });
    }
    await writes.drain();
    checkCancel();
    const streams = await start();
    // Both waited for, even when one fails, so that taking back never runs beside a finish still in Excel.
    const finished = await Promise.allSettled([streams.table.finish(), streams.snapshot.finish()]);
    for (const outcome of finished) if (outcome.status === "rejected") throw outcome.reason;
    checkCancel();
    await keepParams(load);
  } catch (error) {
    await writes.settle();
    await Promise.allSettled([started]);
    await Promise.all([(stream as TableStream | null)?.discard(), (snapshot as TableStream | null)?.discard()]);
    throw error;
  }
  return {
    tableName, sheetName: load.sheetName, count: fetched, added: fetched, updated: 0, removed: 0, userColumns: [], keptEdits: 0,
    conflicts: 0, discardedEdits: 0, amounts: audit.notes(), malformed, typed: { kept: [], replaced: 0 },
  };
}
