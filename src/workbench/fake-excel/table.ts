/** Excel.Table and Excel.TableCollection. */
import { parseArea, type Area } from "./address";
import { ClientObject, type Context } from "./client-object";
import { FakeExcelError } from "./errors";
import type { SheetModel, TableModel, WorkbookModel } from "./model";
import { Range } from "./range";
import { Worksheet } from "./worksheet";

const TABLE_NAME = /^[A-Za-z_\\][A-Za-z0-9_.]*$/;

export class Table extends ClientObject {
  protected readonly scalarProperties = ["id", "name", "showFilters", "style"];

  constructor(ctx: Context, private readonly model: WorkbookModel, readonly resolve: () => TableModel) {
    super(ctx);
  }

  get id(): string { return this.read("id"); }
  get name(): string { return this.read("name"); }
  get showFilters(): boolean { return this.read("showFilters"); }
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

  set showFilters(show: boolean) {
    this.ctx.enqueue({ showFilters: show }, () => (this.resolve().showFilters = show));
  }

  set style(style: string) {
    this.ctx.enqueue({ style }, () => (this.resolve().style = style));
  }

  protected snapshot(property: string): unknown {
    const t = this.resolve();
    return ({ id: t.id, name: t.name, showFilters: t.showFilters, style: t.style } as Record<string, unknown>)[property];
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

  getDataBodyRange(): Range {
    return this.part((a) => ({ ...a, row: a.row + 1, rowCount: a.rowCount - 1 }));
  }

  /** Sets the table's area (header included) on the same sheet; ExcelApi 1.13. */
  resize(address: string): void {
    this.ctx.enqueue({ resize: address }, () => {
      const t = this.resolve();
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
      const sheetName = address.includes("!") ? address.slice(0, address.lastIndexOf("!")).replace(/^'|'$/g, "") : undefined;
      const sheet = sheetName ? this.model.sheet(sheetName) : this.sheet?.();
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
      created = { id: this.model.newId("table"), name: `Table${n}`, sheet, area, showFilters: true, style: "TableStyleMedium2" };
      this.model.tables.push(created);
    });
    return new Table(this.ctx, this.model, () => {
      if (!created) throw new FakeExcelError("InvalidOperation", "The table has not been created yet.");
      return created;
    });
  }
}
