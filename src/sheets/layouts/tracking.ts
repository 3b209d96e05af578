/** The editable columns shared by allowances and expenses, and the status column every table ends with. */
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
    { key: "state", header: "State", kind: "text", value: (r) => r.state, editable: true, dropdown: states, width: 80 },
    { key: "accounted_id", header: "Accounted ID", kind: "text", value: (r) => r.accounted_id, editable: true, width: 110 },
    { key: "paid_id", header: "Paid ID", kind: "text", value: (r) => r.paid_id, editable: true, width: 100 },
    { key: "paid_at", header: "Paid at (UTC)", kind: "timestamp", value: (r) => r.paid_at, editable: true, width: 120 },
  ];
}

/**
 * Filled by Sync states (and by Refresh for records gone from the server). Wide enough for a sentence
 * ("Will send: approved → paid (Paid ID: PAY-…)"); the full text is in the cell either way.
 */
export function statusColumn<T>(): Column<T> {
  return { key: STATUS_KEY, header: "Sync status", kind: "text", value: () => "", width: 480 };
}
