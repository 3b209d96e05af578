/**
 * State, Accounted ID and Paid ID are General cells (issue 47), where Excel converts what a person types: `00123`
 * becomes 123, `1,250.00` 1250, `1e5` 100000, `2026-11-24 10:00` a date serial, `TRUE` a boolean; and a lookup of
 * an empty cell gives 0. Sent as a number's text, such an id would silently differ from what was typed, and the
 * questions of questions.ts (an id that looks like a date or an amount) would never see it. So a number or a
 * boolean in those columns is never sent, typed or from a formula: the row is invalid, with what Excel made of it
 * and what to do. Not a question: confirming it could only send the number's text, which is the data loss itself
 * (the stricter reading; docs/excel-checks.md, "Formulas in the tracked columns"). Paid at is not looked at here:
 * a number there is a date serial, read by its date-time format (tracked-values.ts).
 */
import type { TrackedKey } from "../sheets";

const NAMES = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID" } as const;
type TextKey = keyof typeof NAMES;
const TEXT_KEYS = Object.keys(NAMES) as TextKey[];

/** One row's tracked cells as read, with the addresses of those holding a formula and their number formats. */
export interface NonTextRow {
  raw: Record<TrackedKey, unknown>;
  formulas?: Partial<Record<TrackedKey, string>>;
  formats?: Partial<Record<TrackedKey, string>>;
}

const isNonText = (value: unknown): value is number | boolean => typeof value === "number" || typeof value === "boolean";

/** Whether a tracked text cell of the row holds a number or a boolean: its formulas and formats are worth reading. */
export const hasNonText = (raw: Record<TrackedKey, unknown>) => TEXT_KEYS.some((key) => isNonText(raw[key]));

/** A date-time format shows a number as a date: a y, d, h or s outside quoted text and brackets ([Red], [$-409]). */
const isDateFormat = (format: string | undefined) => format !== undefined && /[ydhs]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ""));

/** A serial as the date Excel shows for it: 2026-11-24, or 2026-11-24 10:00 when it has a time. */
function dateOf(serial: number): string {
  const text = new Date(Math.round((serial - 25569) * 86_400_000)).toISOString();
  return text.slice(11, 16) === "00:00" ? text.slice(0, 10) : `${text.slice(0, 10)} ${text.slice(11, 16)}`;
}

/** A number as General shows it: at most 10 significant digits after the point. */
const numberOf = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(10))));

/** What Excel made of a cell: "the number 123", "the date 2026-11-24 10:00", "the boolean TRUE". */
function madeOf(value: number | boolean, format: string | undefined): string {
  if (typeof value === "boolean") return `the boolean ${value ? "TRUE" : "FALSE"}`;
  return isDateFormat(format) ? `the date ${dateOf(value)}` : `the number ${numberOf(value)}`;
}

/** One id cell's sentence. */
function idSentence(key: Exclude<TextKey, "state">, value: number | boolean, row: NonTextRow): string {
  const name = NAMES[key];
  const formula = row.formulas?.[key];
  if (formula && value === 0) {
    return `${name} is 0, from the formula in ${formula} (a lookup of an empty cell?): an id of 0 is never sent. Fill in what it looks up, or clear the cell.`;
  }
  const made = madeOf(value, row.formats?.[key]);
  if (formula) {
    return `${name} is ${made}, from the formula in ${formula}, not text: if the id is its digits, wrap the formula in TEXT(…,"0"); ids are sent as text.`;
  }
  const date = made.startsWith("the date") ? " (a date-time goes in Paid at)" : "";
  return `${name} is ${made} in Excel, not text${date}: type the id with an apostrophe in front, as '00123 keeps 00123 whole; ids are sent as text.`;
}

/**
 * The sentences of the row's edited State, Accounted ID and Paid ID cells that hold a number or a boolean, joined;
 * null when none. A field as loaded is the service's text, written as a String: only edited fields are looked at.
 */
export function nonTextOf(row: NonTextRow, edited: readonly TrackedKey[]): string | null {
  const sentences = TEXT_KEYS.filter((key) => edited.includes(key)).flatMap((key) => {
    const value = row.raw[key];
    if (!isNonText(value)) return [];
    if (key === "state") {
      const from = row.formulas?.state ? `, from the formula in ${row.formulas.state}` : " in Excel";
      return [`State is ${madeOf(value, row.formats?.state)}${from}, not text: choose accounted or paid.`];
    }
    return [idSentence(key, value, row)];
  });
  return sentences.length > 0 ? `${sentences.join(" ")} Not sent.` : null;
}
