/**
 * Fields the spec enumerates (an allowance's or expense's `state`, a movement's `type`). A value outside the
 * list must not fail a whole load, and must not pass for a known one either: the record loads with the value
 * as sent, typed `Unlisted` (so code cannot use it as a known state without checking), and the record is
 * marked on a side channel that `unknownValuesOf(record)` reads. The mark is not a property of the record: it
 * never becomes a column, a JSON field or a PATCH field.
 */
import { z } from "zod";

declare const unlisted: unique symbol;
/** A value of an enumerated field that the spec does not list. Still a string (the sheet shows it as sent). */
export type Unlisted = string & { readonly [unlisted]: true };

/** One enumerated field of a record whose value the spec does not list. */
export interface UnknownValue {
  /** The field's name in the service's JSON, e.g. `state` or `type`. */
  readonly field: string;
  /** The value as the service sent it. */
  readonly value: string;
  /** The values the spec lists for this field. */
  readonly allowed: readonly string[];
}

const marks = new WeakMap<object, readonly UnknownValue[]>();
const listsOf = new WeakMap<z.ZodType, readonly string[]>();

/** A string field whose values the spec enumerates; an unlisted value is kept, typed `Unlisted`, and marked on its record. */
export function listed<const T extends readonly string[]>(values: T) {
  const schema = z.string().transform((value) => value as T[number] | Unlisted);
  listsOf.set(schema, values);
  return schema;
}

/** True when `value` is one of `values` (and narrows it). */
export function isListed<const T extends readonly string[]>(values: T, value: string): value is T[number] {
  return values.includes(value);
}

/** An object schema whose `listed` fields are checked after parsing, each unlisted value marked on the parsed record. */
export function recordOf<S extends z.ZodRawShape>(shape: S) {
  const fields = Object.entries(shape).flatMap(([name, schema]) => {
    const allowed = listsOf.get(schema as z.ZodType);
    return allowed ? [{ name, allowed }] : [];
  });
  return z.object(shape).transform((record) => {
    const found: UnknownValue[] = [];
    for (const { name, allowed } of fields) {
      const value = (record as Record<string, unknown>)[name];
      if (typeof value === "string" && !allowed.includes(value)) found.push(Object.freeze({ field: name, value, allowed }));
    }
    if (found.length > 0) marks.set(record, Object.freeze(found));
    return record;
  });
}

/** The enumerated fields of a record (as returned by a list or get) whose value the spec does not list; empty when none. */
export function unknownValuesOf(record: object): readonly UnknownValue[] {
  return marks.get(record) ?? [];
}

/** True when the record has at least one unlisted value: load it read-only with a note; never sync it. */
export function hasUnknownValues(record: object): boolean {
  return marks.has(record);
}
