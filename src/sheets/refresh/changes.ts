/**
 * Refresh in proportion to what changed. It reads only what it needs to decide, while the pages travel: the
 * snapshot (tracked values and digests) and the table's id, tracked and status columns. It writes only the
 * records that changed (refresh/plan.ts decides which cells): never the user's own columns, nor the tracked
 * cells of an unsynced edit. The snapshot changes only in the rows of the records that changed.
 *
 * Before a changed record's row is written, its cells are read back: a service cell that is neither what was
 * loaded (its fingerprint in the snapshot) nor what the service has now was typed over, and is replaced only
 * if the user says so (options.onTyped); otherwise it stays, and is reported.
 */
import { MAX_LIST_RECORDS } from "../../api";
import { TRACKED_KEYS } from "../resources/tracking";
import { type Load, type LoadReport, type TypedCell } from "../load/context";
import { keepParams } from "../stored-tables";
import { EDITED_FILL } from "../port/marks";
import { AmountAudit } from "../money-formats";
import type { Collected } from "./collect";
import { planRefresh, type RefreshPlan, type SheetCells } from "./plan";
import { cellHash, hashAt, HASH_CHARS } from "../edits/row-hashes";
import { patchSnapshot, readSnapshotCells, type SnapshotRead } from "../edits/snapshot";
import type { CellValue, ColumnsRead } from "../port/workbook";
import { tableGone, WorkbookError } from "../port/workbook-errors";

/** How often the rows to write may be found moved (a sort while the pages travelled) before Refresh gives up. */
const MOVES_TOLERATED = 2;

/** The headers Refresh reads of every row: the id, the tracked cells, the status. */
export const decidingHeaders = (load: Load): string[] =>
  [load.layout[0], ...(load.tracked ? TRACKED_KEYS.map((key) => load.trackedHeaders[key]) : []), load.statusHeader];

function sheetCellsOf(load: Load, read: ColumnsRead): SheetCells {
  const column = (h: string) => read.columns.get(h) ?? [];
  const trackedHeaders = decidingHeaders(load).slice(1, -1);
  return {
    sheetName: read.sheetName,
    header: read.header,
    ids: column(load.layout[0]).map((v) => String(v ?? "").trim()),
    tracked: new Map(trackedHeaders.map((h) => [h, column(h)])),
    statuses: column(load.statusHeader).map((v) => String(v ?? "")),
  };
}

/**
 * Refreshes writing only what changed; returns why the table must be rewritten whole instead, before anything
 * is written. `firstRead` is the table's deciding columns, read while the pages travelled: the rows about to
 * be written are read again (all their layout cells) before anything is written, so that what a person typed
 * or sorted meanwhile is seen: a row whose cells moved makes Refresh read the columns again and decide again.
 */
export async function refreshChanges(load: Load, collected: Collected, loadedRead: SnapshotRead, firstRead: Promise<ColumnsRead | null>): Promise<LoadReport | string> {
  const { workbook, options, source, layout, tableName } = load;
  let read = await firstRead;
  let sheet: SheetCells | null = null;
  let plan: RefreshPlan | null = null;
  /** Rows read again, with their layout cells as they are now. */
  const now = new Map<number, CellValue[]>();
  const stored = new Map<string, string>();
  for (let moves = 0; ; ) {
    if (!read) throw tableGone(tableName);
    if (!sheet) {
      const columns = read.header;
      const missing = layout.filter((h) => columns.indexOf(h) < 0 || columns.indexOf(h) !== columns.lastIndexOf(h));
      if (missing.length > 0) return `its column${missing.length > 1 ? "s" : ""} ${missing.map((h) => `"${h}"`).join(", ")} ${missing.length > 1 ? "are" : "is"} missing or twice in the table`;
      sheet = sheetCellsOf(load, read);
      now.clear();
    }
    plan = planRefresh(load, collected, loadedRead, sheet);
    if (plan.rows > MAX_LIST_RECORDS) {
      throw new WorkbookError(
        "too-many-rows",
        `Refreshed, ${tableName} would have ${plan.rows.toLocaleString("en-US")} rows (${plan.removed.length.toLocaleString("en-US")} of them no longer ` +
          `returned by the service), more than a sheet holds (${MAX_LIST_RECORDS.toLocaleString("en-US")}). Nothing was changed: ` +
          "delete the rows marked as not returned, or load a narrower selection.",
      );
    }
    const toCheck = [...plan.patches.keys()].filter((row) => row < sheet!.ids.length && !now.has(row)).sort((a, b) => a - b);
    if (toCheck.length === 0) break;
    const changedIds = new Set(plan.changed.map((c) => c.id));
    const snapshotRows = toCheck.map((row) => sheet!.ids[row]).filter((id) => changedIds.has(id) && !stored.has(id) && loadedRead.rowOf.has(id));
    const [cells, fingerprints] = await Promise.all([
      workbook.readRows(tableName, toCheck, layout),
      readSnapshotCells(workbook, tableName, snapshotRows.map((id) => loadedRead.rowOf.get(id)!)),
    ]);
    if (!cells) throw tableGone(tableName);
    snapshotRows.forEach((id, k) => stored.set(id, fingerprints[k]));
    const again = compareRows(load, sheet, toCheck, cells, now);
    if (again === "moved") {
      if (++moves > MOVES_TOLERATED) throw new WorkbookError("table-changed", `The rows of ${tableName} kept moving while it was refreshed (sorted or filled?); nothing was written. Refresh again.`);
      read = await workbook.readColumns(tableName, decidingHeaders(load));
      sheet = null;
    }
    if (again === "same") break;
  }

  // A record that became one to write only when deciding again has its fingerprints read now.
  const late = plan.changed.filter(({ id }) => !stored.has(id) && loadedRead.rowOf.has(id)).map(({ id }) => id);
  if (late.length > 0) (await readSnapshotCells(workbook, tableName, late.map((id) => loadedRead.rowOf.get(id)!))).forEach((cells, k) => stored.set(late[k], cells));
  const typed = typedOver(load, collected, plan.changed, now, stored);
  const keep = typed.length > 0 && (options.onTyped ? await options.onTyped(typed) : "keep") === "keep";
  // A kept typed value is left as it is and marked as the user's (Preview names it from then on); a replaced
  // one loses the mark Preview or an earlier refresh gave it.
  for (const cell of typed) {
    const patch = plan.patches.get(cell.row)!;
    if (keep) patch.values[layout.indexOf(cell.header)] = undefined;
    patch.fills[layout.indexOf(cell.header)] = keep ? EDITED_FILL : null;
  }

  await workbook.updateTable(tableName, {
    header: layout,
    rows: [...plan.patches.values()],
    editable: source.columns.map((c) => Boolean(c.editable)),
    dropdowns: source.columns.map((c) => c.dropdown ?? null),
    onProgress: (done, total) => options.onProgress?.({ phase: "write", done, total }),
  });
  // The table first: a snapshot ahead of its table would make the old values look like edits to Sync states.
  await Promise.all([patchSnapshot(workbook, tableName, loadedRead, plan.records), keepParams(load)]);
  const audit = new AmountAudit(source.columns);
  for (const row of collected.incoming.values()) audit.check(row);
  const { decisions } = plan;
  return {
    tableName, sheetName: sheet!.sheetName, count: collected.count, added: plan.added, updated: plan.updated, removed: plan.removed.length,
    userColumns: sheet!.header.filter((h) => h !== "" && !layout.includes(h)),
    keptEdits: decisions.kept, conflicts: decisions.conflicts, discardedEdits: decisions.discarded, amounts: audit.notes(), malformed: collected.malformed,
    typed: { kept: keep ? typed : [], replaced: keep ? 0 : typed.length }, refreshed: { whole: false },
  };
}

/**
 * The rows read again against what was decided on: "moved" when a row holds another id now, "changed" when
 * its tracked or status cells differ (they are taken into `sheet`, to decide again), "same" otherwise.
 */
function compareRows(load: Load, sheet: SheetCells, rows: number[], cells: CellValue[][], now: Map<number, CellValue[]>): "moved" | "changed" | "same" {
  const at = new Map(load.layout.map((h, i) => [h, i]));
  let result: "changed" | "same" = "same";
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    const line = cells[k];
    if (String(line[0] ?? "").trim() !== sheet.ids[row]) return "moved";
    now.set(row, line);
    for (const [header, column] of sheet.tracked) {
      const value = line[at.get(header)!] ?? "";
      if (value !== column[row]) {
        column[row] = value;
        result = "changed";
      }
    }
    const status = String(line[at.get(load.statusHeader)!] ?? "");
    if (status !== sheet.statuses[row]) {
      sheet.statuses[row] = status;
      result = "changed";
    }
  }
  return result;
}

/**
 * The service's cells of changed records that someone typed over: a cell read back is typed over when it is
 * neither what was loaded (its fingerprint in the snapshot) nor what the service has now. A record the
 * snapshot does not know, or knows with another layout's fingerprints, has nothing to compare with: none.
 */
function typedOver(load: Load, collected: Collected, changed: { row: number; id: string }[], now: Map<number, CellValue[]>, stored: Map<string, string>): TypedCell[] {
  const typed: TypedCell[] = [];
  for (const { row, id } of changed) {
    const was = stored.get(id);
    const line = now.get(row);
    if (!line || was === undefined || was.length !== load.hashed.length * HASH_CHARS) continue;
    const service = collected.incoming.get(id)!;
    const fresh = collected.hashes.get(id)!;
    load.hashed.forEach((p, j) => {
      const hash = cellHash(line[p] ?? "");
      if (hash !== hashAt(was, j) && hash !== hashAt(fresh, j)) typed.push({ id, row, header: load.layout[p], typed: line[p] ?? "", service: service[p] });
    });
  }
  return typed;
}
