/**
 * Dates as files write them: ISO (2026-03-04, with a time and zone or not), 20260304, and day, month and year
 * in a locale's order (04/03/2026, 4.3.26, 04-Mar-2026). The order is decided once per file from its values,
 * and asked when none can decide: 03/04/2026 is never guessed.
 */

export type DateOrder = "dmy" | "mdy";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const SPANISH = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"];

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const NAMED = /^(\d{1,2})[ -]([a-z]{3})[a-z]*\.?[ -](\d{2}|\d{4})$/i;

/** A day as "YYYY-MM-DD", with the instant when the file gave a time with its zone. */
export interface ReadDate {
  day: string;
  /** ISO 8601 in UTC, only for a time with Z or an offset. */
  instant?: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

function day(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1) return null;
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** The date `text` holds, read with `order` for numeric day and month; null when it is no date (or not one in that order). */
export function readDate(text: string, order: DateOrder | null): ReadDate | null {
  const t = text.trim();
  let m = ISO.exec(t);
  if (m) {
    const d = day(Number(m[1]), Number(m[2]), Number(m[3]));
    if (!d) return null;
    if (m[4] !== undefined && m[7]) {
      const instant = Date.parse(`${d}T${pad(Number(m[4]))}:${m[5]}:${m[6] ?? "00"}${m[7].toUpperCase() === "Z" ? "Z" : m[7].length === 5 ? `${m[7].slice(0, 3)}:${m[7].slice(3)}` : m[7]}`);
      return Number.isNaN(instant) ? { day: d } : { day: d, instant: new Date(instant).toISOString().replace(".000Z", "Z") };
    }
    return { day: d };
  }
  m = COMPACT.exec(t);
  if (m) {
    const d = day(Number(m[1]), Number(m[2]), Number(m[3]));
    return d ? { day: d } : null;
  }
  m = NAMED.exec(t);
  if (m) {
    const name = m[2].toLowerCase();
    const month = Math.max(MONTHS.indexOf(name), SPANISH.indexOf(name)) + 1;
    const d = month > 0 ? day(fullYear(m[3]), month, Number(m[1])) : null;
    return d ? { day: d } : null;
  }
  m = NUMERIC.exec(t);
  if (m && order) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    const d = order === "dmy" ? day(fullYear(m[3]), b, a) : day(fullYear(m[3]), a, b);
    return d ? { day: d } : null;
  }
  return null;
}

/**
 * The file's order of day and month from sample dates: a first number above 12 says day first, a second one
 * month first. Null (ask the person) when every numeric date reads both ways, or the samples disagree.
 */
export function decideDateOrder(samples: readonly string[]): { order: DateOrder | null; needed: boolean; why: string } {
  let dmy = 0;
  let mdy = 0;
  let example: string | null = null;
  for (const sample of samples) {
    const m = NUMERIC.exec(sample.trim());
    if (!m) continue;
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a > 12 && b <= 12) dmy++;
    else if (b > 12 && a <= 12) mdy++;
    else if (a !== b) example ??= sample.trim();
  }
  if (dmy > 0 && mdy > 0) return { order: null, needed: true, why: `the dates are written both day first (${dmy}) and month first (${mdy})` };
  if (dmy > 0) return { order: "dmy", needed: true, why: "" };
  if (mdy > 0) return { order: "mdy", needed: true, why: "" };
  if (example) return { order: null, needed: true, why: `a date such as ${example} can be read day first or month first` };
  return { order: null, needed: false, why: "" };
}

/** Days since 1970-01-01 of a "YYYY-MM-DD" day. */
export const dayNumber = (isoDay: string): number => Math.round(Date.parse(`${isoDay}T00:00:00Z`) / 86_400_000);
