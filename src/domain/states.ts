/** The states of allowances and expenses (spec 2.2, 2.3, 3). */

export const ALLOWANCE_STATES = ["pending", "approved", "accounted", "paid", "rejected"] as const;
export type AllowanceState = (typeof ALLOWANCE_STATES)[number];

export const EXPENSE_STATES = ["draft", "pending", "approved", "accounted", "paid", "rejected"] as const;
export type ExpenseState = (typeof EXPENSE_STATES)[number];

/** The only states a PATCH may ask for (spec 4.5, 4.8). */
export const TARGET_STATES = ["accounted", "paid"] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/** The two resources whose state can be changed through the API. */
export type TrackedResource = "allowance" | "expense";

/** The states a record of this resource can be in. */
export function statesOf(resource: TrackedResource): readonly string[] {
  return resource === "allowance" ? ALLOWANCE_STATES : EXPENSE_STATES;
}

export function isTargetState(value: unknown): value is TargetState {
  return value === "accounted" || value === "paid";
}
