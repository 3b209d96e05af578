/**
 * What a Refresh of only what changed writes, decided from what it read: the table's id, tracked and status
 * cells, the snapshot (tracked values, digests) and the records the service sent. Pure.
 *
 * - A record whose digest moved (the service changed a cell of it) gets its service cells written again;
 * - its tracked cells too where the user has no edit kept (an edit discarded, or the server now holds what
 *   was typed), or where only the server moved them;
 * - a row whose status must change gets it (a sync's outcome cleared, a conflict flagged, a record gone);
 * - an id on two rows: its first row takes the record whole (which row holds the record's cells cannot be
 *   known without reading them), as a whole rewrite would; the others are marked as duplicates;
 * - new records go below the last row, or into the one blank row of a table loaded empty.
 */
import { NUMBER_FORMATS } from "./columns";
import { findEdits } from "./edits";
import { TRACKED_KEYS } from "./layouts/tracking";
import { REMOVED_NOTE_PREFIX, stampOf, type Load } from "./load-context";
import { EDITABLE_FILL, EDITED_FILL } from "./marks";
import { rowFormatter } from "./money-formats";
import type { Collected } from "./refresh-collect";
import { digestOf } from "./row-hashes";
import type { SnapshotRead, SnapshotRecord } from "./snapshot";
import { readOnlyNotesFirst, threeWay, type ThreeWay } from "./three-way";
import { sameTracked } from "./tracked-values";
import type { CellValue, RowPatch } from "./workbook";

export const DUPLICATE_NOTE = "Duplicate row of this record: not refreshed.";

/** What Refresh reads of the table to decide: its id, tracked and status cells, by body row. */
export interface SheetCells {
  sheetName: string;
  header: string[];
  ids: string[];
  /** By tracked header (tracked resources), each column's cells. */
  tracked: Map<string, CellValue[]>;
  statuses: string[];
}

/** A row to write: its values and fills by layout place (undefined: left as it is; a fill may go without a value). */
export interface Patch extends RowPatch {
  values: (CellValue | undefined)[];
  fills: (string | null | undefined)[];
}

export interface RefreshPlan {
  /** Rows to write, by body row (existing rows and added ones). */
  patches: Map<number, Patch>;
  /** Existing rows whose service cells are written (records the service changed), for the typed-over check. */
  changed: { row: number; id: string }[];
  /** Snapshot rows to write: records that changed, and new ones. */
  records: SnapshotRecord[];
  removed: string[];
  added: number;
  updated: number;
  /** The body's rows once the new records are in. */
  rows: number;
  decisions: ThreeWay;
}

export function planRefresh(load: Load, collected: Collected, loadedRead: SnapshotRead, sheet: SheetCells): RefreshPlan {
  const { layout, source, trackedHeaders, statusHeader, options } = load;
  const { incoming, hashes, fresh, readOnly } = collected;
  const { snapshot: loaded, readOnly: loadedReadOnly } = loadedRead;
  const digests = loadedRead.digests ?? new Map<string, string>();
  const trackedList = load.tracked ? TRACKED_KEYS.map((key) => trackedHeaders[key]) : [];
  const { ids, statuses } = sheet;
  const trackedOf = (h: string) => sheet.tracked.get(h) ?? [];
  const view = { header: [layout[0], ...trackedList], rows: ids.map((id, r) => [id, ...trackedList.map((h) => trackedOf(h)[r])]) };
  const stamp = stampOf(load.now);
  const edits = load.tracked ? findEdits(view, trackedHeaders, loaded) : [];
  const decisions = threeWay(edits, view, trackedHeaders, loaded, fresh, statusHeader, stamp, Boolean(options.discardEdits));
  readOnlyNotesFirst(decisions, readOnly, statusHeader);
  const edited = new Set(edits.map((e) => e.id));

  const statusAt = layout.indexOf(statusHeader);
  const trackedPlaces = trackedList.map((h) => layout.indexOf(h));
  const formatter = rowFormatter(source.columns);
  const plainFormats = source.columns.map((c) => NUMBER_FORMATS[c.kind]);
  const formatsOf = (row: CellValue[]) => formatter?.(row) ?? plainFormats;
  const removedNote = `${REMOVED_NOTE_PREFIX} for this table's query (refresh ${stamp})`;

  const patches = new Map<number, Patch>();
  const patchOf = (row: number, formats: readonly (string | null)[]): Patch => {
    let patch = patches.get(row);
    if (!patch) patches.set(row, (patch = { row, values: layout.map(() => undefined), fills: layout.map(() => undefined), formats }));
    return patch;
  };
  const setStatus = (row: number, text: string, formats: readonly (string | null)[] = plainFormats) => {
    const patch = patchOf(row, formats);
    patch.values[statusAt] = text;
    if (statuses[row] !== "") patch.fills[statusAt] = null; // a sync's or a preview's colour goes with its text
  };

  const twice = new Set<string>();
  const once = new Set<string>();
  for (const id of ids) if (id) (once.has(id) ? twice : once).add(id);
  const seen = new Set<string>();
  const plan: RefreshPlan = { patches, changed: [], records: [], removed: [], added: 0, updated: 0, rows: ids.length, decisions };
  ids.forEach((id, r) => {
    if (!id) return;
    const row = incoming.get(id);
    if (seen.has(id)) {
      if (statuses[r] !== DUPLICATE_NOTE) setStatus(r, DUPLICATE_NOTE);
      return;
    }
    if (!row) {
      plan.removed.push(id);
      if (!statuses[r].startsWith(REMOVED_NOTE_PREFIX)) setStatus(r, removedNote);
      return;
    }
    seen.add(id);
    const cells = hashes.get(id) ?? "";
    const serverChanged = twice.has(id) || digests.get(id) !== digestOf(cells);
    const before = loaded.get(id);
    const trackedChanged = load.tracked && (!before || !sameTracked(before, fresh.get(id)!));
    const override = decisions.overrides.get(id);
    const writeTracked = !override && (edited.has(id) || trackedChanged);
    const formats = formatsOf(row);
    if (serverChanged) {
      const patch = patchOf(r, formats);
      for (const p of load.hashed) patch.values[p] = row[p];
      // A row of an id found twice holds another record's cells, maybe: nothing there was typed over this record's.
      if (!twice.has(id)) plan.changed.push({ row: r, id });
    }
    if (writeTracked) {
      const patch = patchOf(r, formats);
      for (const p of trackedPlaces) {
        patch.values[p] = row[p];
        if (edited.has(id)) patch.fills[p] = EDITABLE_FILL; // Preview's mark of an edit goes with the edit
      }
    }
    // A kept edit keeps its mark (the cells the user changed, as Preview marks them), whatever marked them before.
    for (const header of decisions.marks.get(id) ?? []) patchOf(r, formats).fills[layout.indexOf(header)] = EDITED_FILL;
    const status = String(override?.[statusHeader] ?? row[statusAt] ?? "");
    if (status !== statuses[r]) setStatus(r, status, formats);
    if (serverChanged || writeTracked) plan.updated++;
    if (serverChanged || trackedChanged || (loadedReadOnly.get(id) ?? "") !== (readOnly.get(id) ?? "") || !loadedRead.rowOf.has(id)) {
      plan.records.push({ id, values: fresh.get(id), readOnly: readOnly.get(id), cells });
    }
  });

  // A table loaded empty holds one blank row (an Excel table always has one): the first new record takes it.
  const blank = ids.length === 1 && ids[0] === "" && statuses[0] === "" && trackedList.every((h) => String(trackedOf(h)[0] ?? "") === "");
  let next = blank ? 0 : ids.length;
  for (const [id, row] of incoming) {
    if (seen.has(id)) continue;
    const patch = patchOf(next++, formatsOf(row));
    row.forEach((value, p) => (patch.values[p] = value));
    plan.records.push({ id, values: fresh.get(id), readOnly: readOnly.get(id), cells: hashes.get(id) ?? "" });
    plan.added++;
  }
  plan.rows = next;
  return plan;
}
