/**
 * Columns sized to their content: Excel's own autofit (Range.format.autofitColumns, ExcelApi 1.2), then each
 * kept between its floor (columns.ts widthOf: an amount's millions, a timestamp whole) and WIDTH_CAP (a long
 * description or status does not make a column as wide as the screen).
 */
import { WIDTH_CAP } from "../port/cells";
import type { XContext, XWorksheet } from "./api";

/** Sizes the columns `left` … `left + floors.length - 1` over `rows` rows from `top` (the header and the body). Syncs once. */
export async function sizeColumns(context: XContext, sheet: XWorksheet, top: number, left: number, rows: number, floors: readonly (number | undefined)[]): Promise<void> {
  if (floors.length === 0) return;
  sheet.getRangeByIndexes(top, left, rows, floors.length).format.autofitColumns();
  const formats = floors.map((_, c) => sheet.getRangeByIndexes(top, left + c, 1, 1).format.load("columnWidth"));
  await context.sync();
  formats.forEach((format, c) => {
    const width = Math.min(WIDTH_CAP, Math.max(floors[c] ?? 0, format.columnWidth));
    if (width !== format.columnWidth) format.columnWidth = width;
  });
}
