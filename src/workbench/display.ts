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

/** What the formula bar shows for a cell: its formula, a date as a date, anything else as stored. */
export function barText(cell: { value: Scalar; formula?: string; numberFormat: string } | undefined): string {
  if (!cell) return "";
  if (cell.formula !== undefined) return cell.formula;
  if (typeof cell.value === "number" && /^yyyy-mm-dd/.test(cell.numberFormat)) return display(cell.value, cell.numberFormat);
  return typeof cell.value === "boolean" ? display(cell.value, "General") : String(cell.value);
}
