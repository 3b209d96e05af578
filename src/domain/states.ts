/** The states of allowances and expenses (spec 2.2, 2.3, 3). */

export const ALLOWANCE_STATES = ["pending", "approved", "accounted", "paid", "rejected"] as const;
export type AllowanceState = (typeof ALLOWANCE_STATES)[number];

export const EXPENSE_STATES = ["draft", "pending", "approved", "accounted", "paid", "rejected"] as const;
export type ExpenseState = (typeof EXPENSE_STATES)[number];

/**
 * The only states a PATCH may ask for (spec 4.5, 4.8).
 * @internal transitions.test.ts walks every state against these two.
 */
export const TARGET_STATES = ["accounted", "paid"] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/**
 * A state as every part compares it: trimmed, in lower case, so that "Paid", " paid " and "PAID" are paid
 * (Unicode white space included: a state pasted from a web page may end in a no-break space). The same rule
 * as the sheets' canonical State, the functions' state argument, the API client's list filter and the
 * sandbox's `?state=`; what is sent to the service is always the lower-case form.
 */
export function normalizeState(text: string): string {
  return text.trim().toLowerCase();
}

/** The two resources whose state can be changed through the API. */
export type TrackedResource = "allowance" | "expense";

const STATES_OF: Record<TrackedResource, readonly string[]> = { allowance: ALLOWANCE_STATES, expense: EXPENSE_STATES };

/** The states a record of this resource can be in. */
export function statesOf(resource: TrackedResource): readonly string[] {
  return STATES_OF[resource];
}

export function isTargetState(value: unknown): value is TargetState {
  return value === "accounted" || value === "paid";
}
