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

/** The cell for a service value. Missing values are empty cells. */
export function toCell(kind: ColumnKind, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  switch (kind) {
    case "id":
    case "text":
      return typeof raw === "string" ? raw : JSON.stringify(raw);
    case "boolean":
      return raw ? "Yes" : "No";
    case "integer":
    case "number":
    case "amount":
    case "percent":
      return typeof raw === "number" ? raw : Number.isFinite(Number(raw)) ? Number(raw) : String(raw);
    case "date":
      return typeof raw === "string" && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? dateToSerial(raw) : String(raw);
    case "timestamp":
      return typeof raw === "string" ? (timestampToSerial(raw) ?? raw) : String(raw);
  }
}

/** Helpers for readable columns of expanded objects. */
export const fullName = (p: { first_name?: string; last_name?: string } | null | undefined) =>
  p ? `${p.first_name ?? ""} ${p.last_name ?? ""}`.trim() : null;
