/** A cell's value as the grid shows it, by its number format (the subset of formats the add-in writes). */
import { serialToDate, serialToTimestamp } from "../sheets";
import type { Scalar } from "./fake-excel";

export function display(value: Scalar, format: string): string {
  if (typeof value === "number") {
    if (format === "yyyy-mm-dd") return serialToDate(value);
    if (format.startsWith("yyyy-mm-dd h")) return serialToTimestamp(value).replace("T", " ").replace("Z", "");
    // "#,##0", "#,##0.00", "#,##0.000": as many decimals as the format has zeros after its point.
    if (format.startsWith("#,##0")) {
      const decimals = /\.(0+)$/.exec(format)?.[1].length ?? 0;
      return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    }
    if (format.includes("0.00")) return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/**
 * Excel's rule for a number or date wider than its column: the cell shows `#` across its width instead of a
 * cut figure ("####"), so a person never reads 1,250.0 for 1,250,000.00 or 2026-06 for 2026-06-12. Text is not
 * cut this way (the grid lets it run into empty cells to its right). `width` is what the column holds, `measure`
 * the width of a text in the grid's font.
 */
export function fitNumber(text: string, width: number, measure: (text: string) => number): string {
  if (measure(text) <= width) return text;
  return "#".repeat(Math.max(1, Math.floor(width / measure("#"))));
}

/** What the formula bar shows for a cell: its formula, a date as a date, anything else as stored. */
export function barText(cell: { value: Scalar; formula?: string; numberFormat: string } | undefined): string {
  if (!cell) return "";
  if (cell.formula !== undefined) return cell.formula;
  if (typeof cell.value === "number" && /^yyyy-mm-dd/.test(cell.numberFormat)) return display(cell.value, cell.numberFormat);
  return typeof cell.value === "boolean" ? display(cell.value, "General") : String(cell.value);
}
