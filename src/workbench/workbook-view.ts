/**
 * The in-memory Excel as a person uses it: sheet tabs, a name box, a formula bar, and a grid where one
 * selects, types, edits, pastes, fills and clears as in Excel. Every change goes through UserActions (what
 * a person does), never through the API the add-in uses. While a cell is edited, Excel is in cell edit
 * mode (UserActions.beginCellEdit), so the add-in's batches wait for it, as they would in Excel.
 */
import type { FakeExcel, SheetModel } from "./fake-excel";
import { formatArea, parseArea } from "./fake-excel/address";
import { callsCustomFunction } from "./fake-excel/formula-engine";
import { formatTsv, parseTsv } from "./clipboard";
import { barText, display } from "./display";
import { CellEditor } from "./editor";
import type { Entries } from "./entry";
import { GridView } from "./grid";
import type { Command, EditMode } from "./keyboard";
import { areaOf, extendTo, extent, filled, jump, move, single, type Point, type Selection } from "./selection";
import { StopAlert } from "./stop-alert";
import { renderTabs } from "./tabs";
import { wireInputs } from "./workbook-inputs";

export interface WorkbookViewElements {
  grid: HTMLElement;
  tabs: HTMLElement;
  nameBox: HTMLInputElement;
  bar: HTMLInputElement;
  status: HTMLElement;
}

const addressOf = (p: Point) => formatArea({ ...p, rowCount: 1, columnCount: 1 });

export class WorkbookView {
  sheetName: string;
  private readonly selections = new Map<string, Selection>();
  private readonly grid: GridView;
  private readonly editor: CellEditor;
  /** Excel's Stop alert for a refused entry: Retry or Cancel, never a silent restore. */
  private readonly alert: StopAlert;
  private cellEdit: { end(): void } | null = null;
  /** The column a run of Tabs started from: Enter returns to it, as in Excel. */
  private tabColumn: number | null = null;
  private dragging = false;
  private fillTo: number | null = null;

  constructor(private readonly excel: FakeExcel, private readonly entries: Entries, private readonly el: WorkbookViewElements) {
    this.sheetName = excel.model.sheets[0].name;
    this.grid = new GridView(el.grid, {
      cellDown: (p, e) => this.cellDown(p, e),
      cellOver: (p) => this.cellOver(p),
      fillHandleDown: (e) => { e.preventDefault(); this.fillTo = areaOf(this.selection).row; },
      scrolled: () => this.render(),
    });
    this.editor = new CellEditor(this.grid.canvas, el.bar);
    this.alert = new StopAlert(el.grid.parentElement ?? el.grid);
    wireInputs(this, this.editor, el);
    window.addEventListener("mouseup", () => this.mouseUp());
  }

  get selection(): Selection {
    return this.selections.get(this.sheetName) ?? single({ row: 0, column: 0 });
  }

  private sheet(): SheetModel {
    return this.excel.model.sheet(this.sheetName)!;
  }

  /** A cell is being edited (the add-in's batches wait; the page does not switch sheets under the person). */
  get editing(): boolean {
    return this.editor.editing;
  }

  private get active(): string {
    return addressOf(this.selection.anchor);
  }

  /** Redraws the tabs, the rows in view and the bars; the formula bar is left alone while it is typed in. */
  render(): void {
    const visible = this.excel.model.sheets.filter((s) => s.visibility === "Visible");
    if (!visible.some((s) => s.name === this.sheetName)) this.sheetName = visible[0].name;
    renderTabs(this.el.tabs, visible.map((s) => s.name), this.sheetName, (name) => this.showSheet(name));
    const { anchor } = this.selection;
    const spill = this.excel.user.spillAt(this.sheetName, this.active);
    this.grid.render({
      sheet: this.sheet(), selection: this.selection,
      spill: spill && !spill.blockedBy ? parseArea(spill.area) : null,
      fillTarget: this.fillTo === null ? null : { ...areaOf(this.selection), rowCount: this.fillTo - areaOf(this.selection).row + 1 },
    });
    this.editor.place(this.grid.box(anchor));
    if (document.activeElement !== this.el.nameBox) this.el.nameBox.value = this.active;
    if (!this.editor.editing) this.el.bar.value = barText(this.sheet().cell(anchor.row, anchor.column));
    const message = this.entries.messageOf(this.sheetName, this.active);
    this.el.status.className = message?.kind ?? "";
    this.el.status.textContent = message?.text ?? "";
  }

  select(selection: Selection, options: { keepTabColumn?: boolean } = {}): void {
    if (!options.keepTabColumn) this.tabColumn = null;
    this.selections.set(this.sheetName, selection);
    this.grid.reveal(selection.focus);
    this.render();
  }

  showSheet(name: string, at?: Point): void {
    if (!this.commit()) return;
    this.sheetName = name;
    if (at) this.selections.set(name, single(at));
    this.render();
    this.grid.reveal(this.selection.anchor);
    this.render();
  }

  /** Keeps the keyboard on the grid (after a click, a commit in the formula bar, the name box). */
  focus(): void {
    if (this.alert.open) this.alert.focus();
    else this.editor.focus();
  }

  run(command: Command): void {
    if (this.alert.open) return this.alert.focus();
    const sel = this.selection;
    switch (command.kind) {
      case "commit": {
        if (!this.commit({ redraw: false })) return;
        let column = sel.anchor.column + command.columns;
        if (command.tab) this.tabColumn ??= sel.anchor.column;
        else if (command.rows !== 0 && this.tabColumn !== null) column = this.tabColumn;
        this.select(single({ row: sel.anchor.row + command.rows, column }), { keepTabColumn: command.tab });
        return;
      }
      case "cancel": return this.cancel();
      case "edit":
        if (this.editor.mode === "idle") this.beginEdit("edit", "cell");
        else this.editor.mode = this.editor.mode === "edit" ? "enter" : "edit";
        return;
      case "move": {
        if (!command.jump) return this.select(move(sel, command.rows, command.columns, command.extend));
        const to = jump(command.extend ? sel.focus : sel.anchor, command.rows, command.columns, (p) => filled(this.sheet(), p), extent(this.sheet(), sel.anchor));
        return this.select(command.extend ? extendTo(sel, to) : single(to));
      }
      case "page": return this.select(move(sel, command.pages * this.grid.pageRows(), 0, command.extend));
      case "home": return this.select(single({ row: 0, column: 0 }));
      case "clear": return this.clear();
      case "fill-down": return this.fillDown(formatArea(areaOf(sel)));
    }
  }

  /** Scrolls sideways the least needed to show columns `first`..`last` of the sheet shown (see GridView.revealColumns). */
  revealColumns(first: number, last: number): void {
    this.grid.revealColumns(first, last);
    this.render();
  }

  beginEdit(mode: Exclude<EditMode, "idle">, source: "cell" | "bar", typed?: string): void {
    const { anchor } = this.selection;
    const text = barText(this.sheet().cell(anchor.row, anchor.column));
    try {
      this.cellEdit = this.excel.user.beginCellEdit(this.sheetName, this.active);
    } catch {
      this.cellEdit = null; // another edit is open (a test's); typing still works
    }
    this.editor.open(mode, source, text, typed ?? text);
  }

  /**
   * Enters what was typed. A value the cell refuses is not entered: Excel's Stop alert asks Retry (the edit goes
   * on, the text kept) or Cancel (the old value back); whatever ended the edit (a key, a click elsewhere) is not
   * carried out. While the alert is open, nothing is entered.
   */
  commit(options: { redraw?: boolean } = {}): boolean {
    if (!this.editor.editing) return true;
    if (this.alert.open) return false;
    const text = this.editor.text();
    if (text !== this.editor.original) {
      const outcome = this.entries.enter(this.sheetName, this.active, text);
      if (!outcome.ok) {
        this.render();
        this.refuse(outcome.message);
        return false;
      }
    }
    this.endEdit();
    // A move follows most commits and redraws anyway; one redraw per keystroke keeps 50,000 rows quick.
    if (options.redraw !== false) this.render();
    return true;
  }

  private refuse(message: string): void {
    const source = this.editor.source;
    const address = this.active;
    const sheet = this.sheetName;
    this.alert.show(message, (choice) => {
      if (choice === "cancel") {
        this.entries.forget(sheet, address);
        this.cancel();
        this.focus();
        return;
      }
      // Retry: back in the edit with the typed text selected, where it was typed.
      const input = source === "bar" ? this.el.bar : this.editor.input;
      input.focus({ preventScroll: true });
      input.select();
    });
  }

  cancel(): void {
    if (!this.editor.editing || this.alert.open) return;
    this.endEdit();
    this.render();
  }

  private endEdit(): void {
    this.editor.close();
    this.cellEdit?.end();
    this.cellEdit = null;
  }

  clear(): void {
    const area = areaOf(this.selection);
    this.excel.user.clear(this.sheetName, formatArea(area));
    this.entries.forgetArea(this.sheetName, area);
    this.render();
  }

  fillDown(range: string): void {
    for (const at of this.excel.user.fillDown(this.sheetName, range)) this.calculate(at);
    this.render();
  }

  /** Ctrl+V: the text's block lands at the selection's top-left; one value fills a whole selection, as in Excel. */
  paste(text: string): void {
    const block = parseTsv(text);
    if (block.length === 0) return;
    const area = areaOf(this.selection);
    const grid = block.length === 1 && block[0].length === 1
      ? Array.from({ length: area.rowCount }, () => Array.from({ length: area.columnCount }, () => block[0][0]))
      : block;
    const at = { row: area.row, column: area.column };
    for (const cell of this.excel.user.pasteBlock(this.sheetName, addressOf(at), grid)) this.calculate(cell);
    const width = Math.max(...grid.map((r) => r.length));
    this.select({ anchor: at, focus: { row: at.row + grid.length - 1, column: at.column + width - 1 } });
  }

  /** Ctrl+C: the selection as Excel puts it on the clipboard. */
  copyText(): string {
    const a = areaOf(this.selection);
    const sheet = this.sheet();
    return formatTsv(Array.from({ length: a.rowCount }, (_, r) => Array.from({ length: a.columnCount }, (_, c) => {
      const cell = sheet.cell(a.row + r, a.column + c);
      return cell ? display(cell.value, cell.numberFormat) : "";
    })));
  }

  private calculate(address: string): void {
    const { row, column } = parseArea(address);
    const formula = this.sheet().cell(row, column)?.formula;
    // Excel's own formulas were calculated by the in-memory Excel as they landed; the add-in's are called here.
    if (formula && callsCustomFunction(formula)) void this.entries.calculate(this.sheetName, address, formula);
  }

  private cellDown(p: Point, e: MouseEvent): void {
    // The grid keeps the keyboard: no focus change, no text selection; clicking away commits, as in Excel (a
    // refused value: the Stop alert, and the click is not carried out).
    e.preventDefault();
    if (!this.commit()) return this.focus();
    this.select(e.shiftKey ? extendTo(this.selection, p) : single(p));
    this.focus();
    if (e.detail >= 2 && !e.shiftKey) this.beginEdit("edit", "cell");
    else this.dragging = true;
  }

  private cellOver(p: Point): void {
    if (this.fillTo !== null) {
      this.fillTo = Math.max(p.row, areaOf(this.selection).row + areaOf(this.selection).rowCount - 1);
      this.render();
    } else if (this.dragging) this.select(extendTo(this.selection, p));
  }

  /** The end of a drag; a fill-handle drag copies the selection's top row down to where it ended (as Ctrl+D). */
  private mouseUp(): void {
    this.dragging = false;
    if (this.fillTo === null) return;
    const area = areaOf(this.selection);
    const to = this.fillTo;
    this.fillTo = null;
    if (to <= area.row + area.rowCount - 1) return this.render();
    const range = { ...area, rowCount: to - area.row + 1 };
    this.selections.set(this.sheetName, { anchor: this.selection.anchor, focus: { row: to, column: area.column + area.columnCount - 1 } });
    this.fillDown(formatArea(range));
    this.focus();
  }
}
