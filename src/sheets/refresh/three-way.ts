/**
 * Refresh is three-way (loaded, sheet, server): an unsynced edit survives where the server did not move;
 * where both moved, the edit is kept and the row flagged with the server's values; nothing is refused.
 */
import type { EditHeaders, RowEdit } from "../edits/edits";
import { REFRESH_CONFLICT_PREFIX, UNSYNCED_PREFIX } from "../load/context";
import { TRACKED_KEYS } from "../resources/tracking";
import type { Snapshot } from "../edits/snapshot";
import { TRACKED_WORDS, describeTracked, sameTracked, type TrackedValues } from "../edits/tracked-values";
import type { CellValue, TableRead } from "../port/workbook";

export interface ThreeWay {
  /** Cells that replace the server's in a refreshed row, by id then header: the user's tracked cells, and the status. */
  overrides: Map<string, Record<string, CellValue>>;
  /** The headers of the cells each kept edit changed (marked as edited, as Preview marks them), by id. */
  marks: Map<string, string[]>;
  kept: number;
  conflicts: number;
  discarded: number;
}

/**
 * The status of a row whose edit Refresh kept: "Unsynced: paid (server: approved)".
 * @internal three-way-keeps-the-users-edit.test.ts expects the kept edit's exact status.
 */
export const unsyncedNote = (desired: TrackedValues, server: TrackedValues) =>
  `${UNSYNCED_PREFIX}: ${describeTracked(desired)} (server: ${describeTracked(server)})`;

/** Decides, per edited row, what Refresh keeps of the user's cells. */
export function threeWay(
  edits: RowEdit[], current: Pick<TableRead, "header" | "rows"> | null, headers: EditHeaders, loaded: Snapshot, fresh: Snapshot,
  statusHeader: string, stamp: string, discard: boolean,
): ThreeWay {
  const out: ThreeWay = { overrides: new Map(), marks: new Map(), kept: 0, conflicts: 0, discarded: 0 };
  if (!current) return out;
  const at = new Map(current.header.map((h, i) => [h, i]));
  // An id on several rows: Refresh writes the record on its first row only and leaves the others as they are
  // (marked as duplicates), so only the first row's edit is the record's; another row's stays on its own row.
  const firstRow = firstRowOfEachId(current.rows, at.get(headers.id) ?? -1);
  for (const edit of edits) {
    if (firstRow.get(edit.id) !== edit.row) continue;
    const server = fresh.get(edit.id);
    const before = loaded.get(edit.id);
    if (!server || !before) continue; // gone from the query: the row stays as the user left it
    if (discard) {
      out.discarded++;
      continue;
    }
    const kept: TrackedValues = { ...server };
    for (const f of edit.fields) kept[f.key] = f.to;
    if (sameTracked(kept, server)) continue; // the server now holds what the user typed
    const cells: Record<string, CellValue> = {};
    // Where the server moved, only the cells the person edited are theirs: the others take the server's values, so
    // that a field someone else set is never kept at its old value and then read as the person clearing it (issue 43).
    const keys = sameTracked(before, server) ? TRACKED_KEYS : edit.fields.map((f) => f.key);
    for (const key of keys) cells[headers[key]] = current.rows[edit.row][at.get(headers[key]) ?? -1] ?? "";
    out.marks.set(edit.id, edit.fields.map((f) => headers[f.key]));
    if (sameTracked(before, server)) {
      out.kept++;
      // Its status says what it is, so that it never looks like the server's value (issue 24).
      cells[statusHeader] = unsyncedNote(kept, server);
    } else {
      out.conflicts++;
      cells[statusHeader] = `${REFRESH_CONFLICT_PREFIX} (refresh ${stamp}): someone else changed it since you loaded, the server now has ${describeTracked(server)}; ` +
        `your edit (${edit.fields.map((f) => `${TRACKED_WORDS[f.key]} ${f.to || "empty"}`).join(", ")}) is kept on top of it: ${describeTracked(kept)}. ` +
        "Preview checks it against the server's values; discard it if you no longer want it.";
    }
    out.overrides.set(edit.id, cells);
  }
  return out;
}

/**
 * A record the service sent malformed keeps its read-only note over the kept edit's: the note says why Sync
 * states will not send the row, which is what the user must know first (issue 25). The edit itself is kept.
 */
/** Each id's first row (ids trimmed, empty ids left out): where Refresh writes a record that stands on several rows. */
export function firstRowOfEachId(rows: readonly (readonly CellValue[])[], idColumn: number): Map<string, number> {
  const first = new Map<string, number>();
  rows.forEach((row, r) => {
    const id = String(row[idColumn] ?? "").trim();
    if (id && !first.has(id)) first.set(id, r);
  });
  return first;
}

export function readOnlyNotesFirst(decisions: ThreeWay, readOnly: ReadonlyMap<string, unknown>, statusHeader: string): void {
  for (const [id, cells] of decisions.overrides) if (readOnly.has(id)) delete cells[statusHeader];
}
