/**
 * Refresh by rewriting the whole table: the table is read whole (values and formulas), merged with the
 * records by id (mergeRows) and written back whole, the user's columns too (their formulas as formulas), and
 * the snapshot written again. Refresh does this only where it cannot write just what changed: the table's
 * columns differ from its layout (Spend Sync added or renamed one), or its snapshot predates the
 * fingerprints (loaded by an earlier version); after it, the next Refresh writes only what changed. Written
 * whole, a user's cell holding an error or a linked data type would come back as its text: the report names
 * the reason, and the taskpane says so.
 */
import { MAX_LIST_RECORDS } from "../../api";
import { NUMBER_FORMATS, widthOf } from "../columns";
import type { Collected } from "./collect";
import { findEdits } from "../edits/edits";
import { REMOVED_NOTE_PREFIX, stampOf, type Load, type LoadReport } from "../load/context";
import { keepParams, type StoredTable } from "../stored-tables";
import { AmountAudit, rowFormatter } from "../money-formats";
import { EDITED_FILL } from "../port/marks";
import { mergeRows } from "./merge";
import { writeSnapshot, type SnapshotRead, type SnapshotRecord } from "../edits/snapshot";
import { firstRowOfEachId, readOnlyNotesFirst, threeWay } from "./three-way";
import type { CellValue } from "../port/workbook";
import { tableGone, WorkbookError } from "../port/workbook-errors";

/** A layout's row formatter over rows that also hold the user's columns (left as they are: null). */
function withUserColumns(formatter: ((row: CellValue[]) => readonly (string | null)[]) | undefined, userColumns: number) {
  if (!formatter) return undefined;
  // The formatter shares a row of formats between rows; so does this, one extended row for each.
  const extended = new WeakMap<readonly (string | null)[], readonly (string | null)[]>();
  return (row: CellValue[]) => {
    const formats = formatter(row);
    let longer = extended.get(formats);
    if (!longer) {
      longer = Object.freeze([...formats, ...Array.from({ length: userColumns }, () => null)]);
      extended.set(formats, longer);
    }
    return longer;
  };
}

export async function refreshWhole(
  load: Load, collected: Collected, loadedRead: SnapshotRead, stored: StoredTable | null, why: string,
): Promise<LoadReport> {
  const { workbook, options, source, layout, tableName, trackedHeaders, statusHeader } = load;
  const { incoming, fresh, readOnly, hashes } = collected;
  const { snapshot: loaded, readOnly: loadedReadOnly } = loadedRead;
  const current = await workbook.readTable(tableName);
  // Deleted while the pages travelled: the person's choice stands (as in a refresh of what changed), nothing is written.
  if (!current) throw tableGone(tableName);
  const stamp = stampOf(load.now);
  const edits = load.tracked ? findEdits(current, trackedHeaders, loaded) : [];
  const decisions = threeWay(edits, current, trackedHeaders, loaded, fresh, statusHeader, stamp, Boolean(options.discardEdits));
  readOnlyNotesFirst(decisions, readOnly, statusHeader);
  const merged = mergeRows({
    layout,
    statusHeader,
    previousLayout: stored?.columns ?? [],
    existing: current,
    incoming,
    removedNote: `${REMOVED_NOTE_PREFIX} for this table's query (refresh ${stamp})`,
    overrides: decisions.overrides,
  });
  const ids = [...incoming.keys()];
  incoming.clear();
  // Rows the query no longer returns stay, marked: with them the table may outgrow the sheet.
  if (merged.rows.length > MAX_LIST_RECORDS) {
    throw new WorkbookError(
      "too-many-rows",
      `Refreshed, ${tableName} would have ${merged.rows.length.toLocaleString("en-US")} rows (${merged.removed.length.toLocaleString("en-US")} of them ` +
        `no longer returned by the service), more than a sheet holds (${MAX_LIST_RECORDS.toLocaleString("en-US")}). Nothing was changed: ` +
        "delete the rows marked as not returned, or load a narrower selection.",
    );
  }
  // The user's own columns keep their number formats (null leaves a cell's format alone) and formulas.
  const formats = [...source.columns.map((c) => NUMBER_FORMATS[c.kind]), ...merged.userColumns.map(() => null)];
  const sheetName = current.sheetName;
  await workbook.writeTable({
    sheetName,
    tableName,
    header: merged.header,
    rows: merged.rows,
    numberFormats: formats,
    formatsOf: withUserColumns(rowFormatter(source.columns), merged.userColumns.length),
    formulas: merged.formulas,
    editable: [...source.columns.map((c) => Boolean(c.editable)), ...merged.userColumns.map(() => false)],
    dropdowns: [...source.columns.map((c) => c.dropdown ?? null), ...merged.userColumns.map(() => null)],
    widths: source.columns.map(widthOf),
    onProgress: (done, total) => options.onProgress?.({ phase: "write", done, total }),
  });
  // A kept edit keeps its mark (the whole rewrite put the editable fill back on every cell).
  // An id on several rows: the first holds the record and its kept edit (the others are marked as duplicates).
  const rowOf = firstRowOfEachId(merged.rows, 0);
  const marks = [...decisions.marks].flatMap(([id, headers]) => headers.map((header) => {
    const row = rowOf.get(id)!;
    const column = merged.header.indexOf(header);
    // A kept edit a formula makes keeps its formula: the fill alone goes on it.
    return merged.formulas[row]?.[column] ? { row, column, fill: EDITED_FILL } : { row, column, value: merged.rows[row][column], fill: EDITED_FILL };
  }));
  if (marks.length > 0) await workbook.writeCells(tableName, marks);
  const records: SnapshotRecord[] = ids.map((id) => ({ id, values: fresh.get(id), readOnly: readOnly.get(id), cells: hashes.get(id)! }));
  // A record the query no longer returns keeps its loaded values, so that an edit on its row is still seen.
  for (const id of new Set(merged.removed)) {
    if (fresh.has(id)) continue;
    records.push({ id, values: loaded.get(id), readOnly: loadedReadOnly.get(id), cells: "" });
  }
  await writeSnapshot(workbook, tableName, records);
  await keepParams(load);
  // Every row written counts, those the query no longer returns too: they are in the table with their amounts.
  const audit = new AmountAudit(source.columns);
  for (const row of merged.rows) audit.check(row);
  return {
    tableName, sheetName, count: collected.count, added: merged.added, updated: merged.updated,
    removed: merged.removed.length, userColumns: merged.userColumns, keptEdits: decisions.kept, conflicts: decisions.conflicts, discardedEdits: decisions.discarded,
    amounts: audit.notes(), malformed: collected.malformed, typed: { kept: [], replaced: 0 }, refreshed: { whole: true, why },
  };
}
