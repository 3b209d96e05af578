/**
 * Tracked cells filled by formulas (issue 47: lookups into the bank's or the ERP's file). Sync states reads
 * what Excel calculated (`values`), never the formula's text; this names the formula when what it gave cannot
 * be what the person meant:
 * - an Excel error (`#N/A` from a lookup that found nothing, `#REF!`, …) is never sent: the row is invalid,
 *   "Paid ID is #N/A, from the formula in H12" (a typed error, with no formula, is named the same way);
 * - an empty value from a formula, on a row that is otherwise sent, is a question ("check"): sent only when the
 *   person confirms it, since a lookup wrapped in IFERROR(…, "") says nothing when it finds nothing; on a row
 *   that is not sent anyway, the note comes first in its message.
 */
import type { TrackedKey } from "../sheets";
import { nonTextOf } from "./non-text-values";
import type { EditVerdict } from "./edit-verdict";

/** Excel's error values, as `Range.values` reads them (Excel.ErrorCellValueType's texts). */
const EXCEL_ERRORS = new Set(["#N/A", "#REF!", "#VALUE!", "#NAME?", "#DIV/0!", "#NUM!", "#NULL!", "#SPILL!", "#CALC!", "#FIELD!",
  "#BLOCKED!", "#BUSY!", "#CONNECT!", "#EXTERNAL!", "#GETTING_DATA", "#UNKNOWN!"]);

export const isExcelError = (value: unknown): value is string => typeof value === "string" && EXCEL_ERRORS.has(value.trim());

const NAMES: Record<TrackedKey, string> = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at" };

/** One row's tracked cells as read, and the addresses of those holding a formula. */
export interface FormulaRow {
  raw: Record<TrackedKey, unknown>;
  formulas?: Partial<Record<TrackedKey, string>>;
  /** The cells whose value is an Excel error, where the host said; absent: an error's text counts as one (never sent). */
  errors?: readonly TrackedKey[];
  /** The number formats of the cells asked about, where the host said (a number shown as a date is named as one). */
  formats?: Partial<Record<TrackedKey, string>>;
}

const from = (row: FormulaRow, key: TrackedKey) => (row.formulas?.[key] ? `, from the formula in ${row.formulas[key]}` : "");

/** The row's errors ("Paid ID is #N/A, from the formula in H12") among the edited fields, joined; null when none. */
function errorsOf(row: FormulaRow, edited: readonly TrackedKey[]): string | null {
  // A field as loaded is the service's text, which may read "#N/A" and is no error: only edited fields are looked at.
  const keys = edited.filter((key) => (row.errors ? row.errors.includes(key) : isExcelError(row.raw[key])));
  if (keys.length === 0) return null;
  const said = keys.map((key) => `${NAMES[key]} is ${String(row.raw[key]).trim()}${from(row, key)}`).join("; ");
  return `${said}: an error is never sent. Fix the formula or what it looks up (a lookup that finds nothing gives #N/A), then preview again.`;
}

/** The row's formulas that gave nothing ("Paid ID is empty, from the formula in H12"), joined; null when none. */
function emptiesOf(row: FormulaRow): string | null {
  const keys = (Object.keys(NAMES) as TrackedKey[]).filter((key) => row.formulas?.[key] && String(row.raw[key] ?? "").trim() === "");
  if (keys.length === 0) return null;
  return `${keys.map((key) => `${NAMES[key]} is empty${from(row, key)}`).join("; ")}: did its lookup find nothing?`;
}

/** Whether a tracked cell of the row holds an error, or a formula that gave nothing: its formulas are worth naming. */
export const needsFormulaNames = (raw: Record<TrackedKey, unknown>) =>
  (Object.keys(NAMES) as TrackedKey[]).some((key) => isExcelError(raw[key]) || String(raw[key] ?? "").trim() === "");

/** A verdict, or a change sent only once the person confirms it. */
export type FormulaVerdict = EditVerdict | { kind: "check"; patch: Extract<EditVerdict, { kind: "change" }>["patch"]; message: string };

/**
 * The verdict of an edited row once its cells' values are looked at: an error, or a number or boolean where an
 * id or a state is text (non-text-values.ts), makes it invalid; an empty formula a question (or a note before an
 * invalid row's own message). An unchanged row stays unchanged.
 */
export function withFormulaValues(verdict: EditVerdict, row: FormulaRow, edited: readonly TrackedKey[]): FormulaVerdict {
  if (verdict.kind === "unchanged") return verdict;
  const errors = [errorsOf(row, edited), nonTextOf(row, edited)].filter((said) => said !== null);
  if (errors.length > 0) return { kind: "invalid", message: errors.join(" ") };
  const empties = emptiesOf(row);
  if (!empties) return verdict;
  if (verdict.kind === "invalid") return { kind: "invalid", message: `${empties} ${verdict.message}` };
  return { kind: "check", patch: verdict.patch, message: `${empties} Sent only if you confirm it.` };
}
