/**
 * A change meets the record as the server has it, read just before the PATCH would leave: still as loaded
 * (send it), already exactly what the row asks (an interrupted sync, or a colleague made the same change:
 * nothing to send), or moved some other way (a conflict: not sent, the server's values shown). Once a record's
 * sync ends, its outcome follows from that reading and from whether a PATCH of it may have landed (verdict).
 * Pure: the record's states (before-patch.ts, patch-states.ts) read the server and decide with these; finish
 * (record-run.ts) ends a record through verdict.
 */
import type { StatePatch } from "../domain";
import { TRACKED_KEYS, TRACKED_WORDS, canonical, describeTracked, sameTracked, type TrackedValues } from "../sheets";
import type { SendOutcome } from "./outcome";

export { describeTracked };

/**
 * What the record holds once `patch` is applied to it as loaded: the row's whole wish, not only the fields sent.
 * @internal sentences-and-expected-values.test.ts checks the rule directly.
 */
export function expectedAfter(loaded: TrackedValues, patch: StatePatch): TrackedValues {
  const out: TrackedValues = { ...loaded, state: patch.state };
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) if (patch[key] !== undefined) out[key] = canonical(key, patch[key]);
  return out;
}

/**
 * True when the server holds exactly what the row asks. A colleague's paid with another paid_id, or with a
 * paid_id where the row has none, is not "already applied": it is someone else's change.
 * @internal sentences-and-expected-values.test.ts checks the rule directly.
 */
export function holdsPatch(server: TrackedValues, loaded: TrackedValues, patch: StatePatch): boolean {
  return sameTracked(server, expectedAfter(loaded, patch));
}

/** What the server showed of the record, against the row: gone, exactly what the row asks, as loaded, or changed otherwise. */
export type Reading = "missing" | "holds-patch" | "as-loaded" | "changed";

/** The reading of a record as the server holds it (null: not found), for the row as loaded and its patch. */
export function readingOf(server: TrackedValues | null, loaded: TrackedValues, patch: StatePatch): Reading {
  if (server === null) return "missing";
  if (holdsPatch(server, loaded, patch)) return "holds-patch";
  return sameTracked(server, loaded) ? "as-loaded" : "changed";
}

/** What is known of a record when its sync ends. */
export interface Known {
  /** What the server last said of it (a read, or the PATCH's own answer); "unread" when it said nothing. */
  server: Reading | "unread";
  /** A PATCH of this record reached the service, or may have: its answer was lost, or came back 200. */
  mayHaveLanded: boolean;
  /** The service answered a PATCH of this record for good (a 400/404 refusal, or a 200): it is not sent again. */
  answered: boolean;
}

/** A record's outcome, from what is known when its sync ends: the one place that decides it. */
export function verdict({ server, mayHaveLanded, answered }: Known): SendOutcome {
  switch (server) {
    // Nothing says what the server holds: only a PATCH that may have landed makes it more than "not sent".
    case "unread": return mayHaveLanded ? "unconfirmed" : "not-sent";
    // Gone before any PATCH could land: the row cannot be applied. Gone after one may have: a conflict to refresh.
    case "missing": return mayHaveLanded ? "conflict" : "rejected";
    case "holds-patch": return mayHaveLanded ? "applied" : "already-applied";
    case "changed": return "conflict";
    // Still as loaded: the service's answer refused the PATCH, or the run stopped before sending it.
    case "as-loaded": return answered ? "rejected" : "not-sent";
  }
}

export const MISSING_MESSAGE = "The record no longer exists on the server (or moved to another subsidiary). Refresh the table.";

/**
 * What someone else changed since the row was loaded, field by field, in the columns' words: "State is now
 * accounted (you loaded approved), Accounted ID is now ACC-9 (you loaded empty)". Only the server's moves are
 * named, never the person's own edit, so a colleague's change never reads as the person's mistake (issue 43).
 */
export function serverMoves(loaded: TrackedValues, server: TrackedValues): string {
  const moved = TRACKED_KEYS.filter((k) => loaded[k] !== server[k]);
  return moved.map((k) => `${TRACKED_WORDS[k]} is now ${server[k] || "empty"} (you loaded ${loaded[k] || "empty"})`).join(", ");
}

/** The edit a row asks for, in the columns' words ("State paid, Paid ID PAY-1"): only the fields the person changed. */
export function editWords(loaded: TrackedValues, patch: StatePatch): string {
  const wished = expectedAfter(loaded, patch);
  return TRACKED_KEYS.filter((k) => wished[k] !== loaded[k]).map((k) => `${TRACKED_WORDS[k]} ${wished[k]}`).join(", ");
}

/** A PATCH body in the columns' words, as the journal's "Fields sent" shows it: "State paid, Paid ID PAY-1". */
export function patchWords(patch: StatePatch): string {
  return (["state", "accounted_id", "paid_id", "paid_at"] as const).filter((k) => patch[k] !== undefined).map((k) => `${TRACKED_WORDS[k]} ${patch[k]}`).join(", ");
}

/** A conflict found by the read before the PATCH: what someone else changed, what was not sent, and what to do. */
export function conflictMessage(loaded: TrackedValues, server: TrackedValues, patch: StatePatch): string {
  return `Changed on the server by someone else since you loaded: ${serverMoves(loaded, server)}. Your edit (${editWords(loaded, patch)}) was not sent. ` +
    "Refresh to see their change (your edit is kept), then edit again if still needed.";
}
