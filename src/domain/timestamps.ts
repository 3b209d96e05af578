/** Date and time rules shared by the sandbox and the add-in. */

// A date-time with an explicit zone: Z or +hh:mm / -hh:mm (also +hhmm). Seconds and fractions optional.
// The year is exactly four digits: expanded years (+010000) are not RFC 3339 and are never accepted.
const ISO_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The span a timestamp must fall in once normalised to UTC, so that it is written with four year digits. */
export const EARLIEST_TIMESTAMP = "0001-01-01T00:00:00Z";
export const LATEST_TIMESTAMP = "9999-12-31T23:59:59.999Z";

/**
 * Epoch milliseconds of a UTC calendar time. Date.UTC maps years 0–99 to 1900–1999, which once moved
 * `0024-05-01` by 1,900 years; setUTCFullYear takes the year as written.
 */
function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

const MIN_MS = utcMillis(1, 1, 1);
const MAX_MS = utcMillis(9999, 12, 31, 23, 59, 59, 999);

export type TimestampCheck = { ok: true; utc: string } | { ok: false; reason: "format" | "range" };

/**
 * Checks an ISO 8601 date-time with a zone and normalises it to UTC. `format`: not such a date-time,
 * or an impossible calendar date or time; `range`: its UTC value falls outside 0001–9999.
 */
export function checkTimestamp(value: string): TimestampCheck {
  const m = ISO_WITH_ZONE.exec(value.trim());
  if (!m) return { ok: false, reason: "format" };
  const [, y, mo, d, h, mi, s = "00", frac = "", zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: "format" };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: "format" };
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.replace(":", "");
    const sign = digits[0] === "-" ? -1 : 1;
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return { ok: false, reason: "format" };
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Sub-millisecond digits are dropped: the service keeps milliseconds (docs/sandbox.md).
  const ms = Number((frac + "000").slice(0, 3));
  const utc = utcMillis(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  if (utc < MIN_MS || utc > MAX_MS) return { ok: false, reason: "range" };
  return { ok: true, utc: formatTimestamp(utc) };
}

/**
 * Normalises an ISO 8601 date-time that carries a zone to UTC (`2026-03-31T12:00:00Z`, milliseconds kept
 * when not zero). Returns null for anything else, including a date-time without a zone, which would be
 * ambiguous, and one whose UTC value leaves the years 0001–9999.
 */
export function normalizeTimestamp(value: string): string | null {
  const checked = checkTimestamp(value);
  return checked.ok ? checked.utc : null;
}

/** Formats epoch milliseconds as the service writes timestamps: UTC, `Z`, milliseconds only when set. */
export function formatTimestamp(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return iso.endsWith(".000Z") ? iso.slice(0, -5) + "Z" : iso;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Proleptic Gregorian, by arithmetic: no Date, whose two-digit years would pick 1900's leap rule. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
