/**
 * The editable columns shared by allowances and expenses, the status column, and the order every table reads
 * in: identity first (id, number, date, description, amount), then State → Accounted ID → Paid ID → Paid at
 * (the order Tab follows), Sync status right after them, then the rest (issue 24: the editable columns sat at
 * Y–AC of a 29-column table, far from the record's number and description).
 */
import type { Column } from "../columns";

export const STATUS_KEY = "status";
export const TRACKED_KEYS = ["state", "accounted_id", "paid_id", "paid_at"] as const;
export type TrackedKey = (typeof TRACKED_KEYS)[number];

interface Tracked {
  state: string;
  accounted_id: string | null;
  paid_id: string | null;
  paid_at: string | null;
}

export function trackingColumns<T extends Tracked>(states: readonly string[]): Column<T>[] {
  return [
    { key: "state", header: "State", kind: "entry", value: (r) => r.state, editable: true, dropdown: states, width: 70 },
    { key: "accounted_id", header: "Accounted ID", kind: "entry", value: (r) => r.accounted_id, editable: true, width: 90 },
    { key: "paid_id", header: "Paid ID", kind: "entry", value: (r) => r.paid_id, editable: true, width: 90 },
    { key: "paid_at", header: "Paid at (UTC)", kind: "timestamp", value: (r) => r.paid_at, editable: true },
  ];
}

/**
 * Filled by Sync states (and by Refresh for records gone from the server). Sized to its sentences within the
 * width cap (columns.ts); the full text is in the cell either way.
 */
function statusColumn<T>(): Column<T> {
  return { key: STATUS_KEY, header: "Sync status", kind: "text", value: () => "", width: 160 };
}

/** A table's columns in reading order: identity, the editable ones (if any), Sync status, then the rest. */
export function readingOrder<T>(identity: Column<T>[], editable: Column<T>[], rest: Column<T>[]): Column<T>[] {
  return [...identity, ...editable, statusColumn<T>(), ...rest];
}
