/** Shapes shared by the resources (spec section 1 and 2). Ids are strings; extra fields are tolerated. */
import { z } from "zod";

export const Id = z.string().min(1);
/** ISO 8601 timestamp, as the service writes it. */
export const Timestamp = z.string().min(1);
/** YYYY-MM-DD */
export const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date written YYYY-MM-DD");

export const Money = z.object({ amount: z.number(), currency: z.string() });
export type Money = z.infer<typeof Money>;

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

/** The envelope fields of single resources (spec section 1). */
export const Envelope = { status: z.number().int().optional(), error: z.string().optional() };

/** Comma-separated expand values of a resource. */
export type ExpandOf<T extends readonly string[]> = T[number][];
