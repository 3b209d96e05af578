/**
 * Shapes shared by the resources (spec sections 1 and 2). They follow the spec to the letter: strict where it
 * types or enumerates a field, lenient where it says "not shown" (an object whose fields are not shown is kept
 * whole, nothing required of it). Extra fields of known objects are tolerated (and dropped).
 */
import { z } from "zod";
import { isIsoDate, isValidTimestamp } from "../domain";
export { listed, recordOf, unknownValuesOf, hasUnknownValues, isListed, type Unlisted, type UnknownValue } from "./listed-values";

export const Id = z.string().min(1);

// RFC 3339 / ISO 8601 extended: a 4-digit year, T, hh:mm (seconds and fraction optional) and a zone. The
// calendar and clock ranges are the domain's rule (normalizeTimestamp), the same the sandbox and sync apply.
const TIMESTAMP_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * True for a timestamp the spec allows: ISO 8601 with a real date and time and a zone (Z or ±hh:mm). The
 * domain's rule is isValidTimestamp, which answers as `normalizeTimestamp(value) !== null` does without
 * building the UTC text: this runs on every timestamp of every page a list loads.
 */
export function isTimestamp(value: string): boolean {
  return TIMESTAMP_SHAPE.test(value) && isValidTimestamp(value);
}

/** ISO 8601 timestamp with a zone. A bare date, a year 20260, 2026-02-30 or a missing zone is refused. */
export const Timestamp = z.string().refine(isTimestamp, "expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z");
/** YYYY-MM-DD, a real calendar date. */
export const DateOnly = z.string().refine(isIsoDate, "expected a real date written YYYY-MM-DD");

export const Money = z.object({ amount: z.number(), currency: z.string() });
export type Money = z.infer<typeof Money>;

/** An object whose fields the spec does not show: kept whole, with every field it has; nothing is required of it. */
export const Opaque = z.looseObject({});
export type Opaque = z.infer<typeof Opaque>;

/** A card holder, beneficiary or expense owner when expanded (personal data). */
export const Person = z.object({
  id: Id,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  internal_id: z.string(),
  government_id: z.string(),
});
export type Person = z.infer<typeof Person>;

/**
 * An array whose items are checked one by one, stopping at the first that does not match: a record holding
 * 10^5 bad items costs one issue, not 10^5 (zod's own array reports every item).
 */
export function arrayOf<T>(item: z.ZodType<T>) {
  return z.array(z.unknown()).transform((items, ctx): T[] => {
    const out: T[] = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const checked = item.safeParse(items[i]);
      if (!checked.success) {
        const [issue] = checked.error.issues;
        // The item's first issue, its index in front of its path: its message and path are what a note shows (issuesOf).
        ctx.issues.push({ code: "custom", message: issue.message, path: [i, ...issue.path], input: items[i] });
        return z.NEVER;
      }
      out[i] = checked.data;
    }
    return out;
  });
}

/** The envelope fields of single resources (spec section 1). */
export const Envelope = { status: z.number().int().optional(), error: z.string().optional() };

/** Comma-separated expand values of a resource. */
export type ExpandOf<T extends readonly string[]> = T[number][];
