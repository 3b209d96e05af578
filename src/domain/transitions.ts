/** The state machine of spec section 3, checked in the order the service checks it (4.5, 4.8). */
import { messages } from "./messages";
import type { TargetState, TrackedResource } from "./states";

/** A validated PATCH body (see patch-body.ts). Absent fields are not sent. */
export interface StatePatch {
  state: TargetState;
  accounted_id?: string;
  paid_id?: string;
  paid_at?: string;
}

export type Verdict = { ok: true } | { ok: false; message: string };

/** Every transition the API allows (spec 3.1 and 3.2), from -> targets. */
export const ALLOWED_TRANSITIONS: Record<TrackedResource, Readonly<Record<string, readonly TargetState[]>>> = {
  allowance: { approved: ["accounted", "paid"], accounted: ["paid"] },
  expense: { approved: ["accounted", "paid"], accounted: ["paid"] },
};

/**
 * Decides whether a record now in state `current` may take `patch`. Returns the service's message when
 * it may not. Pure: the sandbox applies it to its store, the add-in's planner to the sheet's rows.
 */
export function checkTransition(resource: TrackedResource, current: string, patch: StatePatch): Verdict {
  if (patch.state === "accounted" && (patch.paid_id !== undefined || patch.paid_at !== undefined)) {
    return { ok: false, message: messages.paidFieldsWithAccounted() };
  }
  if (patch.state === current) {
    return { ok: false, message: messages.alreadyInState(resource, current) };
  }
  if (ALLOWED_TRANSITIONS[resource][current]?.includes(patch.state)) return { ok: true };
  return { ok: false, message: REFUSALS[resource](current, patch.state) };
}

/** The service's words for a transition it refuses: expenses have their own (spec 4.8 rule 2), allowances the general one (4.5 rule 3). */
const REFUSALS: Record<TrackedResource, (from: string, to: string) => string> = {
  allowance: messages.invalidTransition,
  expense: (from) => messages.cannotChangeExpense(from),
};
