/**
 * Load and Refresh: fetch a resource through the client, render it with its layout, merge it with what the
 * sheet holds, write it, and keep the snapshot and the load parameters in the workbook. Refresh is
 * three-way (loaded, sheet, server): an unsynced edit survives where the server did not move; where both
 * moved, the edit is kept and the row flagged with the server's values; nothing is refused.
 */
import { z } from "zod";
import { CancelledError, MAX_LIST_RECORDS, type Page, type SpendClient } from "../api";
import { NUMBER_FORMATS, widthOf } from "./columns";
import { inPageOrder, recordRenderer } from "./render";
import { AmountAudit, rowFormatter, type AmountNotes } from "./money-formats";
import { findEdits, type EditHeaders, type RowEdit } from "./edits";
import { STATUS_KEY, TRACKED_KEYS } from "./layouts/tracking";
import { LoadParams, SETTING_PREFIX, isTracked, sheetNameOf, sourceOf, tableNameOf } from "./load-params";
import { BatchedWrites } from "./batched-writes";
import { mergeRows } from "./merge";
import { readSnapshotRows, snapshotRow, snapshotStart, writeSnapshot, type ReadOnly, type Snapshot, type SnapshotRead } from "./snapshot";
import { describeTracked, sameTracked, type TrackedValues } from "./tracked-values";
import type { CellValue, ColumnsRead, TableRead, TableStream, Workbook } from "./workbook";

/** The start of the status Refresh writes on a record the same query no longer returns. */
export const REMOVED_NOTE_PREFIX = "Not returned by the service any more";
/** The start of the status Refresh writes where the user and the server both changed a record. */
export const REFRESH_CONFLICT_PREFIX = "Edited here and changed on the server";

export interface LoadProgress {
  phase: "fetch" | "write";
  done: number;
  total: number | null;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  /** Overwrite every unsynced edit of the tracked columns with the server's values. */
  discardEdits?: boolean;
  now?: () => Date;
}

export interface LoadReport {
  tableName: string;
  sheetName: string;
  count: number;
  added: number;
  updated: number;
  removed: number;
  userColumns: string[];
  /** Unsynced edits kept on records the server did not change. */
  keptEdits: number;
  /** Records both edited here and changed on the server: the edit is kept, the row flagged. */
  conflicts: number;
  discardedEdits: number;
  /** Amounts shown with more decimals than their currency has, and currency codes not in ISO 4217 (money-formats.ts). */
  amounts: AmountNotes;
  /** Records that did not match the API: loaded as read-only rows, their status naming the wrong field. */
  malformed: number;
}

/** What the workbook keeps about a loaded table (never the key). */
const StoredTable = z.object({ params: LoadParams, columns: z.array(z.string()), loadedAt: z.string() });
export type StoredTable = z.infer<typeof StoredTable>;

export async function readStoredTable(workbook: Workbook, tableName: string): Promise<StoredTable | null> {
  const raw = await workbook.readSetting(SETTING_PREFIX + tableName);
  if (raw === null) return null;
  const parsed = StoredTable.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : null;
}

const TABLES_SETTING = "spendsync.tables";

/** Names of the tables Spend Sync loaded into this workbook, oldest first. */
export async function listLoadedTables(workbook: Workbook): Promise<string[]> {
  const raw = await workbook.readSetting(TABLES_SETTING);
  try {
    const names = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/** Rendered pages waiting for Excel while the next ones are fetched (a first load): at most this many. */
const PAGES_AHEAD = 4;

/** Loads (or reloads) the table of these parameters. */
export async function loadTable(client: SpendClient, workbook: Workbook, input: LoadParams, options: LoadOptions = {}): Promise<LoadReport> {
  const params = LoadParams.parse(input);
  if (params.enterpriseId !== client.enterpriseId) {
    throw new Error(`This table belongs to enterprise ${params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to refresh it.`);
  }
  const source = sourceOf(params);
  const layout = source.columns.map((c) => c.header);
  const headerOf = (key: string) => source.columns.find((c) => c.key === key)?.header ?? key;
  const load: Load = {
    client, workbook, params, options, source, layout,
    tableName: tableNameOf(params),
    sheetName: sheetNameOf(params),
    tracked: isTracked(params.resource),
    trackedHeaders: { id: layout[0], state: headerOf("state"), accounted_id: headerOf("accounted_id"), paid_id: headerOf("paid_id"), paid_at: headerOf("paid_at") },
    statusHeader: headerOf(STATUS_KEY),
    now: (options.now ?? (() => new Date()))(),
    known: [],
  };
  // The first page is asked for at once; what the workbook holds is read while it travels.
  // A record that does not match the API costs its own row (read-only, marked), not the load.
  const pages = source.list(client, {
    signal: options.signal,
    keepMalformed: true,
    onProgress: (done, total) => options.onProgress?.({ phase: "fetch", done, total }),
  }).pages();
  const first = pages.next();
  first.catch(() => undefined); // observed below, after the workbook's answers
  let stored: StoredTable | null;
  let existing: ColumnsRead | null;
  try {
    stored = await readStoredTable(workbook, load.tableName);
    // readColumns with no column: where the table is, if it exists (a refresh), without reading its cells.
    existing = await workbook.readColumns(load.tableName, []);
    load.known = await listLoadedTables(workbook);
  } catch (error) {
    // The list stops once its first page is in (a request under way is not left early); the error is reported now.
    pages.return(undefined).catch(() => undefined);
    throw error;
  }
  const all = withFirst(first, pages);
  return existing ? refresh(load, all, stored, existing) : firstLoad(load, all);
}

interface Load {
  client: SpendClient;
  workbook: Workbook;
  params: ReturnType<typeof LoadParams.parse>;
  options: LoadOptions;
  source: ReturnType<typeof sourceOf>;
  layout: string[];
  tableName: string;
  sheetName: string;
  tracked: boolean;
  trackedHeaders: EditHeaders;
  statusHeader: string;
  now: Date;
  /** The loaded tables' names, read while the first page travels (keepParams adds this one). */
  known: string[];
}

/** The pages of a list whose first `next()` was already called. */
async function* withFirst<T>(first: Promise<IteratorResult<T>>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    const head = await first;
    if (head.done) return;
    yield head.value;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return(undefined); // leaving early (an error, a cancel) stops the pages in flight
  }
}

/** A layout's row formatter over rows that also hold the user's columns (left as they are: null). */
function withUserColumns(formatter: ((row: CellValue[]) => readonly (string | null)[]) | undefined, userColumns: number) {
  if (!formatter) return undefined;
  // The formatter shares a row of formats between rows; so does this, one extended row for each.
  const extended = new WeakMap<readonly (string | null)[], readonly (string | null)[]>();
  return (row: CellValue[]) => {
    const formats = formatter(row);
    let longer = extended.get(formats);
    if (!longer) {
      longer = Object.freeze([...formats, ...Array.from({ length: userColumns }, () => null)]);
      extended.set(formats, longer);
    }
    return longer;
  };
}

const stampOf = (now: Date) => `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * A first load (no table of this query yet): each page is rendered as it arrives and written into the new
 * table in order, while the next pages are fetched; the records are dropped once rendered, the rows once
 * written. A cancel or an error takes back the table (and its sheet, if this load added it): no partial
 * table, no snapshot, no setting.
 */
async function firstLoad(load: Load, pages: AsyncGenerator<Page<{ id: string }>>): Promise<LoadReport> {
  const { workbook, options, source, tableName } = load;
  const render = recordRenderer(load.params);
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
    load.tracked ? workbook.createTable(snapshotStart(tableName)).then((created) => (snapshot = created)) : null,
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
    const outcomes = await Promise.allSettled([streams.table.append(rows), streams.snapshot?.append(tracked)]);
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
      const tracked = load.tracked ? records.map((record) => snapshotRow(record.id, fresh.get(record.id)!, readOnly.get(record.id))) : [];
      fetched += rows.length;
      await writes.push({ rows, tracked });
    }
    await writes.drain();
    checkCancel();
    const streams = await start();
    // Both waited for, even when one fails, so that taking back never runs beside a finish still in Excel.
    const finished = await Promise.allSettled([streams.table.finish(), streams.snapshot?.finish()]);
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
    conflicts: 0, discardedEdits: 0, amounts: audit.notes(), malformed,
  };
}

/**
 * A refresh: three-way, so it needs every record before it merges. Pages are rendered as they arrive (the
 * records dropped at once) and the snapshot is read while they travel; the table itself is read after the
 * fetch, so that what the user typed meanwhile is kept too, then merged and written whole.
 */
async function refresh(
  load: Load, pages: AsyncGenerator<Page<{ id: string }>>, stored: StoredTable | null, existing: ColumnsRead,
): Promise<LoadReport> {
  const { workbook, options, source, layout, tableName, trackedHeaders, statusHeader } = load;
  const render = recordRenderer(load.params);
  const loadedRead = load.tracked
    ? readSnapshotRows(workbook, tableName)
    : Promise.resolve<SnapshotRead>({ snapshot: new Map(), rowOf: new Map(), readOnly: new Map() });
  loadedRead.catch(() => undefined); // observed after the fetch
  const fresh: Snapshot = new Map();
  const readOnly: ReadOnly = new Map();
  const incoming = new Map<string, CellValue[]>();
  let count = 0;
  let malformed = 0;
  for await (const page of pages) {
    for (const record of inPageOrder(page)) incoming.set(record.id, render(record, fresh, readOnly));
    count += page.results.length + page.malformed.length;
    malformed += page.malformed.length;
  }
  if (options.signal?.aborted) throw new CancelledError("Cancelled.");
  const { snapshot: loaded, readOnly: loadedReadOnly } = await loadedRead;

  const current = await workbook.readTable(tableName);
  const stamp = stampOf(load.now);
  const edits = current && load.tracked ? findEdits(current, trackedHeaders, loaded) : [];
  const three = threeWay(edits, current, trackedHeaders, loaded, fresh, statusHeader, stamp, Boolean(options.discardEdits));
  const merged = mergeRows({
    layout,
    previousLayout: stored?.columns ?? [],
    existing: current,
    incoming,
    removedNote: `${REMOVED_NOTE_PREFIX} for this table's query (refresh ${stamp})`,
    overrides: three.overrides,
  });
  incoming.clear();
  // Rows the query no longer returns stay, marked: with them the table may outgrow the sheet.
  if (merged.rows.length > MAX_LIST_RECORDS) {
    throw new Error(
      `Refreshed, ${tableName} would have ${merged.rows.length.toLocaleString("en-US")} rows (${merged.removed.length.toLocaleString("en-US")} of them ` +
        `no longer returned by the service), more than a sheet holds (${MAX_LIST_RECORDS.toLocaleString("en-US")}). Nothing was changed: ` +
        "delete the rows marked as not returned, or load a narrower selection.",
    );
  }
  // The user's own columns keep their number formats (null leaves a cell's format alone) and formulas.
  const formats = [...source.columns.map((c) => NUMBER_FORMATS[c.kind]), ...merged.userColumns.map(() => null)];
  const sheetName = current?.sheetName ?? existing.sheetName;
  await workbook.writeTable({
    sheetName,
    tableName,
    header: merged.header,
    rows: merged.rows,
    numberFormats: formats,
    formatsOf: withUserColumns(rowFormatter(source.columns), merged.userColumns.length),
    formulas: merged.formulas,
    editable: [...source.columns.map((c) => Boolean(c.editable)), ...merged.userColumns.map(() => false)],
    dropdowns: [...source.columns.map((c) => c.dropdown ?? null), ...merged.userColumns.map(() => null)],
    widths: source.columns.map(widthOf),
    onProgress: (done, total) => options.onProgress?.({ phase: "write", done, total }),
  });
  if (load.tracked) {
    // A record the query no longer returns keeps its loaded values, so that an edit on its row is still seen.
    for (const id of merged.removed) {
      const values = loaded.get(id);
      if (values && !fresh.has(id)) {
        fresh.set(id, values);
        const why = loadedReadOnly.get(id);
        if (why !== undefined) readOnly.set(id, why);
      }
    }
    await writeSnapshot(workbook, tableName, fresh, readOnly);
  }
  await keepParams(load);
  // Every row written counts, those the query no longer returns too: they are in the table with their amounts.
  const audit = new AmountAudit(source.columns);
  for (const row of merged.rows) audit.check(row);
  return {
    tableName, sheetName, count, added: merged.added, updated: merged.updated,
    removed: merged.removed.length, userColumns: merged.userColumns, keptEdits: three.kept, conflicts: three.conflicts, discardedEdits: three.discarded,
    amounts: audit.notes(), malformed,
  };
}

/** The load parameters, kept for Refresh, and the table in the list of loaded tables. */
async function keepParams(load: Load): Promise<void> {
  const storedNow: StoredTable = { params: load.params, columns: load.layout, loadedAt: load.now.toISOString() };
  await load.workbook.writeSetting(SETTING_PREFIX + load.tableName, JSON.stringify(storedNow));
  if (!load.known.includes(load.tableName)) await load.workbook.writeSetting(TABLES_SETTING, JSON.stringify([...load.known, load.tableName]));
}

/** Reloads a table with the parameters stored in the workbook. */
export async function refreshTable(client: SpendClient, workbook: Workbook, tableName: string, options: LoadOptions = {}): Promise<LoadReport> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) throw new Error(`The table ${tableName} was not loaded by Spend Sync (no load parameters in this workbook), so it cannot be refreshed.`);
  return loadTable(client, workbook, stored.params, options);
}

interface ThreeWay {
  overrides: Map<string, Record<string, CellValue>>;
  kept: number;
  conflicts: number;
  discarded: number;
}

/** Decides, per edited row, what Refresh keeps of the user's cells. */
function threeWay(
  edits: RowEdit[], current: TableRead | null, headers: EditHeaders, loaded: Snapshot, fresh: Snapshot, statusHeader: string, stamp: string,
  discard: boolean,
): ThreeWay {
  const out: ThreeWay = { overrides: new Map(), kept: 0, conflicts: 0, discarded: 0 };
  if (!current) return out;
  const at = new Map(current.header.map((h, i) => [h, i]));
  for (const edit of edits) {
    const server = fresh.get(edit.id);
    const before = loaded.get(edit.id);
    if (!server || !before) continue; // gone from the query: the row stays as the user left it
    if (discard) {
      out.discarded++;
      continue;
    }
    const desired: TrackedValues = { ...before };
    for (const f of edit.fields) desired[f.key] = f.to;
    if (sameTracked(desired, server)) continue; // the server now holds what the user typed
    const cells: Record<string, CellValue> = {};
    for (const key of TRACKED_KEYS) cells[headers[key]] = current.rows[edit.row][at.get(headers[key]) ?? -1] ?? "";
    if (sameTracked(before, server)) {
      out.kept++;
    } else {
      out.conflicts++;
      cells[statusHeader] = `${REFRESH_CONFLICT_PREFIX} (refresh ${stamp}): the server now has ${describeTracked(server)}; ` +
        `your edit (${describeTracked(desired)}) is kept. Preview checks it against the server's values; discard it if you no longer want it.`;
    }
    out.overrides.set(edit.id, cells);
  }
  return out;
}
