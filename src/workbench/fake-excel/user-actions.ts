/**
 * What a person does in Excel's grid: type, paste, fill down, clear, enter a formula that spills, delete
 * rows, sort a table. These follow Excel's user interface, not its API: typing is checked against data
 * validation, pasting and filling are not (as in Excel); typing respects a Text ("@") cell and a leading
 * apostrophe.
 */
import { parseArea } from "./address";
import { FakeExcelError } from "./errors";
import { settleValues } from "./formula-engine";
import { CellLine, newCell, type Cell, type DataChange, type RichValue, type Scalar, type SheetModel, type WorkbookModel } from "./model";
import { cellOrder, errorTypeOf, placeRich, typeIntoCell, writeFormula } from "./typing";
import { subtractArea } from "./protocol/areas";
import { resultArea, type Spill } from "./spills";
import { shiftFormula } from "./shift-formula";
import { address, isEmpty, UserWrites, type SpillInfo } from "./user-writes";

export class UserActions {
  /** Where every write lands, around the formulas' spills. */
  private readonly writes: UserWrites;

  constructor(private readonly model: WorkbookModel) {
    this.writes = new UserWrites(model);
  }

  private sheet(name: string): SheetModel {
    const sheet = this.model.sheet(name);
    if (!sheet) throw new FakeExcelError("ItemNotFound", `The worksheet '${name}' doesn't exist.`);
    return sheet;
  }

  /**
   * Shows a sheet and selects cells on it, as a person clicks a tab and a cell (`range` an A1 address of that
   * sheet): the workbook's active sheet and that sheet's selection (Workbook.getSelectedRange) follow.
   */
  select(sheetName: string, range: string): void {
    const sheet = this.sheet(sheetName);
    if (sheet.visibility !== "Visible") throw new FakeExcelError("InvalidOperation", `The sheet '${sheetName}' is hidden: a person can't select on it.`);
    this.model.activeSheet = sheet;
    sheet.selected = parseArea(range);
  }

  /**
   * Types into a cell as a person would (then Enter). A dropdown cell refuses a value outside its list
   * with Excel's message, here followed by the allowed values (Excel's own dialog names none; the list is
   * what a person needs to retry). Whether the list is matched in any case is not documented: any case is
   * accepted and stored as typed ("Paid" stays "Paid"), the stricter reading for an add-in, which must then
   * read "Paid" as the state it names.
   */
  type(sheetName: string, at: string, input: string): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    const rule = sheet.validationAt(row, column);
    const allowed = rule?.list.source.split(",").map((s) => s.trim()) ?? [];
    const refuses = (value: Scalar) => rule !== undefined && value !== "" && !allowed.some((item) => item.toLowerCase() === String(value).trim().toLowerCase());
    const refusal = () => new FakeExcelError("InvalidArgument", `This value doesn't match the data validation restrictions defined for this cell. Allowed: ${allowed.join(", ")}.`);
    const before = newCell(sheet.cell(row, column));
    const probe = newCell(before);
    typeIntoCell(probe, input);
    if (probe.formula === undefined && refuses(input)) throw refusal();
    this.writes.put(sheet, row, column, (cell) => typeIntoCell(cell, input));
    this.writes.settle(sheet, [{ row, column }]);
    this.calculate();
    // A formula is checked by its result, once calculated, as Excel validates what a formula gives when it is entered.
    if (probe.formula !== undefined && refuses(sheet.cell(row, column)?.value ?? "")) {
      this.writes.put(sheet, row, column, (cell) => Object.assign(cell, before));
      this.calculate();
      throw refusal();
    }
  }

  /** Formulas take their values after a person's edit (formula-engine.ts): Excel calculates as the person types. */
  private calculate(change?: DataChange): void {
    if (change) this.model.noteChange(change);
    settleValues(this.model, false);
  }

  /**
   * Enters cell edit mode (a person typing in a cell, not yet pressed Enter). Until `end()` is called, a batch
   * fails with InvalidOperationInCellEditMode unless its Excel.run asked for `delayForCellEdit`.
   */
  beginCellEdit(sheetName: string, at: string): { end(): void; readonly waiting: number } {
    if (this.model.cellEdit) throw new FakeExcelError("InvalidOperation", "A cell is already being edited.");
    let end = () => undefined as void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const edit = {
      sheet: sheetName, address: at, ended, waiting: 0,
      end: () => {
        if (this.model.cellEdit === edit) this.model.cellEdit = null;
        end();
      },
    };
    this.model.cellEdit = edit;
    return edit;
  }

  /**
   * A value richer than text or a number, as Excel's own commands leave it: Data > Stocks or Geography (a
   * linked data type), an add-in's entity card, an error a person typed (#N/A).
   */
  insertValue(sheetName: string, at: string, value: RichValue): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    this.writes.put(sheet, row, column, (cell) => placeRich(cell, value));
    this.writes.settle(sheet, [{ row, column }]);
    this.calculate();
  }

  /** Pastes a value: no data validation is applied (as in Excel). */
  paste(sheetName: string, at: string, value: Scalar): void {
    this.pasteBlock(sheetName, at, [[value]]);
  }

  /**
   * Pastes a block of values with its top-left cell at `at`, as Excel pastes text: each value is read as
   * if typed (a number-like text becomes a number, unless the cell is Text), with no data validation ("a
   * plain paste does not trigger validation"). Whether it keeps the cells' rule is not documented: it goes
   * (strict), as pasting cells replaces their validation, so the cells take anything typed after.
   * Returns the cells that received a formula, for the caller to calculate (the in-memory Excel does not).
   */
  pasteBlock(sheetName: string, at: string, grid: Scalar[][]): string[] {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    const pasted = { row, column, rowCount: grid.length, columnCount: Math.max(0, ...grid.map((l) => l.length)) };
    if (pasted.rowCount > 0 && pasted.columnCount > 0) {
      const kept = sheet.validations.flatMap((v) => subtractArea(v.area, pasted).map((rest) => ({ area: rest, list: v.list })));
      sheet.validations.splice(0, sheet.validations.length, ...kept);
    }
    const touched: { row: number; column: number }[] = [];
    const formulas: string[] = [];
    grid.forEach((line, r) => line.forEach((value, c) => {
      this.writes.put(sheet, row + r, column + c, (cell) => typeIntoCell(cell, value));
      touched.push({ row: row + r, column: column + c });
      if (sheet.cell(row + r, column + c)?.formula !== undefined) formulas.push(address(row + r, column + c));
    }));
    if (touched.length === 0) return [];
    this.writes.settle(sheet, touched);
    this.calculate();
    return formulas;
  }

  /**
   * Ctrl+D: the top row of the range is copied into the rows below it, value, formula (its relative
   * references moved down) and format, with no data validation (Excel copies cells, it does not type them).
   * On a single row, the row above is copied into it, as Excel does. Returns the cells that received a
   * formula, for the caller to calculate.
   */
  fillDown(sheetName: string, range: string): string[] {
    const sheet = this.sheet(sheetName);
    const area = parseArea(range);
    const source = area.rowCount === 1 ? area.row - 1 : area.row;
    if (source < 0) return [];
    const first = area.rowCount === 1 ? area.row : area.row + 1;
    const formulas: string[] = [];
    const touched: { row: number; column: number }[] = [];
    for (let c = area.column; c < area.column + area.columnCount; c++) {
      const from = sheet.cell(source, c);
      for (let r = first; r < area.row + area.rowCount; r++) {
        this.writes.put(sheet, r, c, (cell) => copyCell(from, cell, r - source));
        touched.push({ row: r, column: c });
        if (from?.formula !== undefined) formulas.push(address(r, c));
      }
    }
    if (touched.length === 0) return [];
    this.writes.settle(sheet, touched);
    this.calculate();
    return formulas;
  }

  /**
   * Delete on a selection: values and formulas go, formats and validation stay. A cell another formula
   * spilled into is left alone (Excel ignores Delete there); clearing an anchor removes its whole spill.
   */
  clear(sheetName: string, range: string): void {
    const sheet = this.sheet(sheetName);
    const area = parseArea(range);
    const touched: { row: number; column: number }[] = [];
    for (let r = area.row; r < area.row + area.rowCount; r++) {
      const line = sheet.cells.get(r);
      if (!line) continue;
      for (let c = area.column; c < area.column + area.columnCount; c++) {
        if (isEmpty(line.get(c)) || this.writes.spills.covering(sheet, r, c)) continue;
        this.writes.put(sheet, r, c, (cell) => { cell.formula = undefined; cell.value = ""; });
        touched.push({ row: r, column: c });
      }
    }
    if (touched.length === 0) return;
    this.writes.settle(sheet, touched);
    this.calculate();
  }

  /**
   * A formula's result spilled from its anchor: the values land as they are (a custom function's results
   * are values, never formulas), the anchor keeps the formula. A row shorter than the widest is padded
   * with "". The formula's previous spill goes first; if the new result would cover a non-empty cell,
   * nothing is written but the anchor, which shows #SPILL!, as Excel does.
   */
  spill(sheetName: string, at: string, formula: string, grid: Scalar[][], formats?: (string | null)[][], typed?: (RichValue | null)[][]): SpillInfo {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    this.writes.put(sheet, row, column, (cell) => { cell.formula = formula; cell.value = ""; });
    const spill: Spill = { sheet, row, column, formula, grid, formats, typed, area: resultArea(row, column, grid), blockedBy: null };
    this.writes.place(spill);
    this.calculate();
    return this.writes.info(spill);
  }

  /** The spill anchored at, or covering, this cell. */
  spillAt(sheetName: string, at: string): SpillInfo | undefined {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    const spill = this.writes.spills.anchoredAt(sheet, row, column) ?? this.writes.spills.covering(sheet, row, column);
    return spill && this.writes.info(spill);
  }

  /** Every formula entered through the grid that still stands, for a recalculation. */
  formulas(): { sheet: string; address: string; formula: string }[] {
    return this.writes.spills.all().map((s) => ({ sheet: s.sheet.name, address: address(s.row, s.column), formula: s.formula }));
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
    this.calculate({ sheet, area: { row, column: 0, rowCount: 1, columnCount: 16_384 }, changeType: "RowDeleted" });
  }

  /** Sorts a table's body by one of its columns (by header text). */
  sortTable(tableName: string, header: string, ascending = true): void {
    const table = this.model.table(tableName);
    if (!table) throw new FakeExcelError("ItemNotFound", `The table '${tableName}' doesn't exist.`);
    const { sheet, area } = table;
    const column = Array.from({ length: area.columnCount }, (_, c) => sheet.cell(area.row, area.column + c)?.value).indexOf(header);
    if (column < 0) throw new FakeExcelError("InvalidArgument", `The table has no column '${header}'.`);
    const rows = Array.from({ length: area.rowCount - 1 }, (_, i) => area.row + 1 + i);
    const lines = rows.map((r) => sheet.cells.get(r) ?? new CellLine());
    const key = (line: CellLine) => line.get(area.column + column)?.value ?? "";
    lines.sort((x, y) => {
      const order = cellOrder(key(x), key(y));
      return ascending ? order : -order;
    });
    rows.forEach((r, i) => sheet.cells.set(r, lines[i]));
    this.calculate({ sheet, area: { ...area, row: area.row + 1, rowCount: area.rowCount - 1 }, changeType: "RowSorted" });
  }

  /**
   * What a formula referring to this cell reads: the data type it holds whole (a person's entity or error, a
   * date or an amount a spill put there), else its value. A formula showing an error (#SPILL!, #VALUE!) is
   * that error. Whether the function is handed the data type or its basic value is its metadata's
   * (formula-arguments.ts).
   */
  referencedAt(sheetName: string, at: string): Scalar | RichValue {
    const sheet = this.sheet(sheetName);
    const { row, column } = parseArea(at);
    const spill = this.writes.spills.anchoredAt(sheet, row, column) ?? this.writes.spills.covering(sheet, row, column);
    const cell = sheet.cell(row, column);
    if (spill && !spill.blockedBy) {
      const typed = spill.typed?.[row - spill.row]?.[column - spill.column];
      if (typed) return structuredClone(typed);
    }
    if (cell?.formula !== undefined && typeof cell.value === "string" && errorTypeOf(cell.value)) {
      return { type: "Error", basicValue: cell.value, errorType: errorTypeOf(cell.value) } as Excel.ErrorCellValue;
    }
    if (cell?.rich && cell.formula === undefined) return structuredClone(cell.rich);
    return cell?.value ?? "";
  }

  /** A cell's value as a person sees it in the grid. */
  valueAt(sheetName: string, at: string): Scalar {
    const { row, column } = parseArea(at);
    return this.sheet(sheetName).cell(row, column)?.value ?? "";
  }
}

/** A fill's copy of one cell: content and format; a formula's relative references move with it. */
function copyCell(from: Cell | undefined, to: Cell, rowsDown: number): void {
  to.numberFormat = from?.numberFormat ?? "General";
  to.fill = from?.fill ? from.fill : undefined;
  to.bold = from?.bold ? true : undefined;
  if (from?.formula !== undefined) {
    writeFormula(to, shiftFormula(from.formula, rowsDown));
    return;
  }
  to.formula = undefined;
  to.value = from?.value ?? "";
}
