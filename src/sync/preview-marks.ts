/**
 * The preview in the sheet: each edited row's status cell says what Sync states will do with it, and the
 * cells the user edited are highlighted until they are synced (write-outcomes.ts puts the editable fill
 * back) or discarded (discard.ts does) or the table is refreshed (a refresh rewrites the fills).
 * Only edited rows are written, plus rows an earlier preview marked that are no longer edited.
 */
import {
  EDITABLE_FILL, EDITED_FILL, IMPORT_NOTE_PREFIX, importNoteOf, REFRESH_CONFLICT_PREFIX, REMOVED_NOTE_PREFIX, UNSYNCED_PREFIX, TRACKED_KEYS, TRACKED_WORDS,
  type CellWrite, type TrackedKey, type TrackedValues, type Workbook,
} from "../sheets";
import type { StatePatch } from "../domain";
import type { Plan, PlannedRow } from "./plan";
import { TYPED_NOTE_PREFIX, typedNote, type TypedValue } from "./typed-values";
import { isMarkedGone, type SheetRow, type SyncTable } from "./sync-table";

/**
 * Fills of the status cell in a preview: what will be sent, and what will not.
 * @internal preview tests expect each status fill.
 */
export const PREVIEW_FILLS = { send: "#DDEBF7", invalid: "#FFC7CE", typed: "#FFEB9C", check: "#FFEB9C" } as const;

const WILL_SEND = "Will send: ";
const INVALID = "Invalid: ";
/** A change Preview questions (questions.ts): sent only when the user confirms the rows to check. */
const CHECK = "Check: ";
/** The taskpane's box that confirms them. */
export const SEND_CHECKED_LABEL = "Send the rows to check as they are";
/**
 * Keeps the start Refresh wrote, so the planner still reads the row as gone from the query (isMarkedGone).
 * @internal preview tests expect the gone row's exact status.
 */
export const GONE_NOT_SENT = `${REMOVED_NOTE_PREFIX} for this table's query: your edit will not be sent. Refresh to see whether it is back, or edit it in a table whose query returns it.`;
const GONE_PLAIN = `${REMOVED_NOTE_PREFIX} for this table's query.`;

/** A change in the columns' words, as the status and the taskpane's list say it: "approved → paid (Paid ID: PAY-1)"; never the JSON body. */
export function changeInWords(loaded: TrackedValues, patch: StatePatch): string {
  const { state, ...fields } = patch;
  const extra = (Object.keys(fields) as TrackedKey[]).map((k) => `${TRACKED_WORDS[k]}: ${fields[k as keyof typeof fields]}`);
  return `${loaded.state} → ${state}${extra.length ? ` (${extra.join(", ")})` : ""}`;
}

/**
 * What the status cell of a planned row says in the preview.
 * @internal preview-marks tests check each planned row's words directly.
 */
export function previewStatus(planned: PlannedRow, gone = false): string {
  if ((planned.kind === "change" || planned.kind === "check") && planned.patch && planned.loaded) {
    const change = changeInWords(planned.loaded, planned.patch);
    if (planned.kind === "check") {
      return `${CHECK}${planned.message} Not sent unless you confirm it (tick "${SEND_CHECKED_LABEL}"): it would send ${change}. Or fix the cell and preview again.`;
    }
    return `${WILL_SEND}${change}`;
  }
  if (gone) return GONE_NOT_SENT;
  return `${INVALID}${planned.message ?? "this row cannot be synced."}`;
}

/**
 * A status an earlier preview or refresh wrote about an edit or a typed value: Preview writes it again, or
 * clears it where the row has none any more (the user put the old value back).
 */
function isPreviewMark(status: string): boolean {
  return status.startsWith(WILL_SEND) || status.startsWith(INVALID) || status.startsWith(CHECK) || status === GONE_NOT_SENT || hasTypedNote(status)
    || status.startsWith(UNSYNCED_PREFIX) || status.startsWith(REFRESH_CONFLICT_PREFIX) || status.includes(IMPORT_NOTE_PREFIX);
}

/** A status naming values typed over the service's cells (alone, after an edit's, or after a gone row's). */
const hasTypedNote = (status: string) => status.startsWith(TYPED_NOTE_PREFIX) || status.includes(` ${TYPED_NOTE_PREFIX}`);

/** Where Preview finds the service's cells of a row: the table's header, and the headers of the service's cells. */
export interface TypedColumns {
  header: readonly string[];
  service: readonly string[];
}

function editedKeys(loaded: TrackedValues | null, row: SheetRow): TrackedKey[] {
  return TRACKED_KEYS.filter((k) => (loaded ? row.desired[k] !== loaded[k] : row.desired[k] !== ""));
}

/**
 * The cells a preview writes: status and fill of every edited row, the edited cells highlighted (the fill
 * alone: what they hold, a formula too, stays), and a row marked by an earlier
 * preview but no longer edited put back as it was (status cleared, editable fill). Pure.
 * @internal preview-marks tests and test/support/preview-baseline.ts compute marks without a workbook.
 */
export function previewMarks(
  table: Pick<SyncTable, "columns" | "rows">, planned: readonly PlannedRow[], typed: readonly TypedValue[] = [], where: TypedColumns = { header: [], service: [] },
): CellWrite[] {
  const columnOf = (header: string) => where.header.indexOf(header);
  const byRow = new Map<number, PlannedRow>();
  for (const p of planned) if (p.kind !== "unchanged") for (const row of p.rows) byRow.set(row, p);
  const typedAt = new Map<number, TypedValue[]>();
  for (const t of typed) typedAt.set(t.row, [...(typedAt.get(t.row) ?? []), t]);
  const { columns } = table;
  const cells: CellWrite[] = [];
  for (const row of table.rows) {
    const p = byRow.get(row.row);
    const typedHere = typedAt.get(row.row) ?? [];
    const marked = isPreviewMark(row.status);
    if (!p && !marked && typedHere.length === 0) continue;
    const edited = p ? editedKeys(p.loaded, row) : [];
    const note = typedHere.length > 0 ? typedNote(typedHere) : "";
    if (p) {
      // An imported value keeps naming its source line (import/note.ts) beside what will be done with it.
      const source = importNoteOf(row.status);
      const text = source ? `${previewStatus(p, isMarkedGone(row))} ${source}` : previewStatus(p, isMarkedGone(row));
      cells.push({ row: row.row, column: columns.status, value: note ? `${text} ${note}` : text, fill: PREVIEW_FILLS[p.kind === "change" ? "send" : p.kind === "check" ? "check" : "invalid"] });
    } else if (note) {
      // A row gone from its query keeps the start Refresh wrote, so that the planner still reads it as gone.
      cells.push({ row: row.row, column: columns.status, value: isMarkedGone(row) ? `${GONE_PLAIN} ${note}` : note, fill: PREVIEW_FILLS.typed });
    } else {
      cells.push({ row: row.row, column: columns.status, value: row.status === GONE_NOT_SENT || (isMarkedGone(row) && hasTypedNote(row.status)) ? GONE_PLAIN : "", fill: null });
    }
    // Typed values are marked; where an earlier preview marked some that are gone (put back), the service's cells lose the mark.
    const typedHeaders = new Set(typedHere.map((t) => t.header));
    for (const header of typedHeaders) if (columnOf(header) >= 0) cells.push({ row: row.row, column: columnOf(header), fill: EDITED_FILL });
    if (hasTypedNote(row.status)) {
      for (const header of where.service) if (!typedHeaders.has(header) && columnOf(header) >= 0) cells.push({ row: row.row, column: columnOf(header), fill: null });
    }
    for (const key of TRACKED_KEYS) {
      const isEdited = edited.includes(key);
      // An unedited cell of a row never marked before has the editable fill already: not written.
      // The fill alone: the cell keeps what it holds, a formula included (issue 47), never its value in its place.
      if (isEdited || marked) cells.push({ row: row.row, column: columns[key], fill: isEdited ? EDITED_FILL : EDITABLE_FILL });
    }
  }
  return cells;
}

/** Writes the marks of a plan (and of values typed over the service's cells) into its table; statuses pass `redact` (the client's, when connected). */
export async function markPreview(
  workbook: Workbook, table: SyncTable, plan: Plan, redact: (text: string) => string = (t) => t, typed: readonly TypedValue[] = [], where?: TypedColumns,
): Promise<void> {
  const cells = previewMarks(table, plan.rows, typed, where).map((c) => (c.column === table.columns.status && typeof c.value === "string" ? { ...c, value: redact(c.value) } : c));
  if (cells.length > 0) await workbook.writeCells(table.tableName, cells);
}
