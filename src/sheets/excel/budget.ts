/**
 * What a write costs in a request, planned before anything is queued: Excel on the web refuses a request over
 * 5 MB, so rows go in chunks whose JSON (values, formats, formulas, and each operation's own cost) stays within
 * a budget under it. Rows written in chunks (write-rows.ts, create-table.ts) and the patches of a refresh
 * (patch.ts) plan with these.
 */
import { jsonStringBytes, plainBytes, typedBytes, typedCell } from "../port/cells";
import type { CellValue } from "../port/workbook";

/** Budget of one request's JSON (values, formats, formulas). Excel on the web refuses 5 MB. */
export const REQUEST_BUDGET_BYTES = 4_000_000;
/**
 * What one queued operation costs beyond its arguments, as Microsoft's client serialises it inside Excel.run:
 * the range's object path, its Instantiate and `_KeepReference` actions, the navigation paths, the setter.
 * Measured on the wire (test/sheets/excel-adapter.test.ts pins it): a fill on a range of row 100,000 takes
 * 745 bytes, a typed value 500 plus the value itself.
 */
export const OPERATION_BYTES = 800;

/** What a row costs in a request, kept by the row (see planRows). */
export type RowCosts = WeakMap<CellValue[], { formats: readonly (string | null)[] | null; bytes: number }>;

/** Bytes of a row's number formats as JSON; a formatter's shared (frozen) rows are measured once. */
const sharedFormatBytes = new WeakMap<readonly (string | null)[], number>();
/** @internal rows-are-cut-into-requests-by-their-bytes.test.ts checks the byte count directly. */
export function bytesOfFormats(formats: readonly (string | null)[]): number {
  let bytes = sharedFormatBytes.get(formats);
  if (bytes === undefined) {
    bytes = formats.reduce((sum, f) => sum + (f === null ? 5 : jsonStringBytes(f) + 1), 2);
    if (Object.isFrozen(formats)) sharedFormatBytes.set(formats, bytes);
  }
  return bytes;
}

/**
 * Splits rows into chunks whose request bytes (as `rowBytes` counts them) stay within the budget.
 * @internal rows-are-cut-into-requests-by-their-bytes.test.ts checks the cut at the budget's edges.
 */
export function chunkRows(count: number, rowBytes: (index: number) => number, budget = REQUEST_BUDGET_BYTES): [number, number][] {
  const chunks: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const size = rowBytes(i);
    if (i > start && bytes + size > budget) {
      chunks.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (start < count) chunks.push([start, count]);
  return chunks;
}

/**
 * Rows in chunks within the request budget, with each row's own number formats. A stream passes `plannedCosts`,
 * so that a row held back and planned again (or planned to decide what to hold, then to write) is measured
 * once: its formats and bytes are kept by the row (a stream writes no formulas, and its formats are fixed).
 */
export function planRows(
  rows: CellValue[][], numberFormats: (string | null)[], formatsOf: ((row: CellValue[]) => readonly (string | null)[]) | undefined,
  formulas: (string | null)[][] | undefined, plannedCosts?: RowCosts,
): { rowFormats: (readonly (string | null)[])[] | null; chunks: [number, number][] } {
  const formatBytes = bytesOfFormats(numberFormats);
  // A row's own formats (an amount's decimals follow its currency).
  const rowFormats: (readonly (string | null)[])[] | null = formatsOf ? new Array(rows.length) : null;
  const sizes = new Array<number>(rows.length);
  const keep = formulas === undefined ? plannedCosts : undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const cost = keep?.get(row);
    if (cost) {
      sizes[i] = cost.bytes;
      if (rowFormats) rowFormats[i] = cost.formats!;
      continue;
    }
    const formats = formatsOf ? formatsOf(row) : null;
    let bytes = (formats ? bytesOfFormats(formats) : formatBytes) + 4;
    for (const value of row) bytes += typedBytes(value);
    const rowFormulas = formulas?.[i];
    if (rowFormulas?.some((f) => f !== null)) for (const formula of rowFormulas) bytes += plainBytes(formula);
    sizes[i] = bytes;
    if (rowFormats) rowFormats[i] = formats!;
    keep?.set(row, { formats, bytes });
  }
  return { rowFormats, chunks: chunkRows(rows.length, (i) => sizes[i], REQUEST_BUDGET_BYTES - 4 * OPERATION_BYTES) };
}

/** One chunk's arrays, as its range's setters take them (built before any of them is queued on a context). */
interface Chunk {
  formats: (string | null)[][] | null;
  values: Readonly<Excel.CellValue>[][];
  formulas: (string | null)[][] | null;
}

export function buildChunk(
  rows: CellValue[][], start: number, end: number, columns: number, numberFormats: (string | null)[],
  rowFormats: (readonly (string | null)[])[] | null, formulas: (string | null)[][] | undefined,
): Chunk {
  const part = start === 0 && end === rows.length ? rows : rows.slice(start, end);
  // Office.js types the setter as any[][] (mutable); it only reads the rows, which formatters share frozen.
  const formats = rowFormats ? (rowFormats.slice(start, end) as (string | null)[][]) : numberFormats.some((f) => f !== null) ? part.map(() => numberFormats) : null;
  const values = part.map((row, r) => row.map((value, c) => typedCell(formulas?.[start + r]?.[c] ? "" : value)));
  const lines = part.map((_, r) => (formulas?.[start + r]?.some((f) => f !== null) ? formulas[start + r] : null));
  return {
    formats,
    values,
    formulas: lines.some((line) => line !== null) ? lines.map((line) => Array.from({ length: columns }, (_, c) => line?.[c] ?? null)) : null,
  };
}
