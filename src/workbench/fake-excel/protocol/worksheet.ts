/**
 * Excel.Worksheet and Excel.WorksheetCollection on the in-memory Excel.
 * https://learn.microsoft.com/javascript/api/excel/excel.worksheet
 */
import { parseArea } from "../address";
import { FakeExcelError } from "../errors";
import type { SheetModel, Visibility } from "../model";
import { HostObject, readOnly, type HostContext, type Members } from "./host-object";
import { NullHostObject } from "./null-object";
import { RangeObject, SHEET_COLUMNS, SHEET_ROWS } from "./range";
import { TableCollectionObject } from "./table";

const SHEET_NAME_FORBIDDEN = /[\\/?*[\]:]/;
const VISIBILITIES: readonly Visibility[] = ["Visible", "Hidden", "VeryHidden"];

/** A sheet name Excel accepts: 31 characters at most, none of \ / ? * [ ] :, not starting or ending with ', not taken. */
function checkSheetName(host: HostContext, name: unknown, self?: SheetModel): string {
  if (typeof name !== "string" || !name || name.length > 31 || SHEET_NAME_FORBIDDEN.test(name) || /^'|'$/.test(name)) {
    throw new FakeExcelError("InvalidArgument", `'${String(name)}' is not a valid sheet name (31 characters at most, none of \\ / ? * [ ] :).`);
  }
  const other = host.model.sheet(name);
  if (other && other !== self) throw new FakeExcelError("ItemAlreadyExists", `A sheet named '${name}' already exists.`);
  return name;
}

export class WorksheetObject extends HostObject {
  readonly className = "Worksheet";

  constructor(private readonly host: HostContext, readonly sheet: SheetModel) {
    super();
  }

  /** Office.js addresses a worksheet by its id after the first answer (the collection's indexer). */
  override identity(): Record<string, unknown> {
    return { Id: this.sheet.id };
  }

  /** The sheet must still be in the workbook: a deleted sheet's object fails as Excel's does. */
  private live(): SheetModel {
    if (!this.host.model.sheets.includes(this.sheet)) throw new FakeExcelError("ItemNotFound", `The worksheet '${this.sheet.name}' doesn't exist any more.`);
    return this.sheet;
  }

  private range(row: number, column: number, rowCount: number, columnCount: number): RangeObject {
    return new RangeObject(this.host, this.live(), { row, column, rowCount, columnCount });
  }

  protected members(): Members {
    const { model } = this.host;
    return {
      scalars: {
        Id: readOnly(() => this.live().id),
        Name: { get: () => this.live().name, set: (name) => void (this.live().name = checkSheetName(this.host, name, this.sheet)) },
        Position: readOnly(() => model.sheets.indexOf(this.live())),
        Visibility: {
          get: () => this.live().visibility,
          /** A workbook keeps at least one visible sheet (Excel specifications; Excel refuses to hide the last one). */
          set: (visibility) => {
            const sheet = this.live();
            if (!VISIBILITIES.includes(visibility as Visibility)) throw new FakeExcelError("InvalidArgument", `Unknown visibility '${String(visibility)}'.`);
            if (visibility !== "Visible" && !model.sheets.some((s) => s !== sheet && s.visibility === "Visible")) {
              throw new FakeExcelError("InvalidOperation", "A workbook must keep at least one visible sheet.");
            }
            sheet.visibility = visibility as Visibility;
            if (model.activeSheet === sheet && sheet.visibility !== "Visible") model.activeSheet = model.sheets.find((s) => s.visibility === "Visible");
          },
        },
      },
      navigation: {
        Tables: () => new TableCollectionObject(this.host, this.live()),
        FreezePanes: () => new FreezePanesObject(this.live()),
      },
      methods: {
        /** Worksheet.onRowSorted.add (ExcelApi 1.10): Office.js asks the host to send this sheet's sort events (change-events.ts). */
        _RegisterRowSortedEvent: () => this.host.events.register("sort", this.live().id),
        _UnregisterRowSortedEvent: () => this.host.events.unregister("sort", this.live().id),
        GetRange: (address) => {
          if (address === undefined || address === null || address === "") return this.range(0, 0, SHEET_ROWS, SHEET_COLUMNS);
          try {
            const area = parseArea(String(address));
            return this.range(area.row, area.column, area.rowCount, area.columnCount);
          } catch {
            throw new FakeExcelError("InvalidArgument", `The address '${String(address)}' is not valid.`);
          }
        },
        GetRangeByIndexes: (row, column, rowCount, columnCount) => this.range(Number(row), Number(column), Number(rowCount), Number(columnCount)),
        GetCell: (row, column) => this.range(Number(row), Number(column), 1, 1),
        /** "If the entire worksheet is blank, this function will return the top left cell (i.e. it will *not* throw an error)" (d.ts 37633). */
        GetUsedRange: (valuesOnly) => {
          const used = this.live().usedArea(valuesOnly === true);
          return used ? this.range(used.row, used.column, used.rowCount, used.columnCount) : this.range(0, 0, 1, 1);
        },
        GetUsedRangeOrNullObject: (valuesOnly) => {
          const used = this.live().usedArea(valuesOnly === true);
          return used ? this.range(used.row, used.column, used.rowCount, used.columnCount) : new NullHostObject("Range", `The used range of '${this.sheet.name}'`);
        },
        /** "A worksheet can't be activated when it is hidden" (strict: the d.ts is silent; Excel shows no hidden sheet). */
        Activate: () => {
          const sheet = this.live();
          if (sheet.visibility !== "Visible") throw new FakeExcelError("InvalidOperation", "A hidden sheet can't be activated.");
          model.activeSheet = sheet;
          return null;
        },
        /**
         * "If the worksheet's visibility is set to VeryHidden, the delete operation will fail with an
         * InvalidOperation exception. You should first change its visibility to hidden or visible before
         * deleting it." (d.ts, Excel.Worksheet.delete). The last visible sheet can't go either.
         */
        Delete: () => {
          const sheet = this.live();
          if (sheet.visibility === "VeryHidden") {
            throw new FakeExcelError("InvalidOperation", `The worksheet '${sheet.name}' is very hidden: set its visibility to Hidden or Visible before deleting it.`);
          }
          if (sheet.visibility === "Visible" && !model.sheets.some((s) => s !== sheet && s.visibility === "Visible")) {
            throw new FakeExcelError("InvalidOperation", "A workbook must keep at least one visible sheet.");
          }
          model.sheets.splice(model.sheets.indexOf(sheet), 1);
          for (let i = model.tables.length - 1; i >= 0; i--) if (model.tables[i].sheet === sheet) model.tables.splice(i, 1);
          if (model.activeSheet === sheet) model.activeSheet = model.sheets.find((s) => s.visibility === "Visible");
          return null;
        },
      },
    };
  }
}

export class FreezePanesObject extends HostObject {
  readonly className = "WorksheetFreezePanes";
  constructor(private readonly sheet: SheetModel) {
    super();
  }

  protected members(): Members {
    return {
      scalars: {},
      methods: {
        /** Strict (undocumented): panes of a sheet that is not visible can't be frozen. */
        FreezeRows: (count) => {
          if (this.sheet.visibility !== "Visible") throw new FakeExcelError("InvalidOperation", `'${this.sheet.name}' is not visible: its panes can't be frozen.`);
          const rows = count === undefined || count === null ? 1 : count;
          if (typeof rows !== "number" || !Number.isInteger(rows) || rows < 0 || rows >= SHEET_ROWS) throw new FakeExcelError("InvalidArgument", `freezeRows takes a row count, not ${String(count)}.`);
          this.sheet.frozenRows = rows;
          return null;
        },
      },
    };
  }
}

/** Excel.WorksheetCollection: worksheets by name (any case) or by id. */
export class WorksheetCollectionObject extends HostObject {
  readonly className = "WorksheetCollection";
  override readonly itemClass = "Worksheet";
  constructor(private readonly host: HostContext) {
    super();
  }

  private find(key: unknown): SheetModel | undefined {
    const text = String(key);
    return this.host.model.sheets.find((s) => s.id === text) ?? this.host.model.sheet(text);
  }

  override items(): HostObject[] {
    return this.host.model.sheets.map((sheet) => this.host.worksheet(sheet));
  }

  override item(key: unknown): HostObject {
    const sheet = this.find(key);
    if (!sheet) throw new FakeExcelError("ItemNotFound", `The worksheet '${String(key)}' doesn't exist.`);
    return this.host.worksheet(sheet);
  }

  protected members(): Members {
    const { model } = this.host;
    return {
      scalars: {},
      methods: {
        GetItem: (key) => this.item(key),
        GetItemOrNullObject: (key) => {
          const sheet = this.find(key);
          return sheet ? this.host.worksheet(sheet) : new NullHostObject("Worksheet", `The worksheet '${String(key)}'`);
        },
        GetActiveWorksheet: () => {
          if (!model.activeSheet) throw new FakeExcelError("ItemNotFound", "No sheet is active.");
          return this.host.worksheet(model.activeSheet);
        },
        Add: (name) => {
          let chosen = name ?? undefined;
          for (let n = model.sheets.length + 1; chosen === undefined; n++) if (!model.sheet(`Sheet${n}`)) chosen = `Sheet${n}`;
          return this.host.worksheet(model.addSheet(checkSheetName(this.host, chosen)));
        },
      },
    };
  }
}
