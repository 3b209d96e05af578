/**
 * Conversions between the service's values and Excel cells. Dates and timestamps become real Excel dates:
 * serial numbers of days since 1899-12-30, in UTC (the service's timestamps are UTC; Excel has no zones).
 */
import { normalizeTimestamp, formatTimestamp } from "../domain";

export type CellValue = string | number | boolean;

const EPOCH_OFFSET_DAYS = 25569; // 1970-01-01 as an Excel serial
const DAY_MS = 86_400_000;

/** "2026-03-31" -> 46112 */
export function dateToSerial(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS + EPOCH_OFFSET_DAYS;
}

/** "2026-03-31T12:00:00Z" -> 46112.5 (milliseconds kept) */
export function timestampToSerial(timestamp: string): number | null {
  const normalized = normalizeTimestamp(timestamp);
  if (normalized === null) return null;
  return Date.parse(normalized) / DAY_MS + EPOCH_OFFSET_DAYS;
}

/** An Excel serial back to the service's UTC timestamp form, rounded to the second. */
export function serialToTimestamp(serial: number): string {
  const ms = Math.round(((serial - EPOCH_OFFSET_DAYS) * DAY_MS) / 1000) * 1000;
  return formatTimestamp(ms);
}

/** An Excel serial back to YYYY-MM-DD. */
export function serialToDate(serial: number): string {
  return new Date(Math.round((serial - EPOCH_OFFSET_DAYS) * DAY_MS)).toISOString().slice(0, 10);
}
