/** Date and time rules shared by the sandbox and the add-in. */

// A date-time with an explicit zone: Z or +hh:mm / -hh:mm (also +hhmm). Seconds and fractions optional.
const ISO_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Normalises an ISO 8601 date-time that carries a zone to UTC (`2026-03-31T12:00:00Z`, milliseconds kept
 * when not zero). Returns null for anything else, including a date-time without a zone, which would be
 * ambiguous.
 */
export function normalizeTimestamp(value: string): string | null {
  const m = ISO_WITH_ZONE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", frac = "", zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.replace(":", "");
    const sign = digits[0] === "-" ? -1 : 1;
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const ms = Number((frac + "000").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return formatTimestamp(utc);
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

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
