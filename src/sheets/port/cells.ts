/**
 * Cells as the adapter sends them to Excel, and what they cost in a request.
 *
 * Every value goes through `Range.valuesAsJson` as a typed cell value (ExcelApi 1.16). That is the one
 * documented way to store a string as exactly that text: through `Range.values`, "if the returned value
 * starts with a plus ("+"), minus ("-"), or equal sign ("="), Excel interprets this value as a formula"
 * (d.ts of Range.values), number-like text becomes a number and date-like text a date, and whether a Text
 * ("@") number format prevents any of it is not documented. A `String` cell value is "the value of a cell
 * containing a string": https://learn.microsoft.com/javascript/api/excel/excel.stringcellvalue
 * The self-test (self-test.ts) checks this in the user's own Excel.
 */
import type { CellValue } from "./workbook";

/** The most characters a cell holds (Excel specifications and limits). */
export const CELL_TEXT_LIMIT = 32_767;

/** The widest a column is sized to its content, in points: a long description or status does not take the screen. */
export const WIDTH_CAP = 300;

/**
 * Where a longer text is cut, this ends it, so a reader sees that the cell does not hold all of it.
 * @internal cell-limit tests expect a cut text's exact ending.
 */
export const cutMarker = (length: number) => ` … [cut by Spend Sync: ${length} characters in all]`;

/** A text that fits a cell: longer ones are cut, with the marker, never in the middle of a surrogate pair. */
export function fitCell(text: string): string {
  if (text.length <= CELL_TEXT_LIMIT) return text;
  const marker = cutMarker(text.length);
  let end = CELL_TEXT_LIMIT - marker.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}

/** The cells every table has by the thousand, one frozen object each (Excel only reads what it is sent). */
const EMPTY_CELL: Readonly<Excel.EmptyCellValue> = Object.freeze({ type: "Empty", basicValue: "" } as const);
const TRUE_CELL: Readonly<Excel.BooleanCellValue> = Object.freeze({ type: "Boolean", basicValue: true } as const);
const FALSE_CELL: Readonly<Excel.BooleanCellValue> = Object.freeze({ type: "Boolean", basicValue: false } as const);

/** The typed cell value of a port value: numbers and booleans keep their type, every string is text (read-only: some are shared). */
export function typedCell(value: CellValue): Readonly<Excel.CellValue> {
  if (typeof value === "number") return { type: "Double", basicValue: value };
  if (typeof value === "boolean") return value ? TRUE_CELL : FALSE_CELL;
  if (value === "") return EMPTY_CELL;
  return { type: "String", basicValue: fitCell(value) };
}

/** Text that JSON-quotes as itself: printable ASCII without a quote or a backslash (one byte a character). */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** UTF-8 bytes of a string once JSON-quoted, counted without building either. */
export function jsonStringBytes(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) bytes += code === 10 || code === 9 || code === 13 || code === 8 || code === 12 ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      bytes += 4; // a surrogate pair: one 4-byte UTF-8 character
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6; // a lone half: JSON.stringify escapes it as \uXXXX
    else bytes += 3;
  }
  return bytes;
}

/** Bytes of one value as `values` or `formulas` JSON (plus its comma). */
export function plainBytes(value: unknown): number {
  if (typeof value === "string") return jsonStringBytes(value) + 1;
  if (value === null || value === undefined) return 5;
  if (typeof value === "boolean") return 6;
  return 25;
}

/** Bytes of one typed cell value as JSON, e.g. {"type":"String","basicValue":"…"} (plus its comma). */
export function typedBytes(value: CellValue): number {
  if (typeof value === "string") return 32 + jsonStringBytes(value.length > CELL_TEXT_LIMIT ? fitCell(value) : value);
  return 60;
}
