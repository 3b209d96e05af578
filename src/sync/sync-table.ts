/**
 * What Sync states needs to know about one loaded table: which resource and scope it holds (from the load
 * parameters stored in the workbook), where its id, tracked and status columns are, the snapshot of the
 * values last loaded, and those columns as the sheet shows them now. Only those columns are read.
 */
import { SpendSyncError } from "../api";
import { isExcelError, needsFormulaNames } from "./formula-values";
import { hasNonText } from "./non-text-values";
import type { TrackedResource } from "../domain";
import {
  REMOVED_NOTE_PREFIX, SETTING_PREFIX, STATUS_KEY, TRACKED_KEYS, canonical, readSnapshotRows, readStoredTable, Query,
  type CellValue, type LoadParams, type SnapshotRead, type TrackedKey, type TrackedValues, type Workbook,
} from "../sheets";

/** The table cannot be synced as it is (not ours, read-only resource, a column gone). Nothing was sent. */
export class SyncSetupError extends SpendSyncError {
  override readonly name = "SyncSetupError";
}

type ColumnKey = "id" | TrackedKey | typeof STATUS_KEY | "updated_at";

export interface SyncTable {
  tableName: string;
  resource: TrackedResource;
  subsidiaryId: string;
  params: LoadParams;
  /** The table's query, parsed once from its stored settings (openSyncTable): its columns and Sync's calls. */
  query: Query;
  /** Body column index per key; updated_at only where the layout has it. */
  columns: Record<Exclude<ColumnKey, "updated_at">, number> & { updated_at?: number };
  headers: Record<ColumnKey, string>;
  snapshot: SnapshotRead;
  rows: SheetRow[];
}

/** One body row as the sheet shows it now. */
export interface SheetRow {
  /** 0-based index into the table body. */
  row: number;
  id: string;
  /** Canonical text of each tracked cell (see tracked-values.ts). */
  desired: TrackedValues;
  /** The cells as they are, for messages. */
  raw: Record<TrackedKey, CellValue>;
  /** The A1 address of each tracked cell holding a formula, where its value is worth naming (formula-values.ts). */
  formulas?: Partial<Record<TrackedKey, string>>;
  /** The tracked cells whose value is an Excel error, where the host said (else an error's text counts as one). */
  errors?: TrackedKey[];
  /** The number formats of the tracked cells, where the host said (read with the formulas, for the same rows). */
  formats?: Partial<Record<TrackedKey, string>>;
  status: string;
}

export async function openSyncTable(workbook: Workbook, tableName: string): Promise<SyncTable> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) {
    // Settings there but not readable: an older version's table (its parameters shaped otherwise), not a stranger.
    if ((await workbook.readSetting(SETTING_PREFIX + tableName)) !== null) {
      throw new SyncSetupError(`The table ${tableName} was loaded by an older version of Spend Sync, whose load parameters this version cannot read, so it cannot be synced. Load the data again into a new table, and make the changes there.`);
    }
    throw new SyncSetupError(`The table ${tableName} was not loaded by Spend Sync (this workbook has no load parameters for it), so it has nothing to sync.`);
  }
  const params = stored.params;
  const query = Query.ofParsed(params);
  const { tracked } = query;
  if (!tracked) {
    throw new SyncSetupError(`Only allowances and expenses have states to sync; the ${params.resource} table is read-only.`);
  }
  const layout = query.source.columns;
  const headers = {} as Record<ColumnKey, string>;
  for (const key of ["id", ...TRACKED_KEYS, STATUS_KEY, "updated_at"] as const) {
    const header = layout.find((c) => c.key === key)?.header;
    if (header) headers[key] = header;
  }
  const read = await workbook.readColumns(tableName, ["id", ...TRACKED_KEYS, STATUS_KEY].map((k) => headers[k as ColumnKey]));
  if (!read) throw new SyncSetupError(`The table ${tableName} is gone from the workbook; load it again.`);
  const columns = {} as SyncTable["columns"];
  for (const key of Object.keys(headers) as ColumnKey[]) {
    const at = read.header.indexOf(headers[key]);
    if (at < 0) {
      throw new SyncSetupError(
        `The column "${headers[key]}" is missing from the table ${tableName} (renamed or deleted?). Put it back, or load the table again.`,
      );
    }
    columns[key] = at;
  }
  const cell = (key: ColumnKey, row: number): CellValue => read.columns.get(headers[key])?.[row] ?? "";
  const rows: SheetRow[] = [];
  for (let row = 0; row < read.rowCount; row++) {
    const raw = Object.fromEntries(TRACKED_KEYS.map((k) => [k, cell(k, row)])) as Record<TrackedKey, CellValue>;
    const desired = Object.fromEntries(TRACKED_KEYS.map((k) => [k, canonical(k, raw[k])])) as TrackedValues;
    const id = String(cell("id", row)).trim();
    if (!id && TRACKED_KEYS.every((k) => desired[k] === "")) continue; // a wholly empty row
    rows.push({ row, id, desired, raw, status: String(cell(STATUS_KEY, row)) });
  }
  const snapshot = await readSnapshotRows(workbook, tableName);
  await nameFormulas(workbook, tableName, headers, rows, snapshot);
  return {
    tableName, resource: tracked.spec.resource, subsidiaryId: tracked.subsidiaryId,
    params, query, columns, headers, snapshot, rows,
  };
}

/** Refresh marked this row as a record its query no longer returns. */
export const isMarkedGone = (row: SheetRow) => row.status.startsWith(REMOVED_NOTE_PREFIX);

/**
 * Finds which tracked cells hold formulas, for the edited rows whose values are worth naming (an error, an
 * empty cell, a number or a boolean where an id is text): one more request, only when such a row exists.
 */
async function nameFormulas(workbook: Workbook, tableName: string, headers: Record<ColumnKey, string>, rows: SheetRow[], snapshot: SnapshotRead): Promise<void> {
  const edited = (row: SheetRow) => {
    const loaded = snapshot.snapshot.get(row.id);
    return loaded !== undefined && TRACKED_KEYS.some((k) => loaded[k] !== row.desired[k]);
  };
  const candidates = rows.filter((row) => edited(row) && (needsFormulaNames(row.raw) || hasNonText(row.raw)));
  if (candidates.length === 0 || !workbook.describeCells) return;
  const cells = await workbook.describeCells(tableName, TRACKED_KEYS.map((k) => headers[k]), candidates.map((row) => row.row));
  if (!cells) return;
  for (const row of candidates) {
    row.errors = [];
    for (const key of TRACKED_KEYS) {
      const cell = cells.get(headers[key])?.get(row.row);
      if (cell?.formula) (row.formulas ??= {})[key] = cell.address;
      if (cell?.format !== undefined) (row.formats ??= {})[key] = cell.format;
      // A formula's error is its value type; its text alone is enough too (a formula giving the text "#N/A" is not sent either).
      if (cell?.error || (cell?.formula && isExcelError(row.raw[key]))) row.errors.push(key);
    }
  }
}
