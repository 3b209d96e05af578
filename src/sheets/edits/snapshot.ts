/**
 * What the add-in last wrote of each record, per record id, kept in the workbook on a very hidden sheet so
 * that it survives save, close and reopen:
 * - the tracked fields as last loaded from the service: Sync states compares against them and updates only
 *   the rows of the records it changed;
 * - `read_only`: why a record that came from the service not matching the API may not be synced (Sync
 *   states never sends it, whatever its status cell says now); a snapshot written before that column read as none;
 * - `digest` and `cells`: fingerprints of the service's other cells of the row (row-hashes.ts), so that
 *   Refresh writes only the records that changed and sees what was typed over them. A snapshot written
 *   before them (or a table of another layout) is refreshed whole once, which writes them.
 * A first load writes it whole; Refresh and Sync states write the rows of the records they changed.
 */
import { TRACKED_KEYS } from "../resources/tracking";
import { HASH_CHARS, cellHash, digestOf } from "./row-hashes";
import { nameTag } from "../load/params";
import type { TrackedValues } from "./tracked-values";
import type { CellValue, CellWrite, TableStart, Workbook } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

export type Snapshot = Map<string, TrackedValues>;

/** Records that may not be synced, by id: why (what in the record does not match the API). */
export type ReadOnly = Map<string, string>;

/** The snapshot and where each record's row is in its table (for updates of single rows). */
export interface SnapshotRead {
  snapshot: Snapshot;
  rowOf: Map<string, number>;
  readOnly: ReadOnly;
  /** Each record's digest, when asked for and the snapshot has them; null otherwise. */
  digests: Map<string, string> | null;
  /** Rows in the snapshot's table (rows without an id too). */
  rowCount: number;
}

const READ_ONLY = "read_only";
const DIGEST = "digest";
const CELLS = "cells";
const HEADER = ["Record ID", ...TRACKED_KEYS, READ_ONLY, DIGEST, CELLS];
const NONE: TrackedValues = { state: "", accounted_id: "", paid_id: "", paid_at: "" };

/** Every column Preview reads of a snapshot (readSnapshotRows' and readFingerprints'): one read serves both (src/sync/preview-reads.ts). */
export const PREVIEW_SNAPSHOT_HEADERS: readonly string[] = [...HEADER.slice(0, 6), CELLS];

export const snapshotTableOf = (tableName: string) => `Snap_${tableName}`;

/**
 * The snapshot's sheet: "Snap <table name>" where it fits Excel's 31 characters; a longer name keeps its start
 * and ends with a tag of the whole name, so that two tables whose names share their first 26 characters
 * (SpendExpenses_1a2b3c4d_approved_from… and …_approved_to…) never share a sheet, which a load would replace.
 * @internal snapshot and pipelined-load tests read the hidden sheet by its name.
 */
export function snapshotSheetOf(tableName: string): string {
  const plain = `Snap ${tableName}`;
  return plain.length <= 31 ? plain : `Snap ${tableName.slice(0, 18)} ${nameTag(tableName, 7)}`;
}

/**
 * Reads the snapshot's id, tracked and read_only columns (values, no formulas), and with `digests` its
 * digest column too (Refresh); never its cells column, which only the rows of changed records need (readSnapshotCells).
 */
export async function readSnapshotRows(workbook: Workbook, tableName: string, options: { digests?: boolean } = {}): Promise<SnapshotRead> {
  const wanted = options.digests ? HEADER.slice(0, 7) : HEADER.slice(0, 6);
  const read = await workbook.readColumns(snapshotTableOf(tableName), wanted);
  const snapshot: Snapshot = new Map();
  const rowOf = new Map<string, number>();
  const readOnly: ReadOnly = new Map();
  const hasDigests = Boolean(options.digests && read?.columns.has(DIGEST) && read.header.includes(CELLS));
  const digests = hasDigests ? new Map<string, string>() : null;
  if (!read) return { snapshot, rowOf, readOnly, digests, rowCount: 0 };
  const [ids, ...rest] = wanted.map((h) => read.columns.get(h) ?? []);
  for (let row = 0; row < read.rowCount; row++) {
    const id = String(ids[row] ?? "");
    if (!id) continue;
    const at = (i: number) => String(rest[i]?.[row] ?? "");
    snapshot.set(id, { state: at(0), accounted_id: at(1), paid_id: at(2), paid_at: at(3) });
    rowOf.set(id, row);
    if (at(4) !== "") readOnly.set(id, at(4));
    digests?.set(id, at(5));
  }
  return { snapshot, rowOf, readOnly, digests, rowCount: read.rowCount };
}

/** Every record's fingerprints (its cells column), by id: Preview's check for values typed over the service's cells. */
export async function readFingerprints(workbook: Workbook, tableName: string): Promise<Map<string, string>> {
  const read = await workbook.readColumns(snapshotTableOf(tableName), [HEADER[0], CELLS]);
  const out = new Map<string, string>();
  const ids = read?.columns.get(HEADER[0]) ?? [];
  const cells = read?.columns.get(CELLS) ?? [];
  ids.forEach((id, row) => {
    if (id !== "") out.set(String(id), String(cells[row] ?? ""));
  });
  return out;
}

/** The cells column (fingerprints of a record's cells) of some snapshot rows, in the order asked. */
export async function readSnapshotCells(workbook: Workbook, tableName: string, rows: readonly number[]): Promise<string[]> {
  const read = await workbook.readRows(snapshotTableOf(tableName), rows, [CELLS]);
  return (read ?? rows.map(() => [""])).map((line) => String(line[0] ?? ""));
}

export async function readSnapshot(workbook: Workbook, tableName: string): Promise<Snapshot> {
  return (await readSnapshotRows(workbook, tableName)).snapshot;
}

/** The snapshot's table, as a load starts writing it (on a very hidden sheet of its own). */
export function snapshotStart(tableName: string): TableStart {
  return {
    sheetName: snapshotSheetOf(tableName),
    tableName: snapshotTableOf(tableName),
    header: HEADER,
    numberFormats: HEADER.map(() => "@"),
    editable: HEADER.map(() => false),
    dropdowns: HEADER.map(() => null),
    visibility: "VeryHidden",
    ownSheet: true,
    holdPartial: "untilFinish",
  };
}

/**
 * A record's row in the snapshot table: its tracked values (none for a table that is not synced),
 * `readOnly` why it may not be synced ("" when it may), `cells` the fingerprints of its other cells.
 */
export const snapshotRow = (id: string, v: TrackedValues | undefined, readOnly = "", cells = ""): string[] => {
  const t = v ?? NONE;
  return [id, t.state, t.accounted_id, t.paid_id, t.paid_at, readOnly, digestOf(cells), cells];
};

/** Replaces the whole snapshot (a load or a full refresh). */
export async function writeSnapshot(workbook: Workbook, tableName: string, records: Iterable<SnapshotRecord>): Promise<void> {
  await workbook.writeTable({ ...snapshotStart(tableName), rows: [...records].map((r) => snapshotRow(r.id, r.values, r.readOnly, r.cells)) });
}

/** One record as the snapshot keeps it. */
export interface SnapshotRecord {
  id: string;
  values?: TrackedValues;
  readOnly?: string;
  cells: string;
}

/**
 * Refresh: the rows of the records that changed written again (tracked values, read_only, digest, cells),
 * and the new records' rows added below. Rows of records the query no longer returns stay as they are.
 */
export async function patchSnapshot(workbook: Workbook, tableName: string, read: SnapshotRead, records: readonly SnapshotRecord[]): Promise<void> {
  let next = read.rowCount;
  const rows = records.map((r) => ({ row: read.rowOf.get(r.id) ?? next++, values: snapshotRow(r.id, r.values, r.readOnly, r.cells), formats: HEADER.map(() => "@") }));
  if (rows.length === 0) return;
  // A new table's snapshot holds one empty row (an Excel table always has one): the first record takes it.
  if (read.rowCount === 1 && read.rowOf.size === 0) for (const row of rows) row.row--;
  await workbook.updateTable(snapshotTableOf(tableName), { header: HEADER, rows, editable: HEADER.map(() => false), dropdowns: HEADER.map(() => null) });
}

/**
 * Sync states wrote some of the service's cells of a row itself (an allowance's Updated at, from the PATCH's
 * answer): their fingerprints follow, so that Preview does not take them for values typed over the service's.
 * `cells` gives, by record id, the new value of each changed cell by its place among the fingerprinted columns.
 */
export async function updateFingerprints(workbook: Workbook, tableName: string, read: SnapshotRead, cells: Map<string, Map<number, CellValue>>): Promise<void> {
  const ids = [...cells.keys()].filter((id) => read.rowOf.has(id));
  if (ids.length === 0) return;
  const rows = ids.map((id) => read.rowOf.get(id)!);
  const stored = await readSnapshotCells(workbook, tableName, rows);
  const writes: CellWrite[] = [];
  ids.forEach((id, k) => {
    let fingerprints = stored[k];
    for (const [place, value] of cells.get(id)!) {
      if (fingerprints.length < (place + 1) * HASH_CHARS) return; // another layout's: nothing to follow
      fingerprints = fingerprints.slice(0, place * HASH_CHARS) + cellHash(value) + fingerprints.slice((place + 1) * HASH_CHARS);
    }
    writes.push({ row: rows[k], column: HEADER.indexOf(DIGEST), value: digestOf(fingerprints) }, { row: rows[k], column: HEADER.indexOf(CELLS), value: fingerprints });
  });
  if (writes.length > 0) await workbook.writeCells(snapshotTableOf(tableName), writes);
}

/**
 * Writes the new values of some records into their snapshot rows, and nothing else (Sync states: the cost
 * follows the records synced, not the table). Every record Sync states sends was loaded, so it has a row.
 */
export async function updateSnapshotRows(workbook: Workbook, tableName: string, read: SnapshotRead, updates: Snapshot): Promise<void> {
  const cells: CellWrite[] = [];
  for (const [id, values] of updates) {
    const row = read.rowOf.get(id);
    if (row === undefined) throw new WorkbookError("table-changed", `Record ${id} has no row in the snapshot of ${tableName}; refresh the table.`);
    read.snapshot.set(id, values);
    TRACKED_KEYS.forEach((key, i) => cells.push({ row, column: i + 1, value: values[key] }));
  }
  if (cells.length > 0) await workbook.writeCells(snapshotTableOf(tableName), cells);
}
