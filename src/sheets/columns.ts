/** A table column: where its value comes from, how Excel shows it, whether the user may edit it. */
import { readDate, timestampToSerial } from "./port/values";
import type { CellValue } from "./port/workbook";

export type ColumnKind = "id" | "text" | "entry" | "integer" | "number" | "amount" | "percent" | "date" | "timestamp" | "boolean";

export interface Column<T> {
  /** Stable key (the tracked ones are the PATCH field names). */
  key: string;
  header: string;
  kind: ColumnKind;
  /**
   * The cell's value of a record. A method, so that a column of any record type is a `Column<object>`: a
   * resource's module (resources/) pairs its columns with the records of its own calls, and the few places that
   * apply a column to a record the API did not check (a malformed one) catch what it throws.
   */
  value(record: T): unknown;
  /** One of state, accounted_id, paid_id, paid_at: the user edits it and Sync states sends it. */
  editable?: boolean;
  /** An in-cell dropdown listing these values. */
  dropdown?: readonly string[];
  /** The narrowest the column is made, in points (it is sized to its content above that: widthOf). */
  width?: number;
  /** For an amount: the key of the column holding its currency (its decimals follow it: money-formats.ts). */
  currencyKey?: string;
  /** For an amount always in one currency (USD amount). */
  currency?: string;
}

/**
 * Excel number format per kind. Text and ids use "@" so Excel keeps what a person types there as typed: no
 * formulas, no lost zeros. `entry` is text a person fills in, by hand or with a formula (State, Accounted ID,
 * Paid ID: issue 47): General, because a formula typed into a Text cell stays text in Excel. The service's text
 * there stays exactly that text all the same: every value is written as a typed String cell value (cells.ts), so
 * the format is not what keeps it text (docs/excel-checks.md, "Text safety").
 */
export const NUMBER_FORMATS: Record<ColumnKind, string> = {
  id: "@",
  text: "@",
  entry: "General",
  boolean: "@",
  integer: "0",
  number: "0.00",
  amount: "#,##0.00",
  percent: "0.00",
  date: "yyyy-mm-dd",
  timestamp: "yyyy-mm-dd hh:mm:ss",
};

/**
 * The narrowest a column is made, in points: its own, or its kind's. An amount holds "12,345,678,901.12" (COP,
 * IDR and the like run to millions with two decimals: at Excel's default width such a figure would show as
 * "#####"); a timestamp "2026-06-12 08:00:00" whole, never "2026-06-12 08:…". Above it, columns are sized to
 * their content (Range.format.autofitColumns, ExcelApi 1.2), up to WIDTH_CAP (port/cells.ts).
 */
export const widthOf = (column: Pick<Column<unknown>, "kind" | "width">): number | undefined =>
  column.width ?? KIND_WIDTHS[column.kind];

const KIND_WIDTHS: Partial<Record<ColumnKind, number>> = { amount: 95, timestamp: 118, date: 68 };

/**
 * The cell for a service value. Missing values are empty cells. A value is converted only when it is of
 * the kind's own type (a number for numbers, a real date for dates, a readable timestamp for timestamps);
 * anything else is kept as exactly its text (the adapter writes strings as typed text), so "00123",
 * "1E5" or "=HYPERLINK(…)" in a number or date column shows as sent, never as a number or a formula.
 * Runs once per cell of a load: the text of a value that is not a string is built only when it is shown.
 */
export function toCell(kind: ColumnKind, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  if (typeof raw !== "string") return nonText(kind, raw);
  switch (kind) {
    case "date":
      return readDate(raw) ?? raw;
    case "timestamp":
      return timestampToSerial(raw) ?? raw;
    default:
      return raw;
  }
}

function nonText(kind: ColumnKind, raw: unknown): CellValue {
  switch (kind) {
    case "boolean":
      if (typeof raw === "boolean") return raw ? "Yes" : "No";
      break;
    case "integer":
    case "number":
    case "amount":
    case "percent":
      if (typeof raw === "number" && Number.isFinite(raw)) return raw;
      break;
  }
  return JSON.stringify(raw);
}

/** Helpers for readable columns of expanded objects. */
/** First and last name joined by a space; each kept as sent (no trimming: the service's text is shown as it is). */
export const fullName = (p: { first_name?: string; last_name?: string } | null | undefined) =>
  p ? [p.first_name, p.last_name].filter((part) => part !== undefined && part !== "").join(" ") : null;
/**
 * An expanded object's id: expand replaces `x_id` with the object `x` (spec 4.x, the sandbox's views), and the
 * id column stays beside its name for lookups, so it is read from the object where the id field is gone.
 */
export const idOf = (id: string | null | undefined, expanded: unknown): unknown =>
  id ?? (expanded && typeof expanded === "object" && "id" in expanded ? (expanded as { id: unknown }).id : null);
