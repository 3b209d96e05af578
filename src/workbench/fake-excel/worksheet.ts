/** Excel.Worksheet and Excel.WorksheetCollection. */
import { parseArea } from "./address";
import { ClientObject, type Context } from "./client-object";
import { FakeExcelError } from "./errors";
import type { ChangeEvent, SheetModel, Visibility, WorkbookModel } from "./model";
import { Range } from "./range";
import { TableCollection } from "./table";

const SHEET_NAME_FORBIDDEN = /[\\/?*[\]:]/;

export class Worksheet extends ClientObject {
  protected readonly scalarProperties = ["id", "name", "visibility", "position"];
  readonly tables: TableCollection;
  readonly onChanged: { add(handler: (event: ChangeEvent) => Promise<unknown> | void): { remove(): void } };
  readonly freezePanes: { freezeRows(count?: number): void };

  constructor(ctx: Context, private readonly model: WorkbookModel, readonly resolve: () => SheetModel) {
    super(ctx);
    this.tables = new TableCollection(ctx, model, resolve);
    this.onChanged = {
      add: (handler) => {
        ctx.enqueue({ onChanged: "add" }, () => void resolve().changeHandlers.push(handler));
        return {
          remove: () =>
            ctx.enqueue({ onChanged: "remove" }, () => {
              const list = resolve().changeHandlers;
              const i = list.indexOf(handler);
              if (i >= 0) list.splice(i, 1);
            }),
        };
      },
    };
    this.freezePanes = {
      freezeRows: (count = 1) => ctx.enqueue({ freezeRows: count }, () => void (resolve().frozenRows = count)),
    };
  }

  get id(): string { return this.read("id"); }
  get name(): string { return this.read("name"); }
  get visibility(): Visibility { return this.read("visibility"); }
  get position(): number { return this.read("position"); }

  set visibility(visibility: Visibility) {
    this.ctx.enqueue({ visibility }, () => {
      if (!["Visible", "Hidden", "VeryHidden"].includes(visibility)) throw new FakeExcelError("InvalidArgument", `Unknown visibility '${visibility}'.`);
      const sheet = this.resolve();
      if (visibility !== "Visible" && this.model.sheets.filter((s) => s.visibility === "Visible" && s !== sheet).length === 0) {
        throw new FakeExcelError("InvalidOperation", "A workbook must keep at least one visible sheet.");
      }
      sheet.visibility = visibility;
    });
  }

  set name(name: string) {
    this.ctx.enqueue({ name }, () => {
      checkSheetName(this.model, name);
      this.resolve().name = name;
    });
  }

  protected snapshot(property: string): unknown {
    const s = this.resolve();
    return ({ id: s.id, name: s.name, visibility: s.visibility, position: this.model.sheets.indexOf(s) } as Record<string, unknown>)[property];
  }

  getRange(address?: string): Range {
    return new Range(this.ctx, () => {
      const sheet = this.resolve();
      if (address === undefined) return { sheet, area: { row: 0, column: 0, rowCount: 1048576, columnCount: 16384 } };
      try {
        return { sheet, area: parseArea(address) };
      } catch {
        throw new FakeExcelError("InvalidArgument", `The address '${address}' is not valid.`);
      }
    });
  }

  getRangeByIndexes(startRow: number, startColumn: number, rowCount: number, columnCount: number): Range {
    return new Range(this.ctx, () => {
      if (rowCount < 1 || columnCount < 1) throw new FakeExcelError("InvalidArgument", "A range needs at least one row and one column.");
      return { sheet: this.resolve(), area: { row: startRow, column: startColumn, rowCount, columnCount } };
    });
  }

  getUsedRangeOrNullObject(): Range & { isNullObject: boolean } {
    const range = new Range(this.ctx, () => {
      const sheet = this.resolve();
      return { sheet, area: sheet.usedArea() ?? { row: 0, column: 0, rowCount: 1, columnCount: 1 } };
    }) as Range & { isNullObject: boolean };
    let isNull: boolean | undefined;
    this.ctx.enqueue({ usedRange: true }, () => (isNull = this.resolve().usedArea() === null));
    Object.defineProperty(range, "isNullObject", {
      get: () => {
        if (isNull === undefined) throw new FakeExcelError("PropertyNotLoaded", "The property 'isNullObject' is not available until context.sync().");
        return isNull;
      },
    });
    return range;
  }

  activate(): void {
    this.ctx.enqueue({ activate: true }, () => {
      const sheet = this.resolve();
      if (sheet.visibility !== "Visible") throw new FakeExcelError("InvalidOperation", "A hidden sheet can't be activated.");
      this.model.activeSheet = sheet;
    });
  }

  delete(): void {
    this.ctx.enqueue({ delete: true }, () => {
      const sheet = this.resolve();
      this.model.sheets.splice(this.model.sheets.indexOf(sheet), 1);
      for (let i = this.model.tables.length - 1; i >= 0; i--) if (this.model.tables[i].sheet === sheet) this.model.tables.splice(i, 1);
      if (this.model.activeSheet === sheet) this.model.activeSheet = this.model.sheets.find((s) => s.visibility === "Visible");
    });
  }
}

function checkSheetName(model: WorkbookModel, name: string): void {
  if (!name || name.length > 31 || SHEET_NAME_FORBIDDEN.test(name) || /^'|'$/.test(name)) {
    throw new FakeExcelError("InvalidArgument", `'${name}' is not a valid sheet name (31 characters at most, none of \\ / ? * [ ] :).`);
  }
  if (model.sheet(name)) throw new FakeExcelError("ItemAlreadyExists", `A sheet named '${name}' already exists.`);
}

export class WorksheetCollection extends ClientObject {
  protected readonly scalarProperties = ["items"];

  constructor(ctx: Context, private readonly model: WorkbookModel) {
    super(ctx);
  }

  get items(): Worksheet[] { return this.read("items"); }

  protected snapshot(property: string): unknown {
    if (property !== "items" && !property.startsWith("items/")) throw new FakeExcelError("InvalidArgument", `No property '${property}'.`);
    return this.model.sheets.map((sheet) => {
      const ws = new Worksheet(this.ctx, this.model, () => sheet);
      ws.markLoaded("name", sheet.name);
      ws.markLoaded("visibility", sheet.visibility);
      return ws;
    });
  }

  private byName(name: string): () => SheetModel {
    let cached: SheetModel | undefined;
    return () => {
      cached ??= this.model.sheet(name);
      if (!cached || !this.model.sheets.includes(cached)) throw new FakeExcelError("ItemNotFound", `The worksheet '${name}' doesn't exist.`);
      return cached;
    };
  }

  getItem(name: string): Worksheet {
    return new Worksheet(this.ctx, this.model, this.byName(name));
  }

  getItemOrNullObject(name: string): Worksheet & { isNullObject: boolean } {
    const sheet = this.getItem(name) as Worksheet & { isNullObject: boolean };
    let isNull: boolean | undefined;
    this.ctx.enqueue({ getItemOrNullObject: name }, () => (isNull = this.model.sheet(name) === undefined));
    Object.defineProperty(sheet, "isNullObject", {
      get: () => {
        if (isNull === undefined) throw new FakeExcelError("PropertyNotLoaded", "The property 'isNullObject' is not available until context.sync().");
        return isNull;
      },
    });
    return sheet;
  }

  add(name?: string): Worksheet {
    let created: SheetModel | undefined;
    this.ctx.enqueue({ add: name ?? null }, () => {
      let chosen = name;
      for (let n = this.model.sheets.length + 1; chosen === undefined; n++) if (!this.model.sheet(`Sheet${n}`)) chosen = `Sheet${n}`;
      checkSheetName(this.model, chosen);
      created = this.model.addSheet(chosen);
    });
    return new Worksheet(this.ctx, this.model, () => {
      if (!created) throw new FakeExcelError("InvalidOperation", "The sheet has not been created yet.");
      return created;
    });
  }

  getActiveWorksheet(): Worksheet {
    return new Worksheet(this.ctx, this.model, () => {
      if (!this.model.activeSheet) throw new FakeExcelError("ItemNotFound", "No active sheet.");
      return this.model.activeSheet;
    });
  }
}
