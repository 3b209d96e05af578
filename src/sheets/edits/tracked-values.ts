/**
 * The tracked fields (state, accounted_id, paid_id, paid_at) in one canonical text form, whether they come
 * from the service or from a cell the user typed in, so that "changed or not" is a plain comparison.
 */
import { readTimestamp, serialToTrackedTimestamp } from "../port/values";
import type { CellValue } from "../port/workbook";
import type { TrackedKey } from "../resources/tracking";

export type TrackedValues = Record<TrackedKey, string>;

/** Drops the milliseconds of a UTC timestamp (`…:00.250Z` -> `…:00Z`). */
function roundToSecond(iso: string): string {
  return iso.length === 24 && iso.charCodeAt(19) === 46 ? `${iso.slice(0, 19)}Z` : iso;
}

/**
 * paid_at from a cell: an Excel date serial or a text timestamp; "" when empty. Unreadable text stays as typed.
 * @internal tracked-values tests check each cell form of paid_at directly.
 */
export function canonicalTimestamp(value: CellValue | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "number") return serialToTrackedTimestamp(value);
  const text = String(value).trim();
  if (text === "") return "";
  // The reading the paid_at cell of the same record was just written with (readTimestamp keeps it): one conversion.
  const reading = readTimestamp(text);
  return reading === null ? text : roundToSecond(reading.utc);
}

export function canonical(key: TrackedKey, value: CellValue | null | undefined): string {
  if (key === "paid_at") return canonicalTimestamp(value);
  if (value === null || value === undefined) return "";
  const text = String(value).trim();
  return key === "state" ? text.toLowerCase() : text;
}

/** The tracked values of a record as the service sent them. */
export function trackedOf(record: { state: string; accounted_id: string | null; paid_id: string | null; paid_at: string | null }): TrackedValues {
  return {
    state: canonical("state", record.state),
    accounted_id: canonical("accounted_id", record.accounted_id),
    paid_id: canonical("paid_id", record.paid_id),
    paid_at: canonical("paid_at", record.paid_at),
  };
}

/**
 * The tracked values of any record as the snapshot keeps them: each field as text whatever it holds (a record that
 * did not pass the API's schema keeps what its row shows, so an edit of it is still seen), then `clean` (the
 * redaction of secrets), then canonical. `clean` comes first: a state is lower-cased, and a key echoed into it in
 * capitals would no longer be found afterwards.
 */
export function trackedOfUnchecked(record: Readonly<Record<string, unknown>>, clean: (text: string) => string = (text) => text): TrackedValues {
  const text = (value: unknown): string | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === "string") return clean(value);
    try {
      return clean(JSON.stringify(value) ?? String(value));
    } catch {
      return clean(String(value));
    }
  };
  return trackedOf({ state: text(record.state) ?? "", accounted_id: text(record.accounted_id), paid_id: text(record.paid_id), paid_at: text(record.paid_at) });
}

/** The tracked fields as their columns' headers name them: what a person reads, never the service's field names. */
export const TRACKED_WORDS: Record<TrackedKey, string> = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at" };

/** "paid, Accounted ID ACC-1, Paid ID PAY-7": what a user reads in a status or the journal. */
export function describeTracked(v: TrackedValues): string {
  const parts = [v.state || "(no state)"];
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) if (v[key]) parts.push(`${TRACKED_WORDS[key]} ${v[key]}`);
  return parts.join(", ");
}

export const sameTracked = (a: TrackedValues, b: TrackedValues) =>
  a.state === b.state && a.accounted_id === b.accounted_id && a.paid_id === b.paid_id && a.paid_at === b.paid_at;
