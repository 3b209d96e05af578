/** Excel.Table and Excel.TableCollection. */
import { parseArea, type Area } from "./address";
import { ClientObject, type Context } from "./client-object";
import { FakeExcelError } from "./errors";
import type { SheetModel, TableModel, WorkbookModel } from "./model";
import { Range } from "./range";
import { Worksheet } from "./worksheet";

/** The sheet part of an address ('It''s'!A1 -> It's), or undefined when it has none. */
function sheetOf(address: string): string | undefined {
  if (!address.includes("!")) return undefined;
  const part = address.slice(0, address.lastIndexOf("!"));
  return part.startsWith("'") && part.endsWith("'") ? part.slice(1, -1).replace(/''/g, "'") : part;
}

const TABLE_NAME = /^[A-Za-z_\\][A-Za-z0-9_.]*$/;

export class Table extends ClientObject {
  protected readonly scalarProperties = ["id", "name", "showFilterButton", "showTotals", "style"];

  constructor(ctx: Context, private readonly model: WorkbookModel, readonly resolve: () => TableModel) {
    super(ctx);
  }

  get id(): string { return this.read("id"); }
  get name(): string { return this.read("name"); }
  get showFilterButton(): boolean { return this.read("showFilterButton"); }
  get showTotals(): boolean { return this.read("showTotals"); }
  get style(): string { return this.read("style"); }

  set name(name: string) {
    this.ctx.enqueue({ name }, () => {
      const table = this.resolve();
      if (!TABLE_NAME.test(name) || name.length > 255) throw new FakeExcelError("InvalidArgument", `'${name}' is not a valid table name.`);
      const clash = this.model.table(name);
      if (clash && clash !== table) throw new FakeExcelError("ItemAlreadyExists", `A table named '${name}' already exists.`);
      table.name = name;
    });
  }

  /** https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-showfilterbutton-member */
  set showFilterButton(show: boolean) {
    this.ctx.enqueue({ showFilterButton: show }, () => (this.resolve().showFilterButton = show));
  }

  /**
   * The Total Row: one more row at the bottom of the table, outside its data body
   * (https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-showtotals-member).
   */
  set showTotals(show: boolean) {
    this.ctx.enqueue({ showTotals: show }, () => {
      const t = this.resolve();
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
    });
  }

  set style(style: string) {
    this.ctx.enqueue({ style }, () => (this.resolve().style = style));
  }

  protected snapshot(property: string): unknown {
    const t = this.resolve();
    return ({ id: t.id, name: t.name, showFilterButton: t.showFilterButton, showTotals: t.showTotals, style: t.style } as Record<string, unknown>)[property];
  }

  private part(pick: (area: Area) => Area): Range {
    return new Range(this.ctx, () => {
      const t = this.resolve();
      return { sheet: t.sheet, area: pick(t.area) };
    });
  }

  getRange(): Range {
    return this.part((a) => a);
  }

  getHeaderRowRange(): Range {
    return this.part((a) => ({ ...a, rowCount: 1 }));
  }

  /** Without the header row and without a Total Row (d.ts: Table.getDataBodyRange). */
  getDataBodyRange(): Range {
    return this.part((a) => ({ ...a, row: a.row + 1, rowCount: a.rowCount - 1 - (this.resolve().showTotals ? 1 : 0) }));
  }

  getTotalRowRange(): Range {
    return this.part((a) => {
      if (!this.resolve().showTotals) throw new FakeExcelError("InvalidOperation", "The table has no Total Row.");
      return { ...a, row: a.row + a.rowCount - 1, rowCount: 1 };
    });
  }

  /**
   * Sets the table's area (header and Total Row included); ExcelApi 1.13
   * (https://learn.microsoft.com/javascript/api/excel/excel.table#excel-excel-table-resize-member).
   * How Excel resolves an address without a sheet name is not documented: here it names a range of the
   * active sheet, as a workbook-level address does, so it fails for a table on any other sheet (strict).
   */
  resize(address: string): void {
    this.ctx.enqueue({ resize: address }, () => {
      const t = this.resolve();
      const sheetName = sheetOf(address);
      const sheet = sheetName === undefined ? this.model.activeSheet : this.model.sheet(sheetName);
      if (sheet !== t.sheet) {
        throw new FakeExcelError("InvalidArgument", `The address '${address}' is not on the table's sheet '${t.sheet.name}'; a table can't move to another sheet by resizing.`);
      }
      const area = parseArea(address);
      if (area.row !== t.area.row || area.column !== t.area.column) {
        throw new FakeExcelError("InvalidArgument", "The table's header row must stay where it is when the table is resized.");
      }
      if (area.rowCount < 2) throw new FakeExcelError("InvalidArgument", "A table needs a header row and at least one data row.");
      t.area = area;
    });
  }

  delete(): void {
    this.ctx.enqueue({ delete: true }, () => {
      const t = this.resolve();
      this.model.tables.splice(this.model.tables.indexOf(t), 1);
    });
  }

  get worksheet(): Worksheet {
    return new Worksheet(this.ctx, this.model, () => this.resolve().sheet);
  }
}

export class TableCollection {
  constructor(
    private readonly ctx: Context,
    private readonly model: WorkbookModel,
    /** The sheet that owns this collection, or undefined for workbook.tables. */
    private readonly sheet?: () => SheetModel,
  ) {}

  getItem(name: string): Table {
    return new Table(this.ctx, this.model, () => {
      const t = this.model.table(name);
      if (!t || (this.sheet && t.sheet !== this.sheet())) throw new FakeExcelError("ItemNotFound", `The table '${name}' doesn't exist.`);
      return t;
    });
  }

  getItemOrNullObject(name: string): Table & { isNullObject: boolean } {
    const table = this.getItem(name) as Table & { isNullObject: boolean };
    let isNull: boolean | undefined;
    this.ctx.enqueue({ getItemOrNullObject: name }, () => {
      const t = this.model.table(name);
      isNull = !t || (this.sheet !== undefined && t.sheet !== this.sheet());
    });
    Object.defineProperty(table, "isNullObject", {
      get: () => {
        if (isNull === undefined) throw new FakeExcelError("PropertyNotLoaded", "The property 'isNullObject' is not available until context.sync().");
        return isNull;
      },
    });
    return table;
  }

  /** Creates a table over `address` (on this sheet, or the sheet named in the address). */
  add(address: string, hasHeaders: boolean): Table {
    let created: TableModel | undefined;
    this.ctx.enqueue({ add: address, hasHeaders }, () => {
      const sheetName = sheetOf(address);
      const sheet = sheetName !== undefined ? this.model.sheet(sheetName) : this.sheet?.();
      if (!sheet) throw new FakeExcelError("InvalidArgument", `No sheet for the table address '${address}'.`);
      const area = parseArea(address);
      if (!hasHeaders) throw new FakeExcelError("InvalidArgument", "The fake Excel makes tables with headers only.");
      for (const other of this.model.tables) {
        const o = other.area;
        if (other.sheet === sheet && o.row < area.row + area.rowCount && area.row < o.row + o.rowCount && o.column < area.column + area.columnCount && area.column < o.column + o.columnCount) {
          throw new FakeExcelError("InvalidOperation", "A table can't overlap another table.");
        }
      }
      // Excel gives a header-only table one empty data row.
      if (area.rowCount === 1) area.rowCount = 2;
      for (let c = 0; c < area.columnCount; c++) {
        const cell = sheet.ensure(area.row, area.column + c);
        if (cell.value === "") cell.value = `Column${c + 1}`;
      }
      let n = this.model.tables.length + 1;
      while (this.model.table(`Table${n}`)) n++;
      created = { id: this.model.newId("table"), name: `Table${n}`, sheet, area, showFilterButton: true, showTotals: false, style: "TableStyleMedium2" };
      this.model.tables.push(created);
    });
    return new Table(this.ctx, this.model, () => {
      if (!created) throw new FakeExcelError("InvalidOperation", "The table has not been created yet.");
      return created;
    });
  }
}
