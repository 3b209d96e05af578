/** Date and time rules shared by the sandbox and the add-in. */

// A date-time with an explicit zone: Z or +hh:mm / -hh:mm (also +hhmm). Seconds and fractions optional.
// The year is exactly four digits: expanded years (+010000) are not RFC 3339 and are never accepted.
const ISO_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

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

/**
 * True exactly when `normalizeTimestamp(value)` is not null, without building the UTC text: one pass over
 * the characters (the shape of ISO_WITH_ZONE, after the same trim), the calendar, clock and offset checked
 * by arithmetic. Only a year that an offset of up to ±23:59 can carry outside 0001–9999 (0000, 0001 and
 * 9999) computes its UTC instant, as checkTimestamp does; any year from 0002 to 9998 stays inside whatever
 * its offset. The client validates every timestamp of every page with this (test/domain/timestamps.test.ts
 * compares it with normalizeTimestamp over a generated corpus).
 */
export function isValidTimestamp(value: string): boolean {
  const s = value.trim();
  const n = s.length;
  // YYYY-MM-DDThh:mm then a zone: 17 characters at least.
  if (n < 17) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0) return false;
  const t = s.charCodeAt(10);
  if (s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH || s.charCodeAt(13) !== COLON) return false;
  if (t !== UPPER_T && t !== LOWER_T && t !== SPACE) return false;
  let p = 16;
  let second = 0;
  if (s.charCodeAt(p) === COLON) {
    second = digits(s, p + 1, 2);
    if (second < 0) return false;
    p += 3;
    if (s.charCodeAt(p) === DOT) {
      const fraction = ++p;
      while (isDigit(s.charCodeAt(p))) p++;
      if (p === fraction || p - fraction > 9) return false;
    }
  }
  let offsetMinutes = 0;
  const zone = s.charCodeAt(p);
  if (zone === UPPER_Z || zone === LOWER_Z) {
    if (p + 1 !== n) return false;
  } else if (zone === PLUS || zone === DASH) {
    const oh = digits(s, p + 1, 2);
    let q = p + 3;
    if (s.charCodeAt(q) === COLON) q++;
    const om = digits(s, q, 2);
    if (oh < 0 || om < 0 || q + 2 !== n) return false;
    if (oh > 23 || om > 59) return false;
    offsetMinutes = zone === DASH ? -(oh * 60 + om) : oh * 60 + om;
  } else {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (year > 1 && year < 9999) return true;
  // The fraction cannot decide, so it is not read: offsets are whole minutes, so without its milliseconds m
  // (0–999) the instant is a whole second w. MIN_MS is a whole second: w + m >= MIN_MS exactly when w >= MIN_MS.
  // MAX_MS is a whole second and 999 ms: w + m <= MAX_MS exactly when w <= MAX_MS.
  const utc = utcMillis(year, month, day, hour, minute, second) - offsetMinutes * 60_000;
  return utc >= MIN_MS && utc <= MAX_MS;
}

const ZERO = 48;
const DASH = 45;
const PLUS = 43;
const COLON = 58;
const DOT = 46;
const SPACE = 32;
const UPPER_T = 84;
const LOWER_T = 116;
const UPPER_Z = 90;
const LOWER_Z = 122;

/** An ASCII digit (what `\d` matches without the u flag); false for NaN, past the end of a string. */
function isDigit(code: number): boolean {
  return code >= ZERO && code <= ZERO + 9;
}

/** The number written by `count` ASCII digits at `at`, or -1 when one of them is not a digit (or missing). */
function digits(s: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const code = s.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - ZERO);
  }
  return value;
}

/**
 * What keeps a timestamp that checkTimestamp reads from being ISO 8601's extended format as the service's
 * API takes it (`2026-03-31T12:00:00Z`, `2026-03-31T17:30:00+05:30`), in words; null when nothing does. The
 * forms refused here are ones a person writes and checkTimestamp reads (the add-in takes them from a cell
 * and sends the UTC form): a space instead of T (RFC 3339 allows it as a note, ISO 8601 does not), a basic
 * offset in an extended date-time (+0530: ISO 8601 does not mix the two), a lowercase t or z (RFC 3339
 * allows them, ISO 8601's designators are capitals), white space around it.
 */
export function wireFormIssue(value: string): string | null {
  if (value !== value.trim()) return "white space around it";
  if (value.charAt(10) === " ") return "a space between the date and the time instead of T";
  if (value.charAt(10) === "t" || value.endsWith("z")) return "a lowercase t or z instead of T or Z";
  const basic = /([+-])(\d{2})(\d{2})$/.exec(value);
  if (basic) return `an offset without its colon (${basic[0]} instead of ${basic[1]}${basic[2]}:${basic[3]})`;
  return null;
}

/** Formats epoch milliseconds as the service writes timestamps: UTC, `Z`, milliseconds only when set. */
export function formatTimestamp(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return iso.endsWith(".000Z") ? iso.slice(0, -5) + "Z" : iso;
}

declare const isoDate: unique symbol;
/**
 * A text isIsoDate has accepted. A date filter of a list call is typed so: whoever holds one was checked once,
 * where it came in (a =SPEND argument, the load form's schema, api's isoDateOf for a computed or typed one), and
 * the call does not check it again.
 */
export type IsoDate = string & { readonly [isoDate]: true };

/**
 * True for a real calendar date written YYYY-MM-DD (exactly `^\d{4}-\d{2}-\d{2}$`, ASCII digits, nothing
 * around it). By character codes: the client checks one on every expense and movement of every page.
 */
export function isIsoDate(value: string): value is IsoDate {
  if (value.length !== 10 || value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  if (year < 0 || month < 0 || day < 0) return false;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Proleptic Gregorian, by arithmetic: no Date, whose two-digit years would pick 1900's leap rule. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
