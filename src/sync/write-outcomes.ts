/**
 * Writes each record's outcome into the sheet: a status (text and colour) on its row, the values the
 * server returned into its tracked cells, the snapshot for records now in sync, and the journal. Rows are
 * found again by id, so a table sorted or filtered during the sync is still written right.
 */
import { STATUS_KEY, TRACKED_KEYS, readSnapshot, toCell, writeSnapshot, type CellWrite, type Workbook } from "../sheets";
import { appendJournal, journalRows } from "./journal";
import type { Outcome, RowResult } from "./outcome";
import type { SyncTable } from "./sync-table";

export const OUTCOME_FILLS: Record<Outcome, string> = {
  applied: "#C6EFCE",
  "already-applied": "#C6EFCE",
  rejected: "#FFC7CE",
  invalid: "#FFC7CE",
  conflict: "#FFEB9C",
  "not-sent": "#FFEB9C",
  unconfirmed: "#FFEB9C",
};

const LABELS: Record<Outcome, string> = {
  applied: "Applied",
  "already-applied": "Already applied",
  rejected: "Rejected by the service",
  invalid: "Not sent, fix the row",
  conflict: "Conflict, not sent",
  "not-sent": "Not sent",
  unconfirmed: "Unconfirmed",
};

const stamp = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The text of a row's status cell. */
export function statusText(r: RowResult): string {
  const head = `${LABELS[r.outcome]} ${stamp(r.at)}`;
  if (r.outcome === "applied") return `${head}: ${r.from} → ${r.to}${r.message ? `. ${r.message}` : ""}`;
  if (r.outcome === "already-applied") return `${head}: the server already had ${r.to}; nothing sent.`;
  return `${head}: ${r.message}`;
}

export async function writeOutcomes(workbook: Workbook, table: SyncTable, results: RowResult[]): Promise<void> {
  const now = await workbook.readTable(table.tableName);
  const rowsOf = new Map<string, number[]>();
  if (now) {
    const idAt = now.header.indexOf(table.headers.id);
    now.rows.forEach((cells, row) => {
      const id = String(cells[idAt] ?? "").trim();
      if (id) rowsOf.set(id, [...(rowsOf.get(id) ?? []), row]);
    });
  }
  const at = (key: string) => (now ? now.header.indexOf(key) : -1);
  const cells: CellWrite[] = [];
  for (const r of results) {
    const rows = r.id ? (rowsOf.get(r.id) ?? []) : r.rows;
    for (const row of rows) {
      cells.push({ row, column: at(table.headers[STATUS_KEY]), value: statusText(r), fill: OUTCOME_FILLS[r.outcome] });
      if (!r.server || (r.outcome !== "applied" && r.outcome !== "already-applied")) continue;
      for (const key of TRACKED_KEYS) {
        const column = at(table.headers[key]);
        const value = r.server[key];
        cells.push({ row, column, value: key === "paid_at" ? toCell("timestamp", value) : value });
      }
      if (table.headers.updated_at && r.server.updated_at) {
        cells.push({ row, column: at(table.headers.updated_at), value: toCell("timestamp", r.server.updated_at) });
      }
    }
  }
  const valid = cells.filter((c) => c.column >= 0);
  if (valid.length > 0) await workbook.writeCells(table.tableName, valid);

  const synced = results.filter((r) => r.server && (r.outcome === "applied" || r.outcome === "already-applied"));
  if (synced.length > 0) {
    const snapshot = await readSnapshot(workbook, table.tableName);
    for (const r of synced) {
      const { updated_at: _ignored, ...tracked } = r.server!;
      snapshot.set(r.id, tracked);
    }
    await writeSnapshot(workbook, table.tableName, snapshot);
  }
  await appendJournal(workbook, journalRows(table.tableName, table.resource, results.flatMap((r) => r.journal)));
}
