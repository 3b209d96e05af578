/**
 * Filters of the list calls written as untyped text, checked here once. listExpenses and listAllowances take a
 * state as the union of the states the service lists and a date as an IsoDate, so a caller holding checked values
 * (a Query: its =SPEND arguments checked by functions/args.ts, its form or stored settings by its schema) is not
 * checked a second time on every call (issue 44: one argument was checked three times with three error types). A
 * caller holding text (a state read from a table's cell by Sync states, a date it computes) passes it through
 * these, which refuse it in the words the service itself would use, before anything is sent.
 */
import { isIsoDate, normalizeState, type IsoDate } from "../domain";
import { InvalidRequestError } from "./errors";
import { isListed } from "./listed-values";

/** A state filter from text, compared trimmed and in any case (normalizeState), as the lower-case state it sends. */
export function stateFilter<const T extends readonly string[]>(states: T, text: string): T[number] {
  const state = normalizeState(text);
  if (isListed(states, state)) return state;
  throw new InvalidRequestError(`state must be one of ${states.join(", ")}; got '${text}'.`);
}

/** A date filter from text: a real calendar date written YYYY-MM-DD; `name` is the filter's, for the message. */
export function isoDateOf(name: string, text: string): IsoDate {
  if (isIsoDate(text)) return text;
  throw new InvalidRequestError(`${name} must be a date written YYYY-MM-DD; got '${text}'.`);
}
