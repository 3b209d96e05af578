/**
 * The sheet grid, virtualized: a canvas as tall as the sheet's rows scrolls inside #grid, and only the
 * rows in view (plus a few either side) are built, so a 50,000-row table costs what 40 rows cost. Rows
 * have one fixed height, so a row's place is arithmetic; cells are read from the model's Map, never by
 * scanning the sheet. Text goes in through textContent only.
 */
import { h } from "../taskpane/dom";
import type { CellLine, SheetModel } from "./fake-excel";
import { columnLetters, type Area } from "./fake-excel/address";
import { inArea } from "./fake-excel/spills";
import { display, fitNumber } from "./display";
import { areaOf, type Point, type Selection } from "./selection";

const ROW_HEIGHT = 22;
const ROW_HEAD_WIDTH = 48;
const OVERSCAN = 8;
/** A cell's left and right padding and its right border (workbench.css), which its text does not get. */
const CELL_PADDING = 9;
/** How far text runs on into empty cells to its right. */
const OVERFLOW_CELLS = 8;
/** Rows and columns drawn beyond the data, as Excel's grid goes on. */
const SPARE_ROWS = 30, SPARE_COLUMNS = 3, MIN_ROWS = 40, MIN_COLUMNS = 10;

export interface GridState {
  sheet: SheetModel;
  selection: Selection;
  /** The spill range of the active cell's formula, outlined as Excel does. */
  spill: Area | null;
  /** The rows a fill-handle drag would fill. */
  fillTarget: Area | null;
}

export interface GridEvents {
  cellDown(p: Point, event: MouseEvent): void;
  cellOver(p: Point, event: MouseEvent): void;
  fillHandleDown(event: MouseEvent): void;
  scrolled(): void;
}

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

export class GridView {
  /** Scrolls with the grid; the cell editor lives here so that redrawing rows never takes its focus. */
  readonly canvas: HTMLElement;
  private readonly table: HTMLTableElement;
  private widths: number[] = [];
  private rows = MIN_ROWS;
  private first = 0;
  private scheduled = false;
  private readonly ruler = document.createElement("canvas").getContext("2d");

  constructor(private readonly scroller: HTMLElement, events: GridEvents) {
    this.table = h("table", { role: "grid" });
    this.canvas = h("div", { className: "canvas" }, this.table);
    scroller.replaceChildren(this.canvas);
    const at = (event: Event): Point | null => {
      const td = (event.target as Element).closest?.("td[data-row]");
      return td instanceof HTMLElement ? { row: Number(td.dataset.row), column: Number(td.dataset.col) } : null;
    };
    this.canvas.addEventListener("mousedown", (e) => {
      if ((e.target as Element).classList.contains("fill-handle")) return events.fillHandleDown(e);
      // A double-click is the second mousedown's click count: the first click redraws the rows, so the
      // browser's dblclick, whose two clicks then hit different elements, would not come.
      const p = at(e);
      if (p && e.button === 0) events.cellDown(p, e);
    });
    this.canvas.addEventListener("mouseover", (e) => {
      const p = at(e);
      if (p && e.buttons === 1) events.cellOver(p, e);
    });
    scroller.addEventListener("scroll", () => {
      if (this.scheduled) return;
      this.scheduled = true;
      requestAnimationFrame(() => {
        this.scheduled = false;
        events.scrolled();
      });
    });
  }

  render(state: GridState): void {
    const { sheet, selection } = state;
    const columns = this.measure(sheet, selection);
    const top = this.scroller.scrollTop;
    const view = this.scroller.clientHeight || 600;
    this.first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows, Math.ceil((top + view) / ROW_HEIGHT) + OVERSCAN);
    const total = ROW_HEAD_WIDTH + this.widths.reduce((a, b) => a + b, 0);
    this.canvas.style.height = `${ROW_HEIGHT * (this.rows + 1)}px`;
    this.canvas.style.width = `${total}px`;
    this.table.style.top = `${this.first * ROW_HEIGHT}px`;
    this.table.style.width = `${total}px`;
    this.table.setAttribute("aria-label", sheet.name);
    this.table.setAttribute("aria-rowcount", String(this.rows + 1));
    const range = areaOf(selection);
    const colgroup = h("colgroup", {}, h("col", { style: `width:${ROW_HEAD_WIDTH}px` }), ...this.widths.map((w) => h("col", { style: `width:${w}px` })));
    const head = h("tr", {}, h("th", { className: "rowhead corner" }),
      ...Array.from({ length: columns }, (_, c) => h("th", { className: c >= range.column && c < range.column + range.columnCount ? "on" : "" }, columnLetters(c))));
    const body: HTMLElement[] = [];
    for (let r = this.first; r < last; r++) {
      const line = sheet.cells.get(r);
      const tr = h("tr", { "aria-rowindex": r + 2 }, h("th", { className: r >= range.row && r < range.row + range.rowCount ? "rowhead on" : "rowhead" }, r + 1));
      for (let c = 0; c < columns; c++) tr.appendChild(this.cell(line, r, c, state, range));
      body.push(tr);
    }
    this.table.replaceChildren(colgroup, h("thead", {}, head), h("tbody", {}, ...body));
  }

  private cell(line: CellLine | undefined, r: number, c: number, state: GridState, range: Area): HTMLElement {
    const { selection, spill, fillTarget } = state;
    const cell = line?.get(c);
    const classes = [];
    if (typeof cell?.value === "number") classes.push("num");
    if (cell?.bold) classes.push("bold");
    if (r === selection.anchor.row && c === selection.anchor.column) classes.push("active");
    else if (inArea(range, r, c)) classes.push("in-range");
    if (spill && inArea(spill, r, c)) classes.push("spill");
    if (fillTarget && inArea(fillTarget, r, c)) classes.push("fill-target");
    const text = cell ? display(cell.value, cell.numberFormat) : "";
    const room = typeof cell?.value === "string" && text !== "" ? this.room(line!, c) : this.widths[c];
    if (room > this.widths[c]) classes.push("over");
    const td = h("td", { "data-cell": `${columnLetters(c)}${r + 1}`, "data-row": r, "data-col": c, role: "gridcell", className: classes.join(" ") },
      typeof cell?.value === "number" ? fitNumber(text, this.widths[c] - CELL_PADDING, (t) => this.textWidth(t))
        : room > this.widths[c] ? h("span", { style: `max-width:${room - CELL_PADDING}px` }, text) : text);
    // Fills come from the add-in's own constants; anything else is not painted.
    if (cell?.fill && /^#[0-9A-F]{6}$/i.test(cell.fill)) td.style.backgroundColor = cell.fill;
    if (r === range.row + range.rowCount - 1 && c === range.column + range.columnCount - 1) td.appendChild(h("div", { className: "fill-handle", title: "Drag down to fill" }));
    return td;
  }

  /** The width a text in column `c` may take: its own, and that of the empty cells right of it (Excel's overflow). */
  private room(line: CellLine, c: number): number {
    let room = this.widths[c];
    for (let next = c + 1; next < Math.min(this.widths.length, c + 1 + OVERFLOW_CELLS); next++) {
      const cell = line.get(next);
      if (cell && (cell.value !== "" || cell.formula !== undefined)) break;
      room += this.widths[next];
    }
    return room;
  }

  /** A text's width in the grid's font (Canvas measureText; an estimate where the page has no canvas). */
  private textWidth(text: string): number {
    if (!this.ruler) return text.length * 7;
    this.ruler.font = getComputedStyle(this.table).font || "12px sans-serif";
    return this.ruler.measureText(text).width;
  }

  /** The sheet's extent (rows from the Map's keys, columns from tables and the rows near the top) and column widths. */
  private measure(sheet: SheetModel, selection: Selection): number {
    let maxRow = -1;
    for (const row of sheet.cells.keys()) if (row > maxRow) maxRow = row;
    this.rows = Math.max(MIN_ROWS, maxRow + 1 + SPARE_ROWS, selection.focus.row + SPARE_ROWS, selection.anchor.row + SPARE_ROWS);
    let maxColumn = Math.max(selection.focus.column, selection.anchor.column);
    const sample: CellLine[] = [];
    for (let r = 0; r < 40; r++) {
      const line = sheet.cells.get(r);
      if (line) sample.push(line);
    }
    const visible = Math.ceil((this.scroller.clientHeight || 600) / ROW_HEIGHT) + OVERSCAN;
    for (let r = Math.floor(this.scroller.scrollTop / ROW_HEIGHT); r < Math.floor(this.scroller.scrollTop / ROW_HEIGHT) + visible; r++) {
      const line = sheet.cells.get(r);
      if (line) for (const c of line.keys()) maxColumn = Math.max(maxColumn, c);
    }
    for (const line of sample) for (const [c, cell] of line) if (cell.value !== "") maxColumn = Math.max(maxColumn, c);
    const columns = Math.max(MIN_COLUMNS, maxColumn + 1 + SPARE_COLUMNS);
    this.widths = Array.from({ length: columns }, (_, c) => {
      const set = sheet.columnWidths.get(c);
      if (set) return Math.min(320, Math.max(40, Math.round(set)));
      const shown = (cell: ReturnType<CellLine["get"]>) => (cell ? display(cell.value, cell.numberFormat) : "");
      const longest = Math.max(0, ...sample.map((line) => shown(line.get(c)).length));
      return Math.min(240, Math.max(72, longest * 7 + 12));
    });
    return columns;
  }

  /** Where a cell sits on the canvas (drawn or not). */
  box(p: Point): Box {
    const left = ROW_HEAD_WIDTH + this.widths.slice(0, p.column).reduce((a, b) => a + b, 0);
    return { top: ROW_HEIGHT * (p.row + 1), left, width: this.widths[p.column] ?? 72, height: ROW_HEIGHT };
  }

  /** Scrolls the least needed to show the cell whole (below the sticky header, right of the row numbers). */
  reveal(p: Point): void {
    const b = this.box(p);
    const s = this.scroller;
    if (b.top - ROW_HEIGHT < s.scrollTop) s.scrollTop = b.top - ROW_HEIGHT;
    else if (b.top + b.height > s.scrollTop + s.clientHeight) s.scrollTop = b.top + b.height - s.clientHeight;
    if (b.left - ROW_HEAD_WIDTH < s.scrollLeft) s.scrollLeft = b.left - ROW_HEAD_WIDTH;
    else if (b.left + b.width > s.scrollLeft + s.clientWidth) s.scrollLeft = b.left + b.width - s.clientWidth;
  }

  /**
   * Scrolls sideways the least needed to show columns `first`..`last` whole, right of the row numbers; where
   * they do not all fit, `first` wins (as Excel's Range.select shows a range's top-left first).
   */
  revealColumns(first: number, last: number): void {
    const s = this.scroller;
    const end = this.box({ row: 0, column: last });
    if (end.left + end.width > s.scrollLeft + s.clientWidth) s.scrollLeft = end.left + end.width - s.clientWidth;
    const start = this.box({ row: 0, column: first }).left - ROW_HEAD_WIDTH;
    if (start < s.scrollLeft) s.scrollLeft = start;
  }

  /** Rows a page holds (PageDown / PageUp). */
  pageRows(): number {
    return Math.max(1, Math.floor((this.scroller.clientHeight || 600) / ROW_HEIGHT) - 1);
  }
}
