/**
 * The preview in the sheet: each edited row's status cell says what Sync states will do with it, and the
 * cells the user edited are highlighted until they are synced (write-outcomes.ts puts the editable fill
 * back) or discarded (discard.ts does) or the table is refreshed (a refresh rewrites the fills).
 * Only edited rows are written, plus rows an earlier preview marked that are no longer edited.
 */
import {
  EDITABLE_FILL, EDITED_FILL, REMOVED_NOTE_PREFIX, TRACKED_KEYS, type CellWrite, type TrackedKey, type TrackedValues, type Workbook,
} from "../sheets";
import type { Plan, PlannedRow } from "./plan";
export { EDITED_FILL };
import { isMarkedGone, type SheetRow, type SyncTable } from "./sync-table";

/** Fills of the status cell in a preview: what will be sent, and what will not. */
export const PREVIEW_FILLS = { send: "#DDEBF7", invalid: "#FFC7CE" } as const;

export const WILL_SEND = "Will send: ";
export const INVALID = "Invalid: ";
/** Keeps the start Refresh wrote, so the planner still reads the row as gone from the query (isMarkedGone). */
export const GONE_NOT_SENT = `${REMOVED_NOTE_PREFIX} for this table's query: your edit will not be sent. Refresh to see whether it is back, or edit it in a table whose query returns it.`;
const GONE_PLAIN = `${REMOVED_NOTE_PREFIX} for this table's query.`;

const FIELD_NAMES: Record<TrackedKey, string> = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at" };

/** What the status cell of a planned row says in the preview. */
export function previewStatus(planned: PlannedRow, gone = false): string {
  if (planned.cls === "change" && planned.patch && planned.loaded) {
    const { state, ...fields } = planned.patch;
    const extra = (Object.keys(fields) as TrackedKey[]).map((k) => `${FIELD_NAMES[k]}: ${fields[k as keyof typeof fields]}`);
    return `${WILL_SEND}${planned.loaded.state} → ${state}${extra.length ? ` (${extra.join(", ")})` : ""}`;
  }
  if (gone) return GONE_NOT_SENT;
  return `${INVALID}${planned.message ?? "this row cannot be synced."}`;
}

/** A status an earlier preview wrote (and nothing else did). */
export function isPreviewMark(status: string): boolean {
  return status.startsWith(WILL_SEND) || status.startsWith(INVALID) || status === GONE_NOT_SENT;
}

function editedKeys(loaded: TrackedValues | null, row: SheetRow): TrackedKey[] {
  return TRACKED_KEYS.filter((k) => (loaded ? row.desired[k] !== loaded[k] : row.desired[k] !== ""));
}

/**
 * The cells a preview writes: status and fill of every edited row, the edited cells highlighted (their
 * value written back as it is: the port writes a value with every fill), and a row marked by an earlier
 * preview but no longer edited put back as it was (status cleared, editable fill). Pure.
 */
export function previewMarks(table: Pick<SyncTable, "columns" | "rows">, planned: readonly PlannedRow[]): CellWrite[] {
  const byRow = new Map<number, PlannedRow>();
  for (const p of planned) if (p.cls !== "unchanged") for (const row of p.rows) byRow.set(row, p);
  const { columns } = table;
  const cells: CellWrite[] = [];
  for (const row of table.rows) {
    const p = byRow.get(row.row);
    const marked = isPreviewMark(row.status);
    if (!p && !marked) continue;
    const edited = p ? editedKeys(p.loaded, row) : [];
    if (p) {
      cells.push({ row: row.row, column: columns.status, value: previewStatus(p, isMarkedGone(row)), fill: p.cls === "change" ? PREVIEW_FILLS.send : PREVIEW_FILLS.invalid });
    } else {
      cells.push({ row: row.row, column: columns.status, value: row.status === GONE_NOT_SENT ? GONE_PLAIN : "", fill: null });
    }
    for (const key of TRACKED_KEYS) {
      const isEdited = edited.includes(key);
      // An unedited cell of a row never marked before has the editable fill already: not written.
      if (isEdited || marked) cells.push({ row: row.row, column: columns[key], value: row.raw[key], fill: isEdited ? EDITED_FILL : EDITABLE_FILL });
    }
  }
  return cells;
}

/** Writes the marks of a plan into its table; statuses pass `redact` (the client's, when connected). */
export async function markPreview(workbook: Workbook, table: SyncTable, plan: Plan, redact: (text: string) => string = (t) => t): Promise<void> {
  const cells = previewMarks(table, plan.rows).map((c) => (c.column === table.columns.status && typeof c.value === "string" ? { ...c, value: redact(c.value) } : c));
  if (cells.length > 0) await workbook.writeCells(table.tableName, cells);
}
