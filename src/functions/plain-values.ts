/**
 * A spill as an Excel without data types from custom functions shows it (CustomFunctionsRuntime 1.3: Office
 * 2024). There a function's result carries no number format, and a spilled cell shows with its own format,
 * General unless the person set one: a date returned as its serial read 46322 (issue 43). So, in that Excel
 * only (docs/functions.md, "What a cell shows in each Excel"):
 * - dates and timestamps are ISO text, "2026-10-27" and "2026-10-27 14:05:00" (UTC, as the header says): read
 *   at once, sorted right by Sort and the filter, taken back by the date arguments (args.ts), and turned into
 *   Excel dates by DATEVALUE or `--` where date arithmetic needs them;
 * - amounts, and every other number, stay numbers, so SUM, SUMIF and a pivot add them: a total that skipped
 *   amounts written as text would be wrong without a sign, worse than "16" shown for 16.00 (the currency is in
 *   its own column; a number format set on the column shows the decimals).
 */
import type { ColumnKind } from "../sheets/columns";
import { serialToDate, serialToTimestamp } from "../sheets/port/values";
import type { Spill } from "../sheets/spill/spill";
import type { CellValue } from "../sheets/port/workbook";

/** One value of a column of `kind`, as the plain spill holds it: a dated number as its ISO text, the rest as it is. */
export function plainValue(kind: ColumnKind, value: CellValue): CellValue {
  if (typeof value !== "number") return value;
  if (kind === "date") return serialToDate(value);
  // "2026-10-27T14:05:00Z" -> "2026-10-27 14:05:00": the tables' format, yyyy-mm-dd hh:mm:ss, as text.
  if (kind === "timestamp") return serialToTimestamp(value).replace("T", " ").replace(/Z$/, "");
  return value;
}

/** A list or a record without data types: a header row, then the rows, each cell as `plainValue` gives it. */
export function plainGrid(spill: Spill): CellValue[][] {
  const kinds = spill.columns.map((c) => c.kind);
  return [spill.columns.map((c) => c.header), ...spill.rows.map((row) => row.map((value, i) => plainValue(kinds[i], value)))];
}
