/**
 * Load and Refresh: fetch a resource through the client, render it with its layout, merge it with what the
 * sheet holds, write it, and keep the snapshot and the load parameters in the workbook.
 */
import { z } from "zod";
import type { SpendClient } from "../api";
import { NUMBER_FORMATS, toCell } from "./columns";
import { findEdits, type RowEdit } from "./edits";
import { TRACKED_KEYS } from "./layouts/tracking";
import { LoadParams, SETTING_PREFIX, isTracked, sheetNameOf, sourceOf, tableNameOf } from "./load-params";
import { mergeRows } from "./merge";
import { readSnapshot, writeSnapshot, type Snapshot } from "./snapshot";
import { trackedOf } from "./tracked-values";
import type { CellValue, Workbook } from "./workbook";

/** The start of the status Refresh writes on a record the server no longer returns (Sync states skips those rows). */
export const REMOVED_NOTE_PREFIX = "Not returned by the service any more";

export interface LoadProgress {
  phase: "fetch" | "write";
  done: number;
  total: number | null;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  /** Overwrite edits of the tracked columns that were not synced. */
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
  discardedEdits: number;
}

/** Refresh would overwrite edits not synced yet: it stops and says which rows. */
export class UnsyncedEditsError extends Error {
  override readonly name = "UnsyncedEditsError";
  constructor(readonly tableName: string, readonly edits: RowEdit[], describe: (edit: RowEdit) => string) {
    super(
      `${edits.length} row${edits.length === 1 ? " has" : "s have"} edits that are not synced yet: ` +
        `${edits.slice(0, 5).map(describe).join("; ")}${edits.length > 5 ? `; and ${edits.length - 5} more` : ""}. ` +
        "Sync states first, or refresh again choosing to discard your edits.",
    );
  }
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
  const trackedHeaders = { id: layout[0], ...Object.fromEntries(TRACKED_KEYS.map((k) => [k, headerOf(k)])) } as Parameters<typeof findEdits>[1];

  const stored = await readStoredTable(workbook, tableName);
  const snapshot: Snapshot = tracked ? await readSnapshot(workbook, tableName) : new Map();
  const checkEdits = async () => {
    const current = await workbook.readTable(tableName);
    if (!current || !tracked) return { current, edits: [] as RowEdit[] };
    const edits = findEdits(current, trackedHeaders, snapshot);
    if (edits.length > 0 && !options.discardEdits) {
      throw new UnsyncedEditsError(tableName, edits, (e) =>
        `row ${e.row + 2} (${e.id.slice(0, 8)}: ${e.fields.map((f) => `${f.key} ${f.from || "empty"} → ${f.to || "empty"}`).join(", ")})`);
    }
    return { current, edits };
  };
  await checkEdits(); // before spending time on the network

  const records: { id: string }[] = [];
  for await (const page of source.list(client, {
    signal: options.signal,
    onProgress: (done, total) => options.onProgress?.({ phase: "fetch", done, total }),
  }).pages()) {
    records.push(...page.results);
  }
  options.signal?.throwIfAborted();

  const { current, edits } = await checkEdits(); // the user may have typed meanwhile
  const incoming = new Map<string, CellValue[]>();
  for (const record of records) {
    incoming.set(record.id, source.columns.map((column) => toCell(column.kind, column.value(record as never))));
  }
  const now = (options.now ?? (() => new Date()))();
  const merged = mergeRows({
    layout,
    previousLayout: stored?.columns ?? [],
    existing: current,
    incoming,
    removedNote: `${REMOVED_NOTE_PREFIX} for this table's filters (refresh ${now.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
  });
  const formats = [...source.columns.map((c) => NUMBER_FORMATS[c.kind]), ...merged.userColumns.map(() => "General")];
  await workbook.writeTable({
    sheetName: current?.sheetName ?? sheetName,
    tableName,
    header: merged.header,
    rows: merged.rows,
    numberFormats: formats,
    editable: [...source.columns.map((c) => Boolean(c.editable)), ...merged.userColumns.map(() => false)],
    dropdowns: [...source.columns.map((c) => c.dropdown ?? null), ...merged.userColumns.map(() => null)],
    widths: source.columns.map((c) => c.width),
    onProgress: (done, total) => options.onProgress?.({ phase: "write", done, total }),
  });
  if (tracked) {
    const fresh: Snapshot = new Map();
    for (const record of records) fresh.set(record.id, trackedOf(record as never));
    await writeSnapshot(workbook, tableName, fresh);
  }
  const storedNow: StoredTable = { params, columns: layout, loadedAt: now.toISOString() };
  await workbook.writeSetting(SETTING_PREFIX + tableName, JSON.stringify(storedNow));
  const known = await listLoadedTables(workbook);
  if (!known.includes(tableName)) await workbook.writeSetting(TABLES_SETTING, JSON.stringify([...known, tableName]));
  return {
    tableName, sheetName: current?.sheetName ?? sheetName, count: records.length, added: merged.added, updated: merged.updated,
    removed: merged.removed.length, userColumns: merged.userColumns, discardedEdits: options.discardEdits ? edits.length : 0,
  };
}

/** Reloads a table with the parameters stored in the workbook. */
export async function refreshTable(client: SpendClient, workbook: Workbook, tableName: string, options: LoadOptions = {}): Promise<LoadReport> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) throw new Error(`The table ${tableName} was not loaded by Spend Sync (no load parameters in this workbook), so it cannot be refreshed.`);
  return loadTable(client, workbook, stored.params, options);
}
