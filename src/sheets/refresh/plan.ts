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
import { NUMBER_FORMATS } from "../columns";
import { findEdits } from "../edits/edits";
import { TRACKED_KEYS } from "../resources/tracking";
import { REMOVED_NOTE_PREFIX, stampOf, type Load } from "../load/context";
import { EDITABLE_FILL, EDITED_FILL } from "../port/marks";
import { rowFormatter } from "../money-formats";
import type { Collected } from "./collect";
import { digestOf } from "../edits/row-hashes";
import type { SnapshotRead, SnapshotRecord } from "../edits/snapshot";
import { readOnlyNotesFirst, threeWay, type ThreeWay } from "./three-way";
import { sameTracked } from "../edits/tracked-values";
import type { CellValue, RowPatch } from "../port/workbook";

/** @internal refresh and duplicate-record tests expect the row's exact status. */
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

/**
 * A row to write: its values and fills by layout place (undefined: left as it is; a fill may go without a value).
 * @internal refresh-writes-only-what-changed.test.ts types its expected patches.
 */
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

/** Plans a Refresh of only what changed: every existing row in body order, then the new records below. */
export function planRefresh(load: Load, collected: Collected, loadedRead: SnapshotRead, sheet: SheetCells): RefreshPlan {
  const planner = new Planner(load, collected, loadedRead, sheet);
  sheet.ids.forEach((id, r) => planner.existingRow(id, r));
  planner.newRecords();
  return planner.plan;
}

/** One refresh's plan as it is made: the decisions read from the table and snapshot, and the patches so far. */
class Planner {
  readonly plan: RefreshPlan;
  private readonly trackedList: string[];
  /** Ids whose tracked cells the user edited. */
  private readonly edited: Set<string>;
  private readonly statusAt: number;
  private readonly trackedPlaces: number[];
  private readonly plainFormats: (string | null)[];
  private readonly formatsOf: (row: CellValue[]) => readonly (string | null)[];
  private readonly removedNote: string;
  /** The snapshot's fingerprint of each record's service cells, by id. */
  private readonly digests: Map<string, string>;
  /** Ids on more than one row. */
  private readonly twice = new Set<string>();
  /** Ids whose first row is planned (it takes the record). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly load: Load, private readonly collected: Collected,
    private readonly loadedRead: SnapshotRead, private readonly sheet: SheetCells,
  ) {
    const { layout, source, trackedHeaders, statusHeader, options } = load;
    const { fresh, readOnly } = collected;
    const { ids } = sheet;
    this.digests = loadedRead.digests ?? new Map<string, string>();
    this.trackedList = load.tracked ? TRACKED_KEYS.map((key) => trackedHeaders[key]) : [];
    const view = { header: [layout[0], ...this.trackedList], rows: ids.map((id, r) => [id, ...this.trackedList.map((h) => this.trackedOf(h)[r])]) };
    const stamp = stampOf(load.now);
    const edits = load.tracked ? findEdits(view, trackedHeaders, loadedRead.snapshot) : [];
    const decisions = threeWay(edits, view, trackedHeaders, loadedRead.snapshot, fresh, statusHeader, stamp, Boolean(options.discardEdits));
    readOnlyNotesFirst(decisions, readOnly, statusHeader);
    this.edited = new Set(edits.map((e) => e.id));

    this.statusAt = layout.indexOf(statusHeader);
    this.trackedPlaces = this.trackedList.map((h) => layout.indexOf(h));
    const formatter = rowFormatter(source.columns);
    const plainFormats = source.columns.map((c) => NUMBER_FORMATS[c.kind]);
    this.plainFormats = plainFormats;
    this.formatsOf = (row: CellValue[]) => formatter?.(row) ?? plainFormats;
    this.removedNote = `${REMOVED_NOTE_PREFIX} for this table's query (refresh ${stamp})`;

    const once = new Set<string>();
    for (const id of ids) if (id) (once.has(id) ? this.twice : once).add(id);
    this.plan = { patches: new Map<number, Patch>(), changed: [], records: [], removed: [], added: 0, updated: 0, rows: ids.length, decisions };
  }

  private trackedOf(header: string): CellValue[] {
    return this.sheet.tracked.get(header) ?? [];
  }

  private patchOf(row: number, formats: readonly (string | null)[]): Patch {
    const { patches } = this.plan;
    const { layout } = this.load;
    let patch = patches.get(row);
    if (!patch) patches.set(row, (patch = { row, values: layout.map(() => undefined), fills: layout.map(() => undefined), formats }));
    return patch;
  }

  private setStatus(row: number, text: string, formats: readonly (string | null)[] = this.plainFormats): void {
    const patch = this.patchOf(row, formats);
    patch.values[this.statusAt] = text;
    if (this.sheet.statuses[row] !== "") patch.fills[this.statusAt] = null; // a sync's or a preview's colour goes with its text
  }

  /** Body row `r`, holding `id`: a duplicate marked, a removed record noted, else the cells and status that changed. */
  existingRow(id: string, r: number): void {
    if (!id) return;
    const { statuses } = this.sheet;
    const row = this.collected.incoming.get(id);
    if (this.seen.has(id)) {
      if (statuses[r] !== DUPLICATE_NOTE) this.setStatus(r, DUPLICATE_NOTE);
      return;
    }
    if (!row) {
      this.plan.removed.push(id);
      if (!statuses[r].startsWith(REMOVED_NOTE_PREFIX)) this.setStatus(r, this.removedNote);
      return;
    }
    this.seen.add(id);
    this.refreshRow(id, r, row);
  }

  /** The first row of a record the service still sends: its changed cells, marks and status, and its snapshot row. */
  private refreshRow(id: string, r: number, row: CellValue[]): void {
    const { load, plan, edited, twice } = this;
    const { hashes, fresh, readOnly } = this.collected;
    const { statusHeader } = load;
    const { decisions } = plan;
    const cells = hashes.get(id) ?? "";
    const serverChanged = twice.has(id) || this.digests.get(id) !== digestOf(cells);
    const before = this.loadedRead.snapshot.get(id);
    const trackedChanged = load.tracked && (!before || !sameTracked(before, fresh.get(id)!));
    const override = decisions.overrides.get(id);
    const writeTracked = !override && (edited.has(id) || trackedChanged);
    const formats = this.formatsOf(row);
    if (serverChanged) {
      const patch = this.patchOf(r, formats);
      for (const p of load.hashed) patch.values[p] = row[p];
      // A row of an id found twice holds another record's cells, maybe: nothing there was typed over this record's.
      if (!twice.has(id)) plan.changed.push({ row: r, id });
    }
    // A kept edit over a record someone else changed holds only the person's edited cells: the others take the server's (three-way.ts).
    const serverCells = override ? this.trackedPlaces.filter((p) => !(load.layout[p] in override)) : writeTracked ? this.trackedPlaces : [];
    if (serverCells.length > 0) {
      const patch = this.patchOf(r, formats);
      for (const p of serverCells) {
        patch.values[p] = row[p];
        if (edited.has(id)) patch.fills[p] = EDITABLE_FILL; // Preview's mark of an edit goes with the edit
      }
    }
    // A kept edit keeps its mark (the cells the user changed, as Preview marks them), whatever marked them before.
    for (const header of decisions.marks.get(id) ?? []) this.patchOf(r, formats).fills[load.layout.indexOf(header)] = EDITED_FILL;
    const status = String(override?.[statusHeader] ?? row[this.statusAt] ?? "");
    if (status !== this.sheet.statuses[r]) this.setStatus(r, status, formats);
    if (serverChanged || writeTracked) plan.updated++;
    if (serverChanged || trackedChanged || (this.loadedRead.readOnly.get(id) ?? "") !== (readOnly.get(id) ?? "") || !this.loadedRead.rowOf.has(id)) {
      plan.records.push({ id, values: fresh.get(id), readOnly: readOnly.get(id), cells });
    }
  }

  /** The records no row holds, below the last row (or into the one blank row of a table loaded empty). */
  newRecords(): void {
    const { ids, statuses } = this.sheet;
    const { incoming, hashes, fresh, readOnly } = this.collected;
    // A table loaded empty holds one blank row (an Excel table always has one): the first new record takes it.
    const blank = ids.length === 1 && ids[0] === "" && statuses[0] === "" && this.trackedList.every((h) => String(this.trackedOf(h)[0] ?? "") === "");
    let next = blank ? 0 : ids.length;
    for (const [id, row] of incoming) {
      if (this.seen.has(id)) continue;
      const patch = this.patchOf(next++, this.formatsOf(row));
      row.forEach((value, p) => (patch.values[p] = value));
      this.plan.records.push({ id, values: fresh.get(id), readOnly: readOnly.get(id), cells: hashes.get(id) ?? "" });
      this.plan.added++;
    }
    this.plan.rows = next;
  }
}
