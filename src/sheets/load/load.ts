/**
 * Load and Refresh: fetch a resource through the client, render it with its layout, and write it into its
 * table, keeping the snapshot and the load parameters in the workbook. A table of the query that does not
 * exist yet is a first load (load/first.ts); one that exists is refreshed: only what changed is written
 * (refresh/changes.ts), or, where that cannot be done, the whole table (refresh/whole.ts). Refresh is
 * three-way (three-way.ts).
 */
import type { Page, SpendClient } from "../../api";
import { STATUS_KEY } from "../resources/tracking";
import { firstLoad } from "./first";
import { hashedPlaces, type Load, type LoadOptions, type LoadReport } from "./context";
import { listLoadedTables, readStoredTable, type StoredTable } from "../stored-tables";
import { Query, sheetNameOf, tableNameOf, type LoadParams } from "./params";
import { collect, type Collected } from "../refresh/collect";
import { decidingHeaders, refreshChanges } from "../refresh/changes";
import { refreshWhole } from "../refresh/whole";
import { readSnapshotRows } from "../edits/snapshot";
import type { ColumnsRead, Workbook } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

/** Loads (or reloads) the table of a query (parameters are parsed here once; a Query is taken as it is). */
export async function loadTable(client: SpendClient, workbook: Workbook, input: LoadParams | Query, options: LoadOptions = {}): Promise<LoadReport> {
  const query = Query.parse(input);
  const { params, source } = query;
  if (params.enterpriseId !== client.enterpriseId) {
    throw new WorkbookError("not-ours", `This table belongs to enterprise ${params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to refresh it.`);
  }
  const layout = source.columns.map((c) => c.header);
  const headerOf = (key: string) => source.columns.find((c) => c.key === key)?.header ?? key;
  const tableName = options.tableName ?? tableNameOf(query);
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
  let loadedTables: string[];
  try {
    stored = await readStoredTable(workbook, tableName);
    // readColumns with no column: where the table is, if it exists (a refresh), without reading its cells.
    existing = await workbook.readColumns(tableName, []);
    loadedTables = await listLoadedTables(workbook);
  } catch (error) {
    // The list stops once its first page is in (a request under way is not left early); the error is reported now.
    pages.return(undefined).catch(() => undefined);
    throw error;
  }
  const load: Load = {
    client, workbook, query, params, options, source, layout, tableName,
    sheetName: sheetNameOf(query),
    tracked: query.tracked !== undefined,
    trackedHeaders: { id: layout[0], state: headerOf("state"), accounted_id: headerOf("accounted_id"), paid_id: headerOf("paid_id"), paid_at: headerOf("paid_at") },
    statusHeader: headerOf(STATUS_KEY),
    hashed: hashedPlaces(source.columns),
    now: (options.now ?? (() => new Date()))(),
    loadedTables,
  };
  const all = withFirst(first, pages);
  const report = await (existing ? refresh(load, all, stored, existing) : firstLoad(load, all));
  LOADED.set(report, query);
  return report;
}

/** Each report's query, kept beside it (a report is compared field by field; its query is not one of its figures). */
const LOADED = new WeakMap<LoadReport, Query>();

/** The query a load or refresh loaded, as parsed where it entered: what its table holds, without asking the workbook. */
export const loadedQuery = (report: LoadReport): Query | undefined => LOADED.get(report);

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

/**
 * A refresh. Every record is needed before anything is decided (three-way, and which records are gone), so
 * the pages are collected first, rendered as they arrive, while the snapshot is read; the table's own cells
 * are read after the fetch, so that what the user typed meanwhile is kept too.
 */
async function refresh(load: Load, pages: AsyncGenerator<Page<{ id: string }>>, stored: StoredTable | null, existing: ColumnsRead): Promise<LoadReport> {
  const loadedRead = readSnapshotRows(load.workbook, load.tableName, { digests: true });
  loadedRead.catch(() => undefined); // observed after the fetch
  // The deciding columns too, where only what changed may be written (refresh/changes.ts reads again what it writes).
  const early = wholeReason(load, stored, existing, true) === null ? load.workbook.readColumns(load.tableName, decidingHeaders(load)) : null;
  early?.catch(() => undefined);
  let collected: Collected;
  try {
    collected = await collect(load, pages);
  } finally {
    await Promise.allSettled([loadedRead, early]); // nothing of this refresh is left running in Excel
  }
  const loaded = await loadedRead;
  const why = wholeReason(load, stored, existing, loaded.digests !== null);
  if (why === null && early) {
    const done = await refreshChanges(load, collected, loaded, early);
    if (typeof done !== "string") return done;
    return refreshWhole(load, collected, loaded, stored, done);
  }
  return refreshWhole(load, collected, loaded, stored, why ?? "asked to");
}

/** Why this refresh must rewrite the whole table, or null when it can write only what changed. */
function wholeReason(load: Load, stored: StoredTable | null, existing: ColumnsRead, hasDigests: boolean): string | null {
  if (load.options.wholeTable) return "asked to";
  if (!stored) return "the workbook has no record of how it was loaded";
  if (stored.columns.join("\u0000") !== load.layout.join("\u0000")) return "Spend Sync's columns for this table changed since it was loaded";
  if (!hasDigests) return "it was loaded by an earlier version of Spend Sync";
  const missing = load.layout.filter((h) => !existing.header.includes(h));
  if (missing.length > 0) return `its column${missing.length > 1 ? "s" : ""} ${missing.map((h) => `"${h}"`).join(", ")} ${missing.length > 1 ? "are" : "is"} missing`;
  return null;
}

/** Reloads a table with the query stored in the workbook (parsed once, from its settings). */
export async function refreshTable(client: SpendClient, workbook: Workbook, tableName: string, options: LoadOptions = {}): Promise<LoadReport> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) throw new WorkbookError("not-ours", `The table ${tableName} was not loaded by Spend Sync (no load parameters in this workbook), so it cannot be refreshed.`);
  return loadTable(client, workbook, Query.ofParsed(stored.params), { ...options, tableName });
}
