/**
 * The values of the tracked fields as last loaded from the service, per record id, kept in the workbook on
 * a very hidden sheet so that they survive save, close and reopen. Sync states compares against them and
 * updates only the rows of the records it changed; a load rewrites it whole. A record that came from the
 * service not matching the API is marked read-only there (its `read_only` cell says why): Sync states never
 * sends it, whatever its status cell says now. A snapshot written before that column existed reads as none.
 */
import { TRACKED_KEYS } from "./layouts/tracking";
import { nameTag } from "./load-params";
import type { TrackedValues } from "./tracked-values";
import type { CellWrite, TableStart, Workbook } from "./workbook";

export type Snapshot = Map<string, TrackedValues>;

/** Records that may not be synced, by id: why (what in the record does not match the API). */
export type ReadOnly = Map<string, string>;

/** The snapshot and where each record's row is in its table (for updates of single rows). */
export interface SnapshotRead {
  snapshot: Snapshot;
  rowOf: Map<string, number>;
  readOnly: ReadOnly;
}

const READ_ONLY = "read_only";
const HEADER = ["Record ID", ...TRACKED_KEYS, READ_ONLY];

export const snapshotTableOf = (tableName: string) => `Snap_${tableName}`;

/**
 * The snapshot's sheet: "Snap <table name>" where it fits Excel's 31 characters; a longer name keeps its start
 * and ends with a tag of the whole name, so that two tables whose names share their first 26 characters
 * (SpendExpenses_1a2b3c4d_approved_from… and …_approved_to…) never share a sheet, which a load would replace.
 */
export function snapshotSheetOf(tableName: string): string {
  const plain = `Snap ${tableName}`;
  return plain.length <= 31 ? plain : `Snap ${tableName.slice(0, 18)} ${nameTag(tableName, 7)}`;
}

/** Reads the snapshot's five columns only (values, no formulas). */
export async function readSnapshotRows(workbook: Workbook, tableName: string): Promise<SnapshotRead> {
  const read = await workbook.readColumns(snapshotTableOf(tableName), HEADER);
  const snapshot: Snapshot = new Map();
  const rowOf = new Map<string, number>();
  const readOnly: ReadOnly = new Map();
  if (!read) return { snapshot, rowOf, readOnly };
  const [ids, ...tracked] = HEADER.map((h) => read.columns.get(h) ?? []);
  for (let row = 0; row < read.rowCount; row++) {
    const id = String(ids[row] ?? "");
    if (!id) continue;
    const at = (i: number) => String(tracked[i][row] ?? "");
    snapshot.set(id, { state: at(0), accounted_id: at(1), paid_id: at(2), paid_at: at(3) });
    rowOf.set(id, row);
    if (at(4) !== "") readOnly.set(id, at(4));
  }
  return { snapshot, rowOf, readOnly };
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

/** A record's row in the snapshot table; `readOnly` says why it may not be synced ("" when it may). */
export const snapshotRow = (id: string, v: TrackedValues, readOnly = ""): string[] => [id, v.state, v.accounted_id, v.paid_id, v.paid_at, readOnly];

/** Replaces the whole snapshot (a load or a refresh). */
export async function writeSnapshot(workbook: Workbook, tableName: string, snapshot: Snapshot, readOnly: ReadOnly = new Map()): Promise<void> {
  await workbook.writeTable({ ...snapshotStart(tableName), rows: [...snapshot].map(([id, v]) => snapshotRow(id, v, readOnly.get(id))) });
}

/**
 * Writes the new values of some records into their snapshot rows, and nothing else (Sync states: the cost
 * follows the records synced, not the table). Every record Sync states sends was loaded, so it has a row.
 */
export async function updateSnapshotRows(workbook: Workbook, tableName: string, read: SnapshotRead, updates: Snapshot): Promise<void> {
  const cells: CellWrite[] = [];
  for (const [id, values] of updates) {
    const row = read.rowOf.get(id);
    if (row === undefined) throw new Error(`Record ${id} has no row in the snapshot of ${tableName}; refresh the table.`);
    read.snapshot.set(id, values);
    TRACKED_KEYS.forEach((key, i) => cells.push({ row, column: i + 1, value: values[key] }));
  }
  if (cells.length > 0) await workbook.writeCells(snapshotTableOf(tableName), cells);
}
