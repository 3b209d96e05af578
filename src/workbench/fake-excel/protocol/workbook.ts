/**
 * Excel.Workbook (the root of every request), Excel.Application and the workbook's settings on the
 * in-memory Excel. https://learn.microsoft.com/javascript/api/excel/excel.workbook
 */
import { calculateWorkbook } from "../calculation";
import { calculateValues } from "../formula-engine";
import { FakeExcelError } from "../errors";
import { HostObject, readOnly, type HostContext, type Members } from "./host-object";
import { NullHostObject } from "./null-object";
import { RangeObject } from "./range";
import { TableCollectionObject } from "./table";
import { WorksheetCollectionObject } from "./worksheet";

const CALCULATION_TYPES = ["Recalculate", "Full", "FullRebuild"];

/** A setting's value, as the workbook keeps it: JSON (a Date reads back as its text); no value at all is refused (strict). */
function jsonValue(value: unknown): unknown {
  if (value === undefined) throw new FakeExcelError("InvalidArgument", "A setting needs a value.");
  return JSON.parse(JSON.stringify(value));
}

/** What one request did to calculation (see ApplicationObject). */
export interface CalculationState {
  /** This request suspended calculation until the next sync. */
  suspended: boolean;
  suspensions: number;
}

export class ApplicationObject extends HostObject {
  readonly className = "Application";
  constructor(private readonly host: HostContext, private readonly calculation: CalculationState) {
    super();
  }

  protected members(): Members {
    return {
      scalars: {
        /** Automatic, AutomaticExceptTables or Manual (Excel.CalculationMode; set: ExcelApi 1.8); another value is InvalidArgument (strict). */
        CalculationMode: {
          get: () => this.host.model.calculationMode,
          set: (mode) => {
            if (mode !== "Automatic" && mode !== "AutomaticExceptTables" && mode !== "Manual") throw new FakeExcelError("InvalidArgument", `Unknown calculation mode '${String(mode)}'.`);
            this.host.model.calculationMode = mode;
          },
        },
      },
      methods: {
        /**
         * "Once set, it is the developer's responsibility to re-calc the workbook" (d.ts,
         * Application.suspendApiCalculationUntilNextSync): the workbook keeps `recalculationPending` until a
         * later request calculates; a calculation in the very request that suspended it does not count.
         */
        SuspendApiCalculationUntilNextSync: () => {
          this.calculation.suspended = true;
          this.calculation.suspensions++;
          return null;
        },
        /**
         * "Recalculate all currently opened workbooks in Excel" (d.ts 36553): `full` and `fullRebuild` reach every
         * formula of every open workbook, this one and the others; `recalculate` only dirty cells, which the
         * in-memory Excel does not track (calculation.ts).
         */
        Calculate: (type) => {
          if (!CALCULATION_TYPES.includes(String(type))) throw new FakeExcelError("InvalidArgument", `Unknown calculation type '${String(type)}'.`);
          if (!this.calculation.suspended) this.host.model.recalculationPending = false;
          if (type !== "Recalculate") for (const workbook of [this.host.model, ...this.host.otherWorkbooks]) calculateWorkbook(workbook);
          // Values: every formula of every open workbook takes its value (which cells are dirty is not tracked, and a
          // formula whose inputs did not change gets the value it had: the same values as a dirty-only calculation).
          for (const workbook of [this.host.model, ...this.host.otherWorkbooks]) calculateValues(workbook);
          this.host.model.entered.length = 0;
          return null;
        },
      },
    };
  }
}

/** Excel.Setting: a value kept in the workbook, stored as JSON (Excel.Setting.value in the d.ts). */
export class SettingObject extends HostObject {
  readonly className = "Setting";
  constructor(private readonly host: HostContext, private readonly key: string) {
    super();
  }

  private present(): void {
    if (!this.host.model.settings.has(this.key)) throw new FakeExcelError("ItemNotFound", `The setting '${this.key}' doesn't exist.`);
  }

  protected members(): Members {
    const { settings } = this.host.model;
    return {
      scalars: {
        Key: readOnly(() => (this.present(), this.key)),
        Value: {
          get: () => (this.present(), settings.get(this.key)),
          set: (value) => void settings.set(this.key, jsonValue(value)),
        },
      },
      methods: { Delete: () => (this.present(), settings.delete(this.key), null) },
    };
  }
}

/** Excel.SettingCollection: "Setting keys are case-insensitive" is not said in the d.ts; keys are kept exactly (strict). */
export class SettingCollectionObject extends HostObject {
  readonly className = "SettingCollection";
  override readonly itemClass = "Setting";
  constructor(private readonly host: HostContext) {
    super();
  }

  override item(key: unknown): HostObject {
    const name = String(key);
    if (!this.host.model.settings.has(name)) throw new FakeExcelError("ItemNotFound", `The setting '${name}' doesn't exist.`);
    return new SettingObject(this.host, name);
  }

  override items(): HostObject[] {
    return [...this.host.model.settings.keys()].map((key) => new SettingObject(this.host, key));
  }

  protected members(): Members {
    return {
      scalars: {},
      methods: {
        /** Adds or replaces a setting (d.ts: "Sets or adds the specified setting to the workbook"). */
        Add: (key, value) => {
          if (typeof key !== "string" || key === "") throw new FakeExcelError("InvalidArgument", "A setting needs a key.");
          this.host.model.settings.set(key, jsonValue(value));
          return new SettingObject(this.host, key);
        },
        GetItem: (key) => this.item(key),
        GetItemOrNullObject: (key) => (this.host.model.settings.has(String(key)) ? new SettingObject(this.host, String(key)) : new NullHostObject("Setting", `The setting '${String(key)}'`)),
      },
    };
  }
}

/** The root object of every request: `context.workbook`. */
export class WorkbookObject extends HostObject {
  readonly className = "Workbook";
  /** The request changed something since formulas last took their values (host.ts). */
  changed = false;
  constructor(private readonly host: HostContext, readonly calculation: CalculationState) {
    super();
  }

  protected members(): Members {
    return {
      scalars: { Name: readOnly(() => "Book1.xlsx") },
      navigation: {
        Worksheets: () => new WorksheetCollectionObject(this.host),
        Tables: () => new TableCollectionObject(this.host),
        Settings: () => new SettingCollectionObject(this.host),
        Application: () => new ApplicationObject(this.host, this.calculation),
      },
      methods: {
        /** "Gets the currently selected single range from the workbook" (d.ts): the active sheet's selection, as the person left it. */
        GetSelectedRange: () => {
          const sheet = this.host.model.activeSheet;
          if (!sheet) throw new FakeExcelError("ItemNotFound", "No sheet is active.");
          return new RangeObject(this.host, sheet, sheet.selected);
        },
      },
    };
  }
}
