/**
 * The grid's selection as Excel keeps it: an active cell (the anchor, where typing goes) and the opposite
 * corner that Shift+arrows and Shift+click move. Pure, so the moves are tested without a page.
 */
import type { SheetModel } from "./fake-excel";
import type { Area } from "./fake-excel/address";

export interface Point {
  row: number;
  column: number;
}

export interface Selection {
  /** The active cell. */
  anchor: Point;
  /** The corner Shift+arrows move; equal to the anchor for one cell. */
  focus: Point;
}

/** The sheet's limits (Excel's own: 1,048,576 rows by 16,384 columns). */
const LAST = { row: 1_048_575, column: 16_383 };

const clamp = (p: Point): Point => ({ row: Math.min(LAST.row, Math.max(0, p.row)), column: Math.min(LAST.column, Math.max(0, p.column)) });

export const single = (p: Point): Selection => ({ anchor: clamp(p), focus: clamp(p) });

export function areaOf(s: Selection): Area {
  const row = Math.min(s.anchor.row, s.focus.row), column = Math.min(s.anchor.column, s.focus.column);
  return { row, column, rowCount: Math.abs(s.anchor.row - s.focus.row) + 1, columnCount: Math.abs(s.anchor.column - s.focus.column) + 1 };
}

/** An arrow key: moves the active cell, or with Shift the far corner of the range. */
export function move(s: Selection, rows: number, columns: number, extend: boolean): Selection {
  if (extend) return { anchor: s.anchor, focus: clamp({ row: s.focus.row + rows, column: s.focus.column + columns }) };
  return single({ row: s.anchor.row + rows, column: s.anchor.column + columns });
}

/** Shift+click: the range from the active cell to the clicked one. */
export const extendTo = (s: Selection, p: Point): Selection => ({ anchor: s.anchor, focus: clamp(p) });

/**
 * Ctrl+arrow, as Excel: from a filled cell whose neighbour is filled, to the last filled cell of the run;
 * otherwise to the next filled cell, or the edge of the data (`last`) when there is none.
 */
export function jump(from: Point, rows: number, columns: number, filled: (p: Point) => boolean, last: Point): Point {
  const step = (p: Point): Point => ({ row: p.row + rows, column: p.column + columns });
  const inside = (p: Point) => p.row >= 0 && p.column >= 0 && p.row <= last.row && p.column <= last.column;
  let p = step(from);
  if (!inside(p)) return from;
  if (filled(from) && filled(p)) {
    while (inside(step(p)) && filled(step(p))) p = step(p);
    return p;
  }
  while (inside(p) && !filled(p)) {
    const next = step(p);
    if (!inside(next)) return p;
    p = next;
  }
  return p;
}

/** The cell holds a value or a formula (where Ctrl+arrows stop). */
export function filled(sheet: SheetModel, p: Point): boolean {
  const cell = sheet.cell(p.row, p.column);
  return !!cell && (cell.value !== "" || cell.formula !== undefined);
}

/** The last row with cells, and the last column of `p`'s row: how far Ctrl+arrows go. */
export function extent(sheet: SheetModel, p: Point): Point {
  let row = 0;
  for (const r of sheet.cells.keys()) row = Math.max(row, r);
  let column = p.column;
  for (const c of sheet.cells.get(p.row)?.keys() ?? []) column = Math.max(column, c);
  return { row, column };
}
