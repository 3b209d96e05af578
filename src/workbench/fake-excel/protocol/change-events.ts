/**
 * The change events the in-memory Excel raises, as Excel raises them to an add-in: `Table.onChanged` (ExcelApi 1.7)
 * for the data of a table's cells, `Worksheet.onRowSorted` (ExcelApi 1.10) for a sort. The add-in registers
 * through Microsoft's client (`table.onChanged.add`), which asks the host with `_RegisterDataChangedEvent`; the host
 * then sends each event back as Excel does, a RichApi event message (category 65536, the event's type, the
 * target's id, its arguments as JSON), through Microsoft's own host bridge (office-js/event-bridge.ts), where the
 * client's code parses it and calls the handlers (`TableChangedEventArgs` is built by the client, not here).
 *
 * Excel's rules that live here (docs/excel-checks.md, "Change events"):
 * - Events are raised for a person's edits and for an add-in's own writes alike, `source` "Local" for both
 *   ("Office Add-in (JavaScript) code that changes the workbook" triggers events: the events article); an add-in
 *   cannot tell its own writes from a person's by the event.
 * - `details` (valueBefore/valueAfter and their types) is there only where the Excel has ExcelApi 1.9, and only
 *   for a change of a single cell ("If the changed event is triggered on multiple cells, this property cannot be
 *   retrieved", d.ts TableChangedEventArgs.details).
 * - A sort raises no Table.onChanged (Microsoft documents sorts only as onRowSorted/onColumnSorted: strict).
 * - A recalculated formula's new value raises no change event (only onCalculated does, which this Excel does not raise).
 * - A host that cannot deliver events (no bridge: a workbook in another thread) refuses the registration, so that an
 *   add-in never believes it is told of every change while it is told of none.
 */
import { formatArea, type Area } from "../address";
import { FakeExcelError } from "../errors";
import type { DataChange, TableModel, WorkbookModel } from "../model";
import { currentProfile, isSetSupported } from "../profiles";
import { valueTypeOf } from "../typing";

/** One entry of a RichApi event message as the host bridge sends it: [category, event type, target id, JSON arguments, id]. */
export type EventEntry = [number, number, string, string, number];

/** The category Office.js reads as an event (OfficeExtension's Constants.eventMessageCategory). */
const EVENT_CATEGORY = 65536;
/** The event types of Office.js's generated classes (Table.onChanged's `eventType: 101`, Worksheet.onRowSorted's `19`). */
const TABLE_CHANGED = 101;
const WORKSHEET_ROW_SORTED = 19;

function intersection(a: Area, b: Area): Area | null {
  const row = Math.max(a.row, b.row), column = Math.max(a.column, b.column);
  const rowEnd = Math.min(a.row + a.rowCount, b.row + b.rowCount), columnEnd = Math.min(a.column + a.columnCount, b.column + b.columnCount);
  return rowEnd > row && columnEnd > column ? { row, column, rowCount: rowEnd - row, columnCount: columnEnd - column } : null;
}

export class ChangeEvents {
  /** Where the messages go (the host bridge); none: registrations are refused. */
  sink: ((entries: EventEntry[]) => void) | null = null;
  private readonly tables = new Set<string>();
  private readonly sorted = new Set<string>();
  private nextEntry = 1;

  constructor(private readonly model: WorkbookModel) {
    model.changeListeners.push((change) => this.raise(change));
  }

  /** `_RegisterDataChangedEvent` / `_RegisterRowSortedEvent`: from now on, the target's events are sent. */
  register(kind: "table" | "sort", targetId: string): null {
    // Office.js checks the set before it asks (Table.onChanged: ExcelApi 1.7, Worksheet.onRowSorted: 1.10); so does Excel.
    const set = kind === "table" ? "1.7" : "1.10";
    if (!isSetSupported(currentProfile(), "ExcelApi", set)) throw new FakeExcelError("ApiNotFound", `The API you are trying to use could not be found (ExcelApi ${set}).`);
    if (!this.sink) throw new FakeExcelError("GeneralException", "This Excel cannot deliver events to the add-in (no host bridge): the registration is refused.");
    (kind === "table" ? this.tables : this.sorted).add(targetId);
    return null;
  }

  unregister(kind: "table" | "sort", targetId: string): null {
    (kind === "table" ? this.tables : this.sorted).delete(targetId);
    return null;
  }

  private raise(change: DataChange): void {
    if (!this.sink) return;
    const entries: EventEntry[] = [];
    if (change.changeType === "RowSorted") {
      if (this.sorted.has(change.sheet.id)) {
        const args = { address: formatArea(change.area), source: "Local", worksheetId: change.sheet.id };
        entries.push([EVENT_CATEGORY, WORKSHEET_ROW_SORTED, change.sheet.id, JSON.stringify(args), this.nextEntry++]);
      }
    } else {
      for (const table of this.model.tables) {
        if (table.sheet !== change.sheet || !this.tables.has(table.id)) continue;
        const args = this.tableArgs(table, change);
        if (args) entries.push([EVENT_CATEGORY, TABLE_CHANGED, table.id, JSON.stringify(args), this.nextEntry++]);
      }
    }
    if (entries.length > 0) this.sink(entries);
  }

  /** What Excel tells of a change in this table (null: the change is not in it). */
  private tableArgs(table: TableModel, change: DataChange): Record<string, unknown> | null {
    // A deleted row is gone from the table's area already: it touched the table when it was inside it or just below its last row.
    const area = change.changeType === "RowDeleted" ? { ...table.area, rowCount: table.area.rowCount + 1 } : table.area;
    const changed = intersection(area, change.area);
    if (!changed) return null;
    const args: Record<string, unknown> = {
      address: formatArea(changed), changeType: change.changeType, source: "Local", worksheetId: table.sheet.id, tableId: table.id,
    };
    const single = changed.rowCount === 1 && changed.columnCount === 1 && change.changeType === "RangeEdited";
    if (single && change.before && isSetSupported(currentProfile(), "ExcelApi", "1.9")) {
      const after = table.sheet.cell(changed.row, changed.column);
      Object.assign(args, { valueBefore: change.before.value, valueAfter: after?.value ?? "", valueTypeBefore: valueTypeOf(change.before), valueTypeAfter: valueTypeOf(after) });
    }
    return args;
  }
}
