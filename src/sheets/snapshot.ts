/**
 * The values of the tracked fields as last loaded from the service, per record id, kept in the workbook on
 * a very hidden sheet so that they survive save, close and reopen. Sync states compares against them.
 */
import { TRACKED_KEYS } from "./layouts/tracking";
import type { TrackedValues } from "./tracked-values";
import type { Workbook } from "./workbook";

export type Snapshot = Map<string, TrackedValues>;

const HEADER = ["Record ID", ...TRACKED_KEYS];

export const snapshotTableOf = (tableName: string) => `Snap_${tableName}`;
const snapshotSheetOf = (tableName: string) => `Snap ${tableName}`.slice(0, 31);

export async function readSnapshot(workbook: Workbook, tableName: string): Promise<Snapshot> {
  const table = await workbook.readTable(snapshotTableOf(tableName));
  const snapshot: Snapshot = new Map();
  if (!table) return snapshot;
  for (const row of table.rows) {
    const id = String(row[0] ?? "");
    if (!id) continue;
    snapshot.set(id, { state: String(row[1] ?? ""), accounted_id: String(row[2] ?? ""), paid_id: String(row[3] ?? ""), paid_at: String(row[4] ?? "") });
  }
  return snapshot;
}

export async function writeSnapshot(workbook: Workbook, tableName: string, snapshot: Snapshot): Promise<void> {
  await workbook.writeTable({
    sheetName: snapshotSheetOf(tableName),
    tableName: snapshotTableOf(tableName),
    header: HEADER,
    rows: [...snapshot].map(([id, v]) => [id, v.state, v.accounted_id, v.paid_id, v.paid_at]),
    numberFormats: HEADER.map(() => "@"),
    editable: HEADER.map(() => false),
    dropdowns: HEADER.map(() => null),
    visibility: "VeryHidden",
  });
}
