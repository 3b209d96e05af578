/** Rectangles of cells: what remains of one when another is taken out of it. */
import type { Area } from "../address";

export const overlaps = (a: Area, b: Area) =>
  a.row < b.row + b.rowCount && b.row < a.row + a.rowCount && a.column < b.column + b.columnCount && b.column < a.column + a.columnCount;

/** `from` without the cells of `cut`: up to four rectangles (above, below, left, right of the cut). */
export function subtractArea(from: Area, cut: Area): Area[] {
  if (!overlaps(from, cut)) return [from];
  const top = Math.max(from.row, cut.row);
  const bottom = Math.min(from.row + from.rowCount, cut.row + cut.rowCount);
  const parts: Area[] = [];
  if (top > from.row) parts.push({ ...from, rowCount: top - from.row });
  if (bottom < from.row + from.rowCount) parts.push({ ...from, row: bottom, rowCount: from.row + from.rowCount - bottom });
  const middle = { row: top, rowCount: bottom - top };
  if (cut.column > from.column) parts.push({ ...middle, column: from.column, columnCount: cut.column - from.column });
  const right = cut.column + cut.columnCount;
  if (right < from.column + from.columnCount) parts.push({ ...middle, column: right, columnCount: from.column + from.columnCount - right });
  return parts;
}
