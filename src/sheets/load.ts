/**
 * Load and Refresh: fetch a resource through the client, render it with its layout, merge it with what the
 * sheet holds, write it, and keep the snapshot and the load parameters in the workbook. Refresh is
 * three-way (loaded, sheet, server): an unsynced edit survives where the server did not move; where both
 * moved, the edit is kept and the row flagged with the server's values; nothing is refused.
 */
import { z } from "zod";
import { unknownValuesOf, type SpendClient, type UnknownValue } from "../api";
import { NUMBER_FORMATS, toCell } from "./columns";
import { findEdits, type EditHeaders, type RowEdit } from "./edits";
import { STATUS_KEY, TRACKED_KEYS } from "./layouts/tracking";
import { LoadParams, SETTING_PREFIX, isTracked, sheetNameOf, sourceOf, tableNameOf } from "./load-params";
import { mergeRows } from "./merge";
import { readSnapshot, writeSnapshot, type Snapshot } from "./snapshot";
import { describeTracked, sameTracked, trackedOf, type TrackedValues } from "./tracked-values";
import type { CellValue, TableRead, Workbook } from "./workbook";

/** The status of a row whose record has a value the spec does not list (UnknownValue from the client). */
export function unlistedNote(unknown: readonly UnknownValue[]): string {
  const parts = unknown.map((u) => `${u.field} "${u.value}" (the spec lists ${u.allowed.join(", ")})`);
  return `${UNLISTED_NOTE_PREFIX}: the service sent ${parts.join(" and ")}. Sync states will not send this row; ask your Spend Sync contact.`;
}

/** The start of the status of a row whose record has a value the spec does not list. */
export const UNLISTED_NOTE_PREFIX = "Read-only";

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

/** Loads (or reloads) the table of these parameters. */
export async function loadTable(client: SpendClient, workbook: Workbook, input: LoadParams, options: LoadOptions = {}): Promise<LoadReport> {
  const params = LoadParams.parse(input);
  if (params.enterpriseId !== client.enterpriseId) {
    throw new Error(`This table belongs to enterprise ${params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to refresh it.`);
  }
  const tableName = tableNameOf(params);
  const sheetName = sheetNameOf(params);
  const source = sourceOf(params);
  const layout = source.columns.map((c) => c.header);
  const tracked = isTracked(params.resource);
  const headerOf = (key: string) => source.columns.find((c) => c.key === key)?.header ?? key;
  const trackedHeaders: EditHeaders = { id: layout[0], state: headerOf("state"), accounted_id: headerOf("accounted_id"), paid_id: headerOf("paid_id"), paid_at: headerOf("paid_at") };
  const statusHeader = headerOf(STATUS_KEY);

  const stored = await readStoredTable(workbook, tableName);
  const records: { id: string }[] = [];
  for await (const page of source.list(client, {
    signal: options.signal,
    onProgress: (done, total) => options.onProgress?.({ phase: "fetch", done, total }),
  }).pages()) {
    records.push(...page.results);
  }
  options.signal?.throwIfAborted();

  // Read after the fetch, so that what the user typed meanwhile is kept too.
  const current = await workbook.readTable(tableName);
  const loaded: Snapshot = tracked && current ? await readSnapshot(workbook, tableName) : new Map();
  const fresh: Snapshot = new Map();
  const incoming = new Map<string, CellValue[]>();
  for (const record of records) {
    const cells = source.columns.map((column) => toCell(column.kind, column.value(record as never)));
    // A state or movement type the spec does not list: the row loads, says so, and Sync states refuses it.
    const unknown = unknownValuesOf(record);
    if (unknown.length > 0) cells[layout.indexOf(statusHeader)] = unlistedNote(unknown);
    incoming.set(record.id, cells);
    if (tracked) fresh.set(record.id, trackedOf(record as never));
  }
  const now = (options.now ?? (() => new Date()))();
  const stamp = `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const edits = current && tracked ? findEdits(current, trackedHeaders, loaded) : [];
  const three = threeWay(edits, current, trackedHeaders, loaded, fresh, statusHeader, stamp, Boolean(options.discardEdits));
  const merged = mergeRows({
    layout,
    previousLayout: stored?.columns ?? [],
    existing: current,
    incoming,
    removedNote: `${REMOVED_NOTE_PREFIX} for this table's query (refresh ${stamp})`,
    overrides: three.overrides,
  });
  // The user's own columns keep their number formats (null leaves a cell's format alone) and formulas.
  const formats = [...source.columns.map((c) => NUMBER_FORMATS[c.kind]), ...merged.userColumns.map(() => null)];
  await workbook.writeTable({
    sheetName: current?.sheetName ?? sheetName,
    tableName,
    header: merged.header,
    rows: merged.rows,
    numberFormats: formats,
    formulas: merged.formulas,
    editable: [...source.columns.map((c) => Boolean(c.editable)), ...merged.userColumns.map(() => false)],
    dropdowns: [...source.columns.map((c) => c.dropdown ?? null), ...merged.userColumns.map(() => null)],
    widths: source.columns.map((c) => c.width),
    onProgress: (done, total) => options.onProgress?.({ phase: "write", done, total }),
  });
  if (tracked) {
    // A record the query no longer returns keeps its loaded values, so that an edit on its row is still seen.
    for (const id of merged.removed) {
      const values = loaded.get(id);
      if (values && !fresh.has(id)) fresh.set(id, values);
    }
    await writeSnapshot(workbook, tableName, fresh);
  }
  const storedNow: StoredTable = { params, columns: layout, loadedAt: now.toISOString() };
  await workbook.writeSetting(SETTING_PREFIX + tableName, JSON.stringify(storedNow));
  const known = await listLoadedTables(workbook);
  if (!known.includes(tableName)) await workbook.writeSetting(TABLES_SETTING, JSON.stringify([...known, tableName]));
  return {
    tableName, sheetName: current?.sheetName ?? sheetName, count: records.length, added: merged.added, updated: merged.updated,
    removed: merged.removed.length, userColumns: merged.userColumns, keptEdits: three.kept, conflicts: three.conflicts, discardedEdits: three.discarded,
  };
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
