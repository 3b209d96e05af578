/** Allowances of a subsidiary (spec 2.2, 4.3, 4.4, 4.5). */
import { z } from "zod";
import { ALLOWANCE_STATES, type AllowanceState } from "../domain";
import type { SendOptions, SpendClient } from "./client";
import { Envelope, Id, Money, Opaque, Person, Timestamp, arrayOf, listed, recordOf, type ExpandOf } from "./common";
import { Paginated, type ListOptions } from "./pagination";
import { asGot, type ListedRecord } from "./record-lists";
import { checkedPatch, type StatePatch } from "./state-patch";

export const ALLOWANCE_EXPAND = ["beneficiary", "allowance_segments", "documents"] as const;
export const ALLOWANCE_MAX_PAGE_SIZE = 1000;

export const AllowanceSegment = z.object({
  id: Id,
  start_date: Timestamp,
  end_date: Timestamp,
  fare_id: Id,
  fare_name: z.string(),
  days: z.number(),
  amount: Money,
  converted_amount: Money,
});

/**
 * "Fields of a document entry other than its signed URL: not shown", and the URL's field name is not given
 * either: an entry is kept whole, so one odd entry cannot fail a list. The sandbox sends url, id, name and
 * content_type (docs/sandbox.md).
 */
export const AllowanceDocument = Opaque;

const allowanceFields = {
  id: Id,
  allowance_number: z.number().int(),
  description: z.string(),
  state: listed(ALLOWANCE_STATES),
  beneficiary_id: Id.optional(),
  beneficiary: Person.optional(),
  cost_center_id: Id,
  start_date: Timestamp,
  end_date: Timestamp,
  days: z.number(),
  amount: Money,
  currency: z.string(),
  converted_amount: z.number(),
  accounted_id: z.string().nullable(),
  paid_id: z.string().nullable(),
  paid_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp.optional(),
  is_active: z.boolean(),
  allowance_segments: arrayOf(AllowanceSegment).optional(),
  documents: arrayOf(AllowanceDocument).optional(),
};

/** An allowance; an unlisted `state` loads and is reported by `unknownValuesOf`. */
export const Allowance = recordOf(allowanceFields);
export type Allowance = z.infer<typeof Allowance>;

/** An allowance as its GET answers it (spec 4.4): with the envelope fields. */
export const AllowanceDetail = recordOf({ ...allowanceFields, ...Envelope });

/** The PATCH answer of spec 4.5. */
export const AllowanceUpdate = recordOf({
  id: Id,
  state: listed(ALLOWANCE_STATES),
  accounted_id: z.string().nullable(),
  paid_id: z.string().nullable(),
  paid_at: Timestamp.nullable(),
  converted_amount: z.number(),
  updated_at: Timestamp,
  ...Envelope,
});
export type AllowanceUpdate = z.infer<typeof AllowanceUpdate>;

/** An allowances list's filters, typed: checked where they came in, not again here (list-filters.ts says why). */
export interface AllowanceQuery {
  /** Sent as it is; a state written as text goes through stateFilter(ALLOWANCE_STATES, text) first. */
  state?: AllowanceState;
  expand?: ExpandOf<typeof ALLOWANCE_EXPAND>;
}

const base = (subsidiaryId: string) => `subsidiaries/${encodeURIComponent(subsidiaryId)}/allowances/`;

export function listAllowances(client: SpendClient, subsidiaryId: string, query: AllowanceQuery = {}, options: ListOptions = {}): Paginated<Allowance> {
  return new Paginated(client, {
    resource: "allowances", path: base(subsidiaryId), query: { state: query.state, expand: query.expand },
    item: Allowance, maxPageSize: ALLOWANCE_MAX_PAGE_SIZE,
  }, options);
}

export function getAllowance(client: SpendClient, subsidiaryId: string, allowanceId: string,
  query: Pick<AllowanceQuery, "expand"> = {}, options: SendOptions = {}): Promise<Allowance> {
  const url = client.url(`${base(subsidiaryId)}${encodeURIComponent(allowanceId)}/`, { expand: query.expand });
  return client.get(AllowanceDetail, "allowance", url, options);
}

/** Allowances of a subsidiary, each as its GET would answer it (record-lists.ts): what the record functions' batches read. */
export function listAllowancesAsGot(client: SpendClient, subsidiaryId: string, query: Pick<AllowanceQuery, "expand"> = {},
  options: ListOptions = {}): Paginated<ListedRecord<Allowance>> {
  return new Paginated(client, {
    resource: "allowances", path: base(subsidiaryId), item: asGot(AllowanceDetail), maxPageSize: ALLOWANCE_MAX_PAGE_SIZE, query: { expand: query.expand },
  }, options);
}

/** The URL and body of an allowance's state PATCH: what the sync sends, and what a team batch freezes. */
export function allowancePatchRequest(client: SpendClient, subsidiaryId: string, allowanceId: string, patch: StatePatch): { url: string; body: StatePatch } {
  return { url: client.url(`${base(subsidiaryId)}${encodeURIComponent(allowanceId)}/`), body: checkedPatch(patch) };
}

/** Sends one state change. Never retried: after an unknown outcome, read the allowance first. */
export async function updateAllowance(client: SpendClient, subsidiaryId: string, allowanceId: string, patch: StatePatch,
  options: SendOptions = {}): Promise<AllowanceUpdate> {
  const { url, body } = allowancePatchRequest(client, subsidiaryId, allowanceId, patch);
  return client.patch(AllowanceUpdate, "allowance update", url, body, options);
}
