/**
 * Reading a table body within Excel on the web's 5 MB response limit: rows are read in chunks sized from
 * the bytes per row seen so far, and a chunk Excel refuses as too large is read again in halves.
 * https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization
 */
import type { XContext, XRange, XWorksheet } from "./api";
import { plainBytes } from "../port/cells";
import type { CellValue } from "../port/workbook";

/** What one response may carry; Excel on the web refuses 5 MB. */
export const RESPONSE_BUDGET_BYTES = 4_000_000;
/** Cells of the first chunk, before any row has been measured: small, so that even full cells (32,767 characters) rarely make Excel refuse it. */
const FIRST_CHUNK_CELLS = 2_000;

type Property = "values" | "formulas";

const isTooLarge = (error: unknown) => (error as { code?: string } | null)?.code === "ResponsePayloadSizeLimitExceeded";

/**
 * Reads `columns` (sheet column indexes) of rows firstRow..firstRow+rowCount-1; for each property, one
 * array per column. All columns of a chunk travel in one round trip.
 */
export async function readColumnsOf(
  context: XContext, sheet: XWorksheet, firstRow: number, rowCount: number, columns: number[], properties: Property[],
  budget = RESPONSE_BUDGET_BYTES,
): Promise<Record<Property, CellValue[][]>> {
  const out = { values: columns.map(() => [] as CellValue[]), formulas: columns.map(() => [] as CellValue[]) };
  if (columns.length === 0 || rowCount === 0) return out;
  let step = Math.max(1, Math.min(rowCount, Math.floor(FIRST_CHUNK_CELLS / (columns.length * properties.length))));
  let widestRow = 0;
  for (let start = 0; start < rowCount; ) {
    const n = Math.min(step, rowCount - start);
    const ranges: XRange[] = columns.map((column) => sheet.getRangeByIndexes(firstRow + start, column, n, 1).load(properties));
    try {
      await context.sync();
    } catch (error) {
      if (!isTooLarge(error) || n === 1) throw error;
      step = Math.ceil(n / 2);
      continue;
    }
    let bytes = 0;
    ranges.forEach((range, i) => {
      for (const property of properties) {
        const cells = range[property] as CellValue[][];
        for (const line of cells) {
          out[property][i].push(line[0]);
          bytes += plainBytes(line[0]) + 2;
        }
      }
    });
    widestRow = Math.max(widestRow, bytes / n);
    start += n;
    step = Math.max(1, Math.floor(budget / (widestRow * 1.5 + 1)));
  }
  return out;
}

/** Rows (not columns) of the same read: row r is [column0[r], column1[r], …]. */
export function toRows(columns: CellValue[][]): CellValue[][] {
  const count = columns[0]?.length ?? 0;
  return Array.from({ length: count }, (_, r) => columns.map((column) => column[r]));
}
