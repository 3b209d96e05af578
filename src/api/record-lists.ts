/**
 * A list read as the GETs of its records would read them, for the record functions' batches
 * (functions/record-batch.ts). Each record of a page is checked against the schema of its GET's answer (the
 * detail schema, with the envelope fields) and counted against a GET answer's value budget. One that passes
 * is what a GET of it returns, field for field (detail-only fields aside, such as an expense's
 * additional_questions, which no column shows). One that does not is handed over without a value: a GET of
 * it then decides, with its own answer or its own error. Pagination is any list's (page guard, count checks,
 * the resource's maximum page size).
 */
import { z } from "zod";
import { Id } from "./common";
import { MAX_VALUES_PER_RECORD } from "./schema-check";

/** One record of a list page: its value as a GET of it would return it, or undefined when a GET must decide. */
export interface ListedRecord<T> {
  id: string;
  record: T | undefined;
}

/**
 * Values of a parsed JSON value as json-scan.ts counts them in its text (1, plus 1 per object or array, plus
 * 1 per comma), the count stopping once it passes `max`.
 */
function valuesIn(value: unknown, max: number): number {
  let count = 1;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object") continue;
    const members = Array.isArray(item) ? item : Object.values(item as Record<string, unknown>);
    count += 1 + Math.max(0, members.length - 1);
    if (count > max) return count;
    for (const member of members) stack.push(member);
  }
  return count;
}

/**
 * The item schema of such a list: any object with an id, kept as it came, then checked as a GET's answer.
 * A GET refuses an answer of more than MAX_VALUES_PER_RECORD + 64 values unread; the list record lacks the
 * GET's envelope (status, error) and detail-only fields, so it is answered from the list only within
 * MAX_VALUES_PER_RECORD (the 64 of slack left for those), and above that a GET decides.
 */
export function asGot<T>(detail: z.ZodType<T>): z.ZodType<ListedRecord<T>> {
  return z.looseObject({ id: Id }).transform((raw): ListedRecord<T> => {
    if (valuesIn(raw, MAX_VALUES_PER_RECORD) > MAX_VALUES_PER_RECORD) return { id: raw.id, record: undefined };
    const checked = detail.safeParse(raw);
    return { id: raw.id, record: checked.success ? checked.data : undefined };
  });
}
