/**
 * An in-memory implementation of the subset of the Excel JavaScript API that the add-in uses, faithful
 * where it matters: properties must be loaded and synced before they are read; values must match the
 * range's dimensions; a naive string such as "=HYPERLINK(...)" becomes a formula; a request over 5 MB
 * fails with RequestPayloadSizeLimitExceeded; syncs and request sizes are counted. Tests and the
 * workbench page use the same object. `user` plays the person at the keyboard.
 */
import { formatArea, parseArea } from "./address";
import { Context, PAYLOAD_LIMIT_BYTES, type RunSettings, type SyncStats } from "./client-object";
import { FakeExcelError } from "./errors";
import { WorkbookModel, typeIntoCell, type Scalar, type SheetModel, type TableModel } from "./model";
import { Application, Workbook } from "./workbook";

export { CELL_TEXT_LIMIT } from "./model";
export { FakeExcelError, PAYLOAD_LIMIT_BYTES, WorkbookModel };
export type { Scalar, SheetModel, TableModel };

export class RequestContext {
  readonly workbook: Workbook;
  readonly application: Application;
  private readonly inner: Context;

  constructor(model: WorkbookModel, stats: SyncStats, settings: RunSettings) {
    this.inner = new Context(stats, model, settings);
    this.application = new Application(this.inner);
    this.workbook = new Workbook(this.inner, model, this.application);
  }

  sync<T>(passThroughValue?: T): Promise<T> {
    return this.inner.sync().then(() => passThroughValue as T);
  }
}

export class FakeExcel {
  readonly stats: SyncStats = { syncs: 0, requestBytes: [], operations: [], responseBytes: [], refusedResponses: 0, calculationSuspensions: 0 };
  readonly user: UserActions;
  /** Every Excel.run's options, in order (tests check that each waits for cell edit). */
  readonly runs: Excel.RunOptions[] = [];

  /** `syncLatencyMs` gives every sync the cost of a round trip to Excel (for benchmarks). */
  constructor(readonly model: WorkbookModel = new WorkbookModel(), readonly syncLatencyMs = 0) {
    this.user = new UserActions(model);
  }

  /** Excel.run: the batch gets a fresh context; what it leaves queued is synced at the end. */
  run<T>(batch: (context: RequestContext) => Promise<T>): Promise<T>;
  run<T>(options: Excel.RunOptions, batch: (context: RequestContext) => Promise<T>): Promise<T>;
  async run<T>(first: Excel.RunOptions | ((context: RequestContext) => Promise<T>), second?: (context: RequestContext) => Promise<T>): Promise<T> {
    const options = typeof first === "function" ? {} : first;
    const batch = typeof first === "function" ? first : second!;
    this.runs.push(options);
    const context = new RequestContext(this.model, this.stats, { delayForCellEdit: options.delayForCellEdit === true, latencyMs: this.syncLatencyMs });
    const result = await batch(context);
    await context.sync();
    return result;
  }

  get largestRequestBytes(): number {
    return Math.max(0, ...this.stats.requestBytes);
  }

  get largestResponseBytes(): number {
    return Math.max(0, ...this.stats.responseBytes);
  }

  resetStats(): void {
    this.stats.syncs = 0;
    this.stats.requestBytes.length = 0;
    this.stats.operations.length = 0;
    this.stats.responseBytes.length = 0;
    this.stats.refusedResponses = 0;
    this.stats.calculationSuspensions = 0;
  }
}

/** What a person does in Excel's grid: type, paste, delete rows, sort a table. Fires worksheet onChanged. */
export class UserActions {
  constructor(private readonly model: WorkbookModel) {}

  private sheet(name: string): SheetModel {
    const sheet = this.model.sheet(name);
    if (!sheet) throw new FakeExcelError("ItemNotFound", `The worksheet '${name}' doesn't exist.`);
    return sheet;
  }

  /** Types into a cell as a person would; a dropdown cell refuses a value outside its list. */
  type(sheetName: string, address: string, input: string): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(address);
    const rule = sheet.validationAt(row, column);
    if (rule && input !== "" && !rule.list.source.split(",").map((s) => s.trim()).includes(input)) {
      throw new FakeExcelError("InvalidArgument", "This value doesn't match the data validation restrictions defined for this cell.");
    }
    this.put(sheet, row, column, input);
  }

  /**
   * Enters cell edit mode (a person typing in a cell, not yet pressed Enter). Until `end()` is called, a batch
   * fails with InvalidOperationInCellEditMode unless its Excel.run asked for `delayForCellEdit`.
   */
  beginCellEdit(sheetName: string, address: string): { end(): void; readonly waiting: number } {
    if (this.model.cellEdit) throw new FakeExcelError("InvalidOperation", "A cell is already being edited.");
    let end = () => undefined as void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const edit = {
      sheet: sheetName, address, ended, waiting: 0,
      end: () => {
        if (this.model.cellEdit === edit) this.model.cellEdit = null;
        end();
      },
    };
    this.model.cellEdit = edit;
    return edit;
  }

  /** Pastes a value: no data validation is applied (as in Excel). */
  paste(sheetName: string, address: string, value: Scalar): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(address);
    this.put(sheet, row, column, value);
  }

  private put(sheet: SheetModel, row: number, column: number, value: Scalar): void {
    typeIntoCell(sheet.ensure(row, column), value);
    // Typing a header right of a table makes the table grow by that column, as Excel does.
    for (const table of this.model.tables) {
      const a = table.area;
      if (table.sheet === sheet && row === a.row && column === a.column + a.columnCount) a.columnCount++;
    }
    this.changed(sheet, formatArea({ row, column, rowCount: 1, columnCount: 1 }));
  }

  /**
   * A formula's spilled result: the values land as they are (a custom function's results are values, never
   * formulas), the anchor cell keeps the formula. A row shorter than the widest is padded with "".
   */
  spill(sheetName: string, address: string, formula: string, grid: Scalar[][]): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(address);
    const width = Math.max(1, ...grid.map((r) => r.length));
    grid.forEach((line, r) => {
      for (let c = 0; c < width; c++) {
        const cell = sheet.ensure(row + r, column + c);
        delete cell.formula;
        cell.value = line[c] ?? "";
      }
    });
    sheet.ensure(row, column).formula = formula;
    this.changed(sheet, formatArea({ row, column, rowCount: Math.max(1, grid.length), columnCount: width }));
  }

  /** Deletes a whole sheet row; cells below move up and tables shrink around it. */
  deleteRow(sheetName: string, row1Based: number): void {
    const sheet = this.sheet(sheetName);
    const row = row1Based - 1;
    const rows = [...sheet.cells.keys()].sort((a, b) => a - b);
    sheet.cells.delete(row);
    for (const r of rows) {
      if (r <= row) continue;
      const line = sheet.cells.get(r)!;
      sheet.cells.delete(r);
      sheet.cells.set(r - 1, line);
    }
    for (const table of this.model.tables) {
      if (table.sheet !== sheet) continue;
      const a = table.area;
      if (row > a.row && row < a.row + a.rowCount) a.rowCount--;
      else if (row < a.row) a.row--;
    }
    this.changed(sheet, `${row1Based}:${row1Based}`);
  }

  /** Sorts a table's body by one of its columns (by header text). */
  sortTable(tableName: string, header: string, ascending = true): void {
    const table = this.model.table(tableName);
    if (!table) throw new FakeExcelError("ItemNotFound", `The table '${tableName}' doesn't exist.`);
    const { sheet, area } = table;
    const column = Array.from({ length: area.columnCount }, (_, c) => sheet.cell(area.row, area.column + c)?.value).indexOf(header);
    if (column < 0) throw new FakeExcelError("InvalidArgument", `The table has no column '${header}'.`);
    const rows = Array.from({ length: area.rowCount - 1 }, (_, i) => area.row + 1 + i);
    const lines = rows.map((r) => sheet.cells.get(r) ?? new Map());
    const key = (line: Map<number, { value: Scalar }>) => line.get(area.column + column)?.value ?? "";
    lines.sort((x, y) => {
      const a = key(x), b = key(y);
      const order = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
      return ascending ? order : -order;
    });
    rows.forEach((r, i) => sheet.cells.set(r, lines[i]));
    this.changed(sheet, formatArea(area));
  }

  /** A cell's value as a person sees it in the grid. */
  valueAt(sheetName: string, address: string): Scalar {
    const { row, column } = parseArea(address);
    return this.sheet(sheetName).cell(row, column)?.value ?? "";
  }

  private changed(sheet: SheetModel, address: string): void {
    for (const handler of sheet.changeHandlers) {
      void handler({ worksheetId: sheet.id, address, changeType: "RangeEdited", source: "Local", triggerSource: "Unknown" });
    }
  }
}
