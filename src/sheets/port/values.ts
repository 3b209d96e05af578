/**
 * Conversions between the service's values and Excel cells. Dates and timestamps become real Excel dates:
 * serial numbers of days since 1899-12-30, in UTC (the service's timestamps are UTC; Excel has no zones).
 *
 * A load converts every date and timestamp of every record (50,000 rows: a quarter of a million values), so
 * the service's own forms (`2026-03-31`, `2026-03-31T12:00:00Z`, `…:00.250Z`) are read by arithmetic on their
 * characters, once, with no RegExp and no Date; any other form goes through the domain's full reading.
 */
import { normalizeTimestamp, formatTimestamp } from "../../domain";

const EPOCH_OFFSET_DAYS = 25569; // 1970-01-01 as an Excel serial
const DAY_MS = 86_400_000;

/** Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil): no Date, no two-digit-year rule. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number written by `length` ASCII digits at `at`, or -1 if any is not a digit. */
function digits(text: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Days from 1970 of a real calendar date `YYYY-MM-DD` at `text[0..10)`, or null. */
function calendarDays(text: string): number | null {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null; // "-"
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return daysFromCivil(year, month, day);
}

/**
 * A real calendar date YYYY-MM-DD from 1900 on (Excel's dates start there) -> its serial; null otherwise
 * (2026-02-30 is not a date). "2026-03-31" -> 46112
 */
export function readDate(text: string): number | null {
  if (text.length !== 10) return null;
  const days = calendarDays(text);
  return days === null || Number(text.slice(0, 4)) < 1900 ? null : days + EPOCH_OFFSET_DAYS;
}

/** A timestamp read once: epoch milliseconds and the UTC text the domain's normalizeTimestamp gives. */
export interface TimestampReading {
  ms: number;
  utc: string;
}

/** `YYYY-MM-DDTHH:MM:SSZ` or `…SS.sssZ`, the form the service writes, by arithmetic; null for any other form. */
function readServiceForm(text: string): TimestampReading | null {
  const length = text.length;
  if ((length !== 20 && length !== 24) || text.charCodeAt(10) !== 84 || text.charCodeAt(length - 1) !== 90) return null; // T, Z
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null; // ":"
  const days = calendarDays(text);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let milli = 0;
  if (length === 24) {
    if (text.charCodeAt(19) !== 46) return null; // "."
    milli = digits(text, 20, 3);
  }
  if (days === null || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return null;
  // Year 0000 is outside the range the domain accepts: leave it to the full reading, which refuses it.
  if (text.charCodeAt(0) === 48 && text.startsWith("0000")) return null;
  const ms = days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + milli;
  return { ms, utc: length === 24 && milli === 0 ? `${text.slice(0, 19)}Z` : text };
}

let lastText: string | undefined;
let lastReading: TimestampReading | null = null;

/**
 * Reads a service timestamp (ISO 8601 with a zone) once; null when it is not one. The last reading is kept:
 * a record's paid_at is read for its cell and again, at once, for its tracked value, and costs one conversion.
 */
export function readTimestamp(text: string): TimestampReading | null {
  if (text === lastText) return lastReading;
  let reading = readServiceForm(text);
  if (reading === null) {
    const utc = normalizeTimestamp(text);
    reading = utc === null ? null : { ms: Date.parse(utc), utc };
  }
  lastText = text;
  lastReading = reading;
  return reading;
}

/** "2026-03-31T12:00:00Z" -> 46112.5 (milliseconds kept) */
export function timestampToSerial(timestamp: string): number | null {
  const reading = readTimestamp(timestamp);
  return reading === null ? null : reading.ms / DAY_MS + EPOCH_OFFSET_DAYS;
}

/**
 * An Excel serial back to the service's UTC timestamp form, its milliseconds dropped as the tracked value
 * of a service timestamp drops them (tracked-values.ts): first rounded to the millisecond (a serial is a
 * binary fraction of a day, `.700` reads back as `.69999…`), then cut to the second. Rounding to the
 * nearest second instead would turn a loaded `…:00.500Z` into `…:01Z`, an edit nobody made.
 */
export function serialToTrackedTimestamp(serial: number): string {
  const ms = Math.round((serial - EPOCH_OFFSET_DAYS) * DAY_MS);
  return formatTimestamp(Math.floor(ms / 1000) * 1000);
}

/** An Excel serial back to the service's UTC timestamp form, rounded to the second (as Excel shows it). */
export function serialToTimestamp(serial: number): string {
  const ms = Math.round(((serial - EPOCH_OFFSET_DAYS) * DAY_MS) / 1000) * 1000;
  return formatTimestamp(ms);
}

/** An Excel serial back to YYYY-MM-DD. */
export function serialToDate(serial: number): string {
  return new Date(Math.round((serial - EPOCH_OFFSET_DAYS) * DAY_MS)).toISOString().slice(0, 10);
}
