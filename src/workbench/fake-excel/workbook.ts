/** Excel.Workbook, its settings (Excel.SettingCollection) and Excel.Application. */
import { ClientObject, type Context } from "./client-object";
import { FakeExcelError } from "./errors";
import type { WorkbookModel } from "./model";
import { TableCollection } from "./table";
import { WorksheetCollection } from "./worksheet";

export class Setting extends ClientObject {
  protected readonly scalarProperties = ["key", "value"];

  constructor(ctx: Context, private readonly model: WorkbookModel, private readonly key: string, private readonly nullable: boolean) {
    super(ctx);
  }

  get value(): unknown { return this.read("value"); }

  override get isNullObject(): boolean { return this.read("isNullObject"); }

  set value(value: unknown) {
    this.ctx.enqueue({ key: this.key, value }, () => void this.model.settings.set(this.key, JSON.parse(JSON.stringify(value))));
  }

  override load(properties?: string | string[]): this {
    if (this.nullable) this.ctx.enqueue({ load: "isNullObject" }, () => this.markLoaded("isNullObject", !this.model.settings.has(this.key)));
    return super.load(properties);
  }

  protected snapshot(property: string): unknown {
    if (property === "key") return this.key;
    if (property === "isNullObject") return !this.model.settings.has(this.key);
    if (!this.model.settings.has(this.key)) {
      if (this.nullable) return null;
      throw new FakeExcelError("ItemNotFound", `The setting '${this.key}' doesn't exist.`);
    }
    return this.model.settings.get(this.key);
  }

  delete(): void {
    this.ctx.enqueue({ delete: this.key }, () => void this.model.settings.delete(this.key));
  }
}

export class SettingCollection {
  constructor(private readonly ctx: Context, private readonly model: WorkbookModel) {}

  /** Adds or replaces a setting; values are stored as JSON, as Excel does. */
  add(key: string, value: string): Setting {
    const setting = new Setting(this.ctx, this.model, key, false);
    setting.value = value;
    return setting;
  }

  getItem(key: string): Setting {
    return new Setting(this.ctx, this.model, key, false);
  }

  getItemOrNullObject(key: string): Setting {
    return new Setting(this.ctx, this.model, key, true);
  }
}

/** Excel.Application: calculation only. */
export class Application {
  constructor(private readonly ctx: Context) {}

  /**
   * "Once set, it is the developer's responsibility to re-calc the workbook" (d.ts,
   * Application.suspendApiCalculationUntilNextSync): the model keeps `recalculationPending` until calculate().
   */
  suspendApiCalculationUntilNextSync(): void {
    this.ctx.enqueue({ suspendCalculation: true }, () => {
      this.ctx.stats.calculationSuspensions++;
      this.ctx.suspendCalculation();
    });
  }

  calculate(calculationType: "Recalculate" | "Full" | "FullRebuild"): void {
    this.ctx.enqueue({ calculate: calculationType }, () => {
      if (!["Recalculate", "Full", "FullRebuild"].includes(calculationType)) throw new FakeExcelError("InvalidArgument", `Unknown calculation type '${calculationType}'.`);
      this.ctx.calculate();
    });
  }
}

export class Workbook {
  readonly worksheets: WorksheetCollection;
  readonly tables: TableCollection;
  readonly settings: SettingCollection;

  constructor(ctx: Context, model: WorkbookModel, readonly application: Application) {
    this.worksheets = new WorksheetCollection(ctx, model);
    this.tables = new TableCollection(ctx, model);
    this.settings = new SettingCollection(ctx, model);
  }
}
