/**
 * Excel.Table and Excel.TableCollection on the in-memory Excel.
 * https://learn.microsoft.com/javascript/api/excel/excel.table
 */
import { parseArea, type Area } from "../address";
import { FakeExcelError } from "../errors";
import type { SheetModel, TableModel } from "../model";
import { overlaps } from "./areas";
import { HostObject, readOnly, type HostContext, type Members } from "./host-object";
import { NullHostObject } from "./null-object";
import { checkArea, RangeObject } from "./range";
import { TableSortObject } from "./table-sort";

/** The sheet part of an address ('It''s'!A1 -> It's), or undefined when it has none. */
function sheetOf(address: string): string | undefined {
  if (!address.includes("!")) return undefined;
  const part = address.slice(0, address.lastIndexOf("!"));
  return part.startsWith("'") && part.endsWith("'") ? part.slice(1, -1).replace(/''/g, "'") : part;
}

/** A table name: a letter, _ or \ first, then letters, digits, _ and . (Excel's rules for names), 255 at most. */
const TABLE_NAME = /^[A-Za-z_\\][A-Za-z0-9_.]*$/;
/** Names Excel reserves because they read as cell references (A1, R1C1). */
const LOOKS_LIKE_A_CELL = /^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|[Rr]|[Cc])$/;

function parse(address: unknown): Area {
  try {
    return parseArea(String(address));
  } catch {
    throw new FakeExcelError("InvalidArgument", `The address '${String(address)}' is not valid.`);
  }
}

export class TableObject extends HostObject {
  readonly className = "Table";

  constructor(private readonly host: HostContext, readonly table: TableModel) {
    super();
  }

  override identity(): Record<string, unknown> {
    return { Id: this.table.id };
  }

  private live(): TableModel {
    if (!this.host.model.tables.includes(this.table)) throw new FakeExcelError("ItemNotFound", `The table '${this.table.name}' doesn't exist any more.`);
    return this.table;
  }

  private part(pick: (area: Area, t: TableModel) => Area): RangeObject {
    const t = this.live();
    return new RangeObject(this.host, t.sheet, pick(t.area, t));
  }

  protected members(): Members {
    const { model } = this.host;
    return {
      scalars: {
        Id: readOnly(() => this.live().id),
        Name: {
          get: () => this.live().name,
          set: (name) => {
            const t = this.live();
            if (typeof name !== "string" || !TABLE_NAME.test(name) || LOOKS_LIKE_A_CELL.test(name) || name.length > 255) {
              throw new FakeExcelError("InvalidArgument", `'${String(name)}' is not a valid table name.`);
            }
            const clash = model.table(name);
            if (clash && clash !== t) throw new FakeExcelError("ItemAlreadyExists", `A table named '${name}' already exists.`);
            t.name = name;
          },
        },
        /** https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-showfilterbutton-member */
        ShowFilterButton: { get: () => this.live().showFilterButton, set: (show) => void (this.live().showFilterButton = Boolean(show)) },
        ShowHeaders: readOnly(() => true),
        /**
         * The Total Row: one more row at the bottom of the table, outside its data body
         * (https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-showtotals-member).
         */
        ShowTotals: { get: () => this.live().showTotals, set: (show) => this.showTotals(Boolean(show)) },
        /** "TableStyleLight1" through 21, "TableStyleMedium1" through 28, "TableStyleDark1" through 11 (d.ts, Table.style). */
        Style: {
          get: () => this.live().style,
          set: (style) => {
            const m = /^TableStyle(Light|Medium|Dark)(\d+)$/.exec(String(style));
            const most = { Light: 21, Medium: 28, Dark: 11 };
            if (!m || Number(m[2]) < 1 || Number(m[2]) > most[m[1] as keyof typeof most]) throw new FakeExcelError("InvalidArgument", `'${String(style)}' is not a table style of this workbook.`);
            this.live().style = String(style);
          },
        },
      },
      navigation: { Worksheet: () => this.host.worksheet(this.live().sheet), Sort: () => new TableSortObject(model, () => this.live()) },
      methods: {
        GetRange: () => this.part((a) => a),
        GetHeaderRowRange: () => this.part((a) => ({ ...a, rowCount: 1 })),
        /** Without the header row and without a Total Row (d.ts: Table.getDataBodyRange). */
        GetDataBodyRange: () => this.part((a, t) => ({ ...a, row: a.row + 1, rowCount: a.rowCount - 1 - (t.showTotals ? 1 : 0) })),
        GetTotalRowRange: () => {
          if (!this.live().showTotals) throw new FakeExcelError("InvalidOperation", "The table has no Total Row.");
          return this.part((a) => ({ ...a, row: a.row + a.rowCount - 1, rowCount: 1 }));
        },
        Resize: (address) => (this.resize(String(address)), null),
        /** Table.onChanged.add (ExcelApi 1.7): Office.js asks the host to send this table's change events (change-events.ts). */
        _RegisterDataChangedEvent: () => this.host.events.register("table", this.live().id),
        _UnregisterDataChangedEvent: () => this.host.events.unregister("table", this.live().id),
        Delete: () => {
          model.tables.splice(model.tables.indexOf(this.live()), 1);
          return null;
        },
      },
    };
  }

  private showTotals(show: boolean): void {
    const t = this.live();
    if (t.showTotals === show) return;
    const totalRow = t.area.row + t.area.rowCount - (show ? 0 : 1);
    const columns = Array.from({ length: t.area.columnCount }, (_, c) => t.area.column + c);
    if (show) {
      // What Excel does with cells in the way is not documented: refused here (strict), never overwritten.
      if (columns.some((c) => { const cell = t.sheet.cell(totalRow, c); return cell !== undefined && (cell.value !== "" || cell.formula !== undefined); })) {
        throw new FakeExcelError("InvalidOperation", "The row below the table is not empty: the Total Row has no room.");
      }
      t.sheet.ensure(totalRow, t.area.column).value = "Total";
      t.area = { ...t.area, rowCount: t.area.rowCount + 1 };
    } else {
      // Only the table's own cells of that row go; the rest of the sheet row stays.
      for (const c of columns) t.sheet.cells.get(totalRow)?.delete(c);
      t.area = { ...t.area, rowCount: t.area.rowCount - 1 };
    }
    t.showTotals = show;
  }

  /**
   * Sets the table's area (header and Total Row included); ExcelApi 1.13
   * (https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-resize-member): "The header
   * row must remain in the same row and the resulting table range must overlap the original table range".
   * How Excel resolves an address without a sheet name is not documented: here it names a range of the
   * active sheet, as a workbook-level address does, so it fails for a table on any other sheet (strict).
   */
  private resize(address: string): void {
    const t = this.live();
    const sheetName = sheetOf(address);
    const sheet = sheetName === undefined ? this.host.model.activeSheet : this.host.model.sheet(sheetName);
    if (sheet !== t.sheet) {
      throw new FakeExcelError("InvalidArgument", `The address '${address}' is not on the table's sheet '${t.sheet.name}'; a table can't move to another sheet by resizing.`);
    }
    const area = checkArea(parse(address));
    if (area.row !== t.area.row || !overlaps(area, t.area)) {
      throw new FakeExcelError("InvalidArgument", "The header row must remain in the same row and the resized table must overlap the original one.");
    }
    if (area.rowCount < 2) throw new FakeExcelError("InvalidArgument", "A table needs a header row and at least one data row.");
    if (this.host.model.tables.some((other) => other !== t && other.sheet === t.sheet && overlaps(other.area, area))) {
      throw new FakeExcelError("InvalidOperation", "A table can't overlap another table.");
    }
    const grown = area.rowCount - t.area.rowCount;
    const edge = { row: t.area.row + Math.min(area.rowCount, t.area.rowCount), column: area.column, rowCount: Math.abs(grown), columnCount: area.columnCount };
    t.area = area;
    // Rows the table takes in or gives up are rows inserted into it or deleted from it, as its change events tell.
    if (grown !== 0) this.host.model.noteChange({ sheet: t.sheet, area: edge, changeType: grown > 0 ? "RowInserted" : "RowDeleted" });
  }
}

/** Excel.TableCollection: the workbook's, or one sheet's (`sheet`). Tables by name (any case) or id. */
export class TableCollectionObject extends HostObject {
  readonly className = "TableCollection";
  override readonly itemClass = "Table";

  constructor(private readonly host: HostContext, private readonly sheet?: SheetModel) {
    super();
  }

  private find(key: unknown): TableModel | undefined {
    const text = String(key);
    const t = this.host.model.tables.find((table) => table.id === text) ?? this.host.model.table(text);
    return t && (this.sheet === undefined || t.sheet === this.sheet) ? t : undefined;
  }

  override items(): HostObject[] {
    return this.host.model.tables.filter((t) => this.sheet === undefined || t.sheet === this.sheet).map((t) => this.host.table(t));
  }

  override item(key: unknown): HostObject {
    const t = this.find(key);
    if (!t) throw new FakeExcelError("ItemNotFound", `The table '${String(key)}' doesn't exist.`);
    return this.host.table(t);
  }

  protected members(): Members {
    return {
      scalars: { Count: readOnly(() => this.items().length) },
      methods: {
        GetItem: (key) => this.item(key),
        GetItemOrNullObject: (key) => {
          const t = this.find(key);
          return t ? this.host.table(t) : new NullHostObject("Table", `The table '${String(key)}'`);
        },
        Add: (address, hasHeaders) => this.host.table(this.add(String(address), hasHeaders)),
      },
    };
  }

  /** Creates a table over `address` (on this sheet, or the sheet named in the address). */
  private add(address: string, hasHeaders: unknown): TableModel {
    const { model } = this.host;
    const sheetName = sheetOf(address);
    const sheet = sheetName !== undefined ? model.sheet(sheetName) : this.sheet ?? model.activeSheet;
    if (!sheet || (this.sheet && sheet !== this.sheet)) throw new FakeExcelError("InvalidArgument", `No sheet of this collection for the table address '${address}'.`);
    const area = checkArea(parse(address));
    if (hasHeaders !== true) throw new FakeExcelError("InvalidArgument", "The in-memory Excel makes tables with headers only.");
    // "If the table cannot be added (e.g., because ... the table would overlap with another table), an error will be thrown"
    // (d.ts, TableCollection.add); the error table names the overlap MergedRangeConflict.
    if (model.tables.some((other) => other.sheet === sheet && overlaps(other.area, area))) {
      throw new FakeExcelError("MergedRangeConflict", "Cannot complete the operation. A table can't overlap with another table, a PivotTable report, query results, merged cells, or an XML Map.");
    }
    // Excel gives a header-only table one empty data row.
    if (area.rowCount === 1) area.rowCount = 2;
    for (let c = 0; c < area.columnCount; c++) {
      const cell = sheet.ensure(area.row, area.column + c);
      if (cell.value === "") cell.value = `Column${c + 1}`;
    }
    let n = model.tables.length + 1;
    while (model.table(`Table${n}`)) n++;
    const created: TableModel = { id: model.newId("table"), name: `Table${n}`, sheet, area, showFilterButton: true, showTotals: false, style: "TableStyleMedium2" };
    model.tables.push(created);
    return created;
  }
}
