/**
 * A change meets the record as the server has it, read just before the PATCH would leave: still as loaded
 * (send it), already exactly what the row asks (an interrupted sync, or a colleague made the same change:
 * nothing to send), or moved some other way (a conflict: not sent, the server's values shown). Pure: send-row.ts
 * reads the server and decides with these.
 */
import type { StatePatch } from "../domain";
import { canonical, describeTracked, sameTracked, type TrackedValues } from "../sheets";

export { describeTracked, sameTracked };

/** What the record holds once `patch` is applied to it as loaded: the row's whole wish, not only the fields sent. */
export function expectedAfter(loaded: TrackedValues, patch: StatePatch): TrackedValues {
  const out: TrackedValues = { ...loaded, state: patch.state };
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) if (patch[key] !== undefined) out[key] = canonical(key, patch[key]);
  return out;
}

/**
 * True when the server holds exactly what the row asks. A colleague's paid with another paid_id, or with a
 * paid_id where the row has none, is not "already applied": it is someone else's change.
 */
export function holdsPatch(server: TrackedValues, loaded: TrackedValues, patch: StatePatch): boolean {
  return sameTracked(server, expectedAfter(loaded, patch));
}

export const MISSING_MESSAGE = "The record no longer exists on the server (or moved to another subsidiary). Refresh the table.";

export function conflictMessage(loaded: TrackedValues, server: TrackedValues): string {
  return `Changed on the server since it was loaded: it was ${describeTracked(loaded)}, it is now ${describeTracked(server)}. ` +
    "Refresh the table (your edit is kept where the server did not change it) and edit again if still needed.";
}
