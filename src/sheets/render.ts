/**
 * A record as a row of its table's layout, as Load and Refresh write it: each value in its column's kind,
 * the key redacted wherever a server or proxy echoed it, a value the spec does not list said in the row's
 * status; and the record's tracked values, kept for the snapshot. A record that does not match the API
 * (a MalformedRecord) is shown as sent, read-only, its status naming the wrong field: one bad record costs
 * one row, never the load.
 */
import { MalformedRecord, describeIssue, redactSecrets, unknownValuesOf, type Page, type UnknownValue } from "../api";
import { toCell, type Column } from "./columns";
import { STATUS_KEY } from "./resources/tracking";
import { Query, type LoadParams } from "./load/params";
import type { ReadOnly, Snapshot } from "./edits/snapshot";
import { trackedOfUnchecked } from "./edits/tracked-values";
import type { CellValue } from "./port/workbook";

/** The start of the status of a row whose record has a value the spec does not list. */
const UNLISTED_NOTE_PREFIX = "Read-only";

/**
 * The status of a row whose record has a value the spec does not list (UnknownValue from the client).
 * @internal record-row-says-why-it-is-read-only.test.ts checks each note's words directly.
 */
export function unlistedNote(unknown: readonly UnknownValue[]): string {
  const parts = unknown.map((u) => `${u.field} "${u.value}" (the spec lists ${u.allowed.join(", ")})`);
  return `${UNLISTED_NOTE_PREFIX}: the service sent ${parts.join(" and ")}. Sync states will not send this row; ask your Spend Sync contact.`;
}

/**
 * What the snapshot keeps of a malformed record: which fields are wrong (the planner names them).
 * @internal record-row-says-why-it-is-read-only.test.ts checks each note's words directly.
 */
export function malformedReason(record: MalformedRecord): string {
  return record.issues.map(describeIssue).join(" and ");
}

/**
 * The status of a row whose record does not match the API.
 * @internal record-row-says-why-it-is-read-only.test.ts checks each note's words directly.
 */
export function malformedNote(record: MalformedRecord): string {
  return `${UNLISTED_NOTE_PREFIX}: the service sent ${malformedReason(record)}, which does not match the API. Sync states will not send this row; ask your Spend Sync contact.`;
}

/** A page's records, valid and malformed, in the order the service sent them. */
export function inPageOrder<T>(page: Page<T>): (T | MalformedRecord)[] {
  if (page.malformed.length === 0) return page.results;
  const out: (T | MalformedRecord)[] = [];
  let valid = 0;
  let bad = 0;
  const total = page.results.length + page.malformed.length;
  for (let i = 0; i < total; i++) out.push(bad < page.malformed.length && page.malformed[bad].index === i ? page.malformed[bad++] : page.results[valid++]);
  return out;
}

/** A column's value of an unchecked record: what its layout shows, or the field as sent where the layout cannot read it. */
function uncheckedValue(column: Column<object>, raw: Readonly<Record<string, unknown>>): unknown {
  try {
    return column.value(raw);
  } catch {
    return raw[column.key];
  }
}

/**
 * Renders records of these parameters: the row of each, its tracked values into `fresh` (paid_at converted
 * once for both: readTimestamp), and, for a malformed record, why it is read-only into `readOnly`.
 */
export function recordRenderer(input: LoadParams | Query): (record: { id: string } | MalformedRecord, fresh: Snapshot, readOnly: ReadOnly) => CellValue[] {
  const query = Query.parse(input);
  const columns = query.source.columns;
  const statusAt = columns.findIndex((c) => c.key === STATUS_KEY);
  const tracked = query.tracked !== undefined;
  return (record, fresh, readOnly) => {
    const malformed = record instanceof MalformedRecord ? record : null;
    const cells: CellValue[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const cell = toCell(columns[i].kind, malformed ? uncheckedValue(columns[i], malformed.raw) : columns[i].value(record));
      // The key never enters the workbook, even when a server or proxy echoes it into a record, however short the key
      // (redactSecrets skips a text shorter than every form of it without scanning).
      cells[i] = typeof cell === "string" ? redactSecrets(cell) : cell;
    }
    if (malformed) {
      cells[statusAt] = redactSecrets(malformedNote(malformed));
      if (tracked) {
        fresh.set(record.id, trackedOfUnchecked(malformed.raw, redactSecrets));
        readOnly.set(record.id, redactSecrets(malformedReason(malformed)));
      }
      return cells;
    }
    // A state or movement type the spec does not list: the row loads, says so, and Sync states refuses it.
    const unknown = unknownValuesOf(record);
    if (unknown.length > 0) cells[statusAt] = redactSecrets(unlistedNote(unknown));
    if (tracked) fresh.set(record.id, trackedOfUnchecked(record as { id: string }, redactSecrets));
    return cells;
  };
}
