/**
 * At execution, each change meets the record as the server has it now: still as loaded (send it), already
 * where the user wants it (an interrupted sync, or a colleague did it: nothing to send), or moved some other
 * way (a conflict: not sent). Pure.
 */
import type { StatePatch } from "../domain";
import { TRACKED_KEYS, canonical, type TrackedValues } from "../sheets";

export type ServerVerdict =
  | { kind: "send" }
  | { kind: "already-applied" }
  | { kind: "conflict"; message: string }
  | { kind: "missing"; message: string };

/** True when the server holds the patch: the target state and every field sent. */
export function holdsPatch(server: TrackedValues, patch: StatePatch): boolean {
  if (server.state !== patch.state) return false;
  return (["accounted_id", "paid_id", "paid_at"] as const).every((k) => patch[k] === undefined || server[k] === canonical(k, patch[k]));
}

export const sameTracked = (a: TrackedValues, b: TrackedValues) => TRACKED_KEYS.every((k) => a[k] === b[k]);

export function describeTracked(v: TrackedValues): string {
  const parts = [v.state];
  if (v.accounted_id) parts.push(`accounted_id ${v.accounted_id}`);
  if (v.paid_id) parts.push(`paid_id ${v.paid_id}`);
  if (v.paid_at) parts.push(`paid_at ${v.paid_at}`);
  return parts.join(", ");
}

export function compareWithServer(loaded: TrackedValues, patch: StatePatch, server: TrackedValues | null): ServerVerdict {
  if (server === null) {
    return { kind: "missing", message: "The record no longer exists on the server (or moved to another subsidiary). Refresh the table." };
  }
  if (holdsPatch(server, patch)) return { kind: "already-applied" };
  if (sameTracked(server, loaded)) return { kind: "send" };
  return {
    kind: "conflict",
    message: `Changed on the server since it was loaded: it was ${describeTracked(loaded)}, it is now ${describeTracked(server)}. Refresh the table (discarding this edit) and edit again if still needed.`,
  };
}
