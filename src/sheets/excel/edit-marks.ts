/**
 * Edit marks from Excel's change events (issue 46; the port: port/edit-marks.ts). A watched table gets a
 * `Table.onChanged` handler (ExcelApi 1.7), its snapshot another, its sheet an `onRowSorted` handler (ExcelApi 1.10):
 * - a `RangeEdited` inside the body marks those body rows, whoever wrote them: Excel raises the same event, source
 *   "Local", for a person's edit and for the add-in's own writes (the events article). The add-in's writes are
 *   thereby marked too: a marked row is only read again, never taken for an edit, so its own status and outcome
 *   writes cost a re-read of their rows and hide nothing;
 * - anything the marks cannot place makes them incomplete until the next full read (`watch` again): rows
 *   inserted or deleted (a load or refresh growing the table), a sort, a change of the header or Total Row, any
 *   change of the snapshot (Sync and Refresh rewrite it), an event not understood;
 * - handlers live as long as this runtime (they are "destroyed when the add-in refreshes, reloads or closes":
 *   the events article), and so do the marks: a new runtime has none, and Preview reads in full first.
 * The table's place is checked at each use (`check`): a table moved by rows deleted above it raises no event.
 */
import type { XContext, XTable } from "./api";
import type { Run } from "./runs";
import type { EditMarks, MarksWatch } from "../port/edit-marks";

/** The body of a table as the marks place it: its sheet row and size, and the ids of the table, its sheet and its snapshot. */
interface Place {
  tableId: string;
  snapshotId: string | null;
  bodyRow: number;
  bodyRows: number;
}

/** "B3", "A2:C9" (as TableChangedEventArgs.address gives it) as 0-based first and last sheet rows. */
function rowsOf(address: string): { first: number; last: number } | null {
  const m = /^\$?[A-Z]{1,3}\$?(\d+)(?::\$?[A-Z]{1,3}\$?(\d+))?$/i.exec(address.slice(address.lastIndexOf("!") + 1).trim());
  if (!m) return null;
  const a = Number(m[1]) - 1, b = m[2] ? Number(m[2]) - 1 : a;
  return { first: Math.min(a, b), last: Math.max(a, b) };
}

/** Whether this Excel can tell of every change the marks need (onRowSorted is the highest: ExcelApi 1.10). */
function eventsSupported(): boolean {
  return typeof Office !== "undefined" && Office.context?.requirements?.isSetSupported("ExcelApi", "1.10") === true;
}

/** One table's marks: filled by the event handlers, read by Preview. */
class TableMarks implements MarksWatch {
  complete = true;
  readonly rows = new Set<number>();

  constructor(readonly place: Place, private readonly run: Run, private readonly names: { table: string; snapshot: string }) {}

  /** Starts over: no row marked, complete (called before the full read that the marks then follow). */
  reset(place: Place): void {
    Object.assign(this.place, place);
    this.rows.clear();
    this.complete = true;
  }

  /** A change in the table: its body rows marked, or the marks incomplete. */
  tableChanged(event: Pick<Excel.TableChangedEventArgs, "changeType" | "address">): void {
    const rows = event.changeType === "RangeEdited" ? rowsOf(event.address) : null;
    const first = rows ? rows.first - this.place.bodyRow : -1, last = rows ? rows.last - this.place.bodyRow : -1;
    if (!rows || first < 0 || last >= this.place.bodyRows) {
      this.complete = false;
      return;
    }
    for (let row = first; row <= last; row++) this.rows.add(row);
  }

  changedRows(): number[] | null {
    return this.complete ? [...this.rows].sort((a, b) => a - b) : null;
  }

  check(): Promise<{ changedRows: number[]; formulaRows: number[] } | null> {
    return this.run(async (context) => {
      const now = await placeOf(context, this.names, true);
      const rows = this.changedRows();
      const same = now && now.place.tableId === this.place.tableId && now.place.snapshotId === this.place.snapshotId
        && now.place.bodyRow === this.place.bodyRow && now.place.bodyRows === this.place.bodyRows;
      return same && rows ? { changedRows: rows, formulaRows: now.formulaRows } : null;
    });
  }
}

/**
 * Where the table and its snapshot are (one request); with `formulas`, which body rows hold a formula
 * (Range.getSpecialCellsOrNullObject, ExcelApi 1.9: a null object where none does). Null when the table is gone.
 */
async function placeOf(context: XContext, names: { table: string; snapshot: string }, formulas = false): Promise<{ place: Place; table: XTable; snapshot: XTable; formulaRows: number[] } | null> {
  const table = context.workbook.tables.getItemOrNullObject(names.table).load("id");
  const snapshot = context.workbook.tables.getItemOrNullObject(names.snapshot).load("id");
  const body = table.getDataBodyRange().load("rowIndex,rowCount");
  const special = formulas ? body.getSpecialCellsOrNullObject("Formulas") : null;
  special?.load("areaCount");
  // The sheet's id: Office.js names an onRowSorted handler's target by it (its getTargetIdFunc reads `id`).
  table.worksheet.load("id");
  special?.areas.load("items/rowIndex,items/rowCount");
  await context.sync();
  if (table.isNullObject) return null;
  const formulaRows = new Set<number>();
  if (special && !special.isNullObject) for (const area of special.areas.items) for (let r = 0; r < area.rowCount; r++) formulaRows.add(area.rowIndex + r - body.rowIndex);
  return {
    table, snapshot, formulaRows: [...formulaRows].sort((a, b) => a - b),
    place: { tableId: table.id, snapshotId: snapshot.isNullObject ? null : snapshot.id, bodyRow: body.rowIndex, bodyRows: body.rowCount },
  };
}

export class ExcelEditMarks implements EditMarks {
  private readonly tables = new Map<string, TableMarks>();

  constructor(private readonly run: Run) {}

  async watch(tableName: string, snapshotName: string): Promise<MarksWatch | null> {
    if (!eventsSupported()) return null;
    const names = { table: tableName, snapshot: snapshotName };
    try {
      return await this.run(async (context) => {
        const found = await placeOf(context, names);
        if (!found) return null;
        const known = this.tables.get(tableName.toLowerCase());
        // The same table and snapshot as the handlers were added to: they go on marking, from none.
        if (known && known.place.tableId === found.place.tableId && known.place.snapshotId === found.place.snapshotId) {
          known.reset(found.place);
          return known;
        }
        const marks = new TableMarks(found.place, this.run, names);
        found.table.onChanged.add(async (event) => marks.tableChanged(event));
        if (!found.snapshot.isNullObject) found.snapshot.onChanged.add(async () => void (marks.complete = false));
        found.table.worksheet.onRowSorted.add(async () => void (marks.complete = false));
        await context.sync();
        this.tables.set(tableName.toLowerCase(), marks);
        return marks;
      });
    } catch {
      return null; // a registration Excel refused: no marks, every Preview reads in full
    }
  }
}
