/** A table column: where its value comes from, how Excel shows it, whether the user may edit it. */
import { dateToSerial, timestampToSerial, type CellValue } from "./excel-values";

export type ColumnKind = "id" | "text" | "integer" | "number" | "amount" | "percent" | "date" | "timestamp" | "boolean";

export interface Column<T> {
  /** Stable key (the tracked ones are the PATCH field names). */
  key: string;
  header: string;
  kind: ColumnKind;
  value: (record: T) => unknown;
  /** One of state, accounted_id, paid_id, paid_at: the user edits it and Sync states sends it. */
  editable?: boolean;
  /** An in-cell dropdown listing these values. */
  dropdown?: readonly string[];
  /** Column width in points. */
  width?: number;
}

/** Excel number format per kind. Text and ids use "@" so Excel keeps them as typed: no formulas, no lost zeros. */
export const NUMBER_FORMATS: Record<ColumnKind, string> = {
  id: "@",
  text: "@",
  boolean: "@",
  integer: "0",
  number: "0.00",
  amount: "#,##0.00",
  percent: "0.00",
  date: "yyyy-mm-dd",
  timestamp: "yyyy-mm-dd hh:mm:ss",
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD (2026-02-30 is not). */
function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) && Number(m[1]) >= 1900;
}

/**
 * The cell for a service value. Missing values are empty cells. A value is converted only when it is of
 * the kind's own type (a number for numbers, a real date for dates, a readable timestamp for timestamps);
 * anything else is kept as exactly its text (the adapter writes strings as typed text), so "00123",
 * "1E5" or "=HYPERLINK(…)" in a number or date column shows as sent, never as a number or a formula.
 */
export function toCell(kind: ColumnKind, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  const asText = typeof raw === "string" ? raw : JSON.stringify(raw);
  switch (kind) {
    case "id":
    case "text":
      return asText;
    case "boolean":
      return typeof raw === "boolean" ? (raw ? "Yes" : "No") : asText;
    case "integer":
    case "number":
    case "amount":
    case "percent":
      return typeof raw === "number" && Number.isFinite(raw) ? raw : asText;
    case "date":
      return typeof raw === "string" && isCalendarDate(raw) ? dateToSerial(raw) : asText;
    case "timestamp":
      return typeof raw === "string" ? (timestampToSerial(raw) ?? raw) : asText;
  }
}

/** Helpers for readable columns of expanded objects. */
/** First and last name joined by a space; each kept as sent (no trimming: the service's text is shown as it is). */
export const fullName = (p: { first_name?: string; last_name?: string } | null | undefined) =>
  p ? [p.first_name, p.last_name].filter((part) => part !== undefined && part !== "").join(" ") : null;
