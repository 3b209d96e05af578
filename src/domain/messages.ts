/**
 * The service's error messages. Where spec section 7 gives the exact text it is used to the letter;
 * the rest are the sandbox's own wording (docs/sandbox.md) and are shared with the add-in's planner so
 * that a row rejected locally reads exactly as the server would have put it.
 */
import type { TrackedResource } from "./states";

/**
 * A short, bounded description of any decoded JSON value. Never JSON.stringify a value that came from a
 * request: a body nested 10,000 deep overflowed the stack there, and a long one would flood the message.
 * @internal values.test.ts checks each kind of value directly (deep, long, circular) rather than through every message.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return value.length > 64 ? `${JSON.stringify(value.slice(0, 64))}…` : JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** How the service's messages name a record of each resource. */
const TITLES: Record<TrackedResource, string> = { allowance: "Allowance", expense: "Expense" };
const title = (r: TrackedResource) => TITLES[r];

export const messages = {
  /** Spec 4.5 rule 2 and 4.8 rule 1 (exact). */
  alreadyInState: (r: TrackedResource, state: string) => `${title(r)} is already in ${state} state`,
  /** Spec 4.5 rule 3 (exact). */
  invalidTransition: (from: string, to: string) => `Invalid state transition from '${from}' to '${to}'.`,
  /** Spec 4.8 rule 2: the spec fixes the beginning; the rest is ours. */
  cannotChangeExpense: (from: string) =>
    `Cannot change state from '${from}': only approved or accounted expenses can be changed through the API.`,
  paidFieldsWithAccounted: () => "paid_id and paid_at must not be sent when state is 'accounted'.",
  stateRequired: () => "state is required: send 'accounted' or 'paid'.",
  stateNotTarget: (value: unknown) => `state must be 'accounted' or 'paid'; got ${describeValue(value)}.`,
  fieldNotString: (field: string) => `${field} must be a string.`,
  fieldTooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  badTimestamp: (field: string) =>
    `${field} must be an ISO 8601 date-time with Z or an offset, e.g. 2026-03-31T12:00:00Z.`,
  timestampNotWireForm: (field: string, issue: string) =>
    `${field} must be written as ISO 8601 in its extended form, e.g. 2026-03-31T12:00:00Z or 2026-03-31T17:30:00+05:30; this one has ${issue}.`,
  timestampOutOfRange: (field: string) =>
    `${field} must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z once converted to UTC.`,
  unknownField: (field: string, allowed: readonly string[]) =>
    `Unknown field '${field}'; allowed fields are ${allowed.join(", ")}.`,
  bodyNotObject: () => "The request body must be a JSON object.",
};
