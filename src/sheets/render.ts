/**
 * A record as a row of its table's layout, as Load and Refresh write it: each value in its column's kind,
 * the key redacted wherever a server or proxy echoed it, a value the spec does not list said in the row's
 * status; and the record's tracked values, kept for the snapshot.
 */
import { redactSecrets, unknownValuesOf, type UnknownValue } from "../api";
import { toCell } from "./columns";
import { STATUS_KEY } from "./layouts/tracking";
import { isTracked, sourceOf, type LoadParams } from "./load-params";
import type { Snapshot } from "./snapshot";
import { trackedOf } from "./tracked-values";
import type { CellValue } from "./workbook";

/** Shorter text cannot hold a key (keys and their encoded forms are longer): not worth scanning. */
const MIN_SECRET_LENGTH = 6;

/** The start of the status of a row whose record has a value the spec does not list. */
export const UNLISTED_NOTE_PREFIX = "Read-only";

/** The status of a row whose record has a value the spec does not list (UnknownValue from the client). */
export function unlistedNote(unknown: readonly UnknownValue[]): string {
  const parts = unknown.map((u) => `${u.field} "${u.value}" (the spec lists ${u.allowed.join(", ")})`);
  return `${UNLISTED_NOTE_PREFIX}: the service sent ${parts.join(" and ")}. Sync states will not send this row; ask your Spend Sync contact.`;
}

/** Renders records of these parameters: the row of each, and its tracked values into `fresh` (paid_at converted once for both: readTimestamp). */
export function recordRenderer(params: LoadParams): (record: { id: string }, fresh: Snapshot) => CellValue[] {
  const columns = sourceOf(params).columns;
  const statusAt = columns.findIndex((c) => c.key === STATUS_KEY);
  const tracked = isTracked(params.resource);
  return (record, fresh) => {
    const cells: CellValue[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const cell = toCell(columns[i].kind, columns[i].value(record as never));
      // The key never enters the workbook, even when a server or proxy echoes it into a record.
      cells[i] = typeof cell === "string" && cell.length >= MIN_SECRET_LENGTH ? redactSecrets(cell) : cell;
    }
    // A state or movement type the spec does not list: the row loads, says so, and Sync states refuses it.
    const unknown = unknownValuesOf(record);
    if (unknown.length > 0) cells[statusAt] = redactSecrets(unlistedNote(unknown));
    if (tracked) {
      const values = trackedOf(record as never);
      fresh.set(record.id, { state: redactSecrets(values.state), accounted_id: redactSecrets(values.accounted_id), paid_id: redactSecrets(values.paid_id), paid_at: redactSecrets(values.paid_at) });
    }
    return cells;
  };
}
