/** Expenses of a subsidiary (spec 2.3, 4.6, 4.7, 4.8). */
import { z } from "zod";
import { EXPENSE_STATES, type ExpenseState, type IsoDate } from "../domain";
import type { SendOptions, SpendClient } from "./client";
import { DateOnly, Envelope, Id, Opaque, Person, Timestamp, arrayOf, listed, recordOf, type ExpandOf } from "./common";
import { Paginated, type ListOptions } from "./pagination";
import { asGot, type ListedRecord } from "./record-lists";
import { checkedPatch, type StatePatch } from "./state-patch";

export const EXPENSE_EXPAND = ["cost_center", "category", "user", "approved_by", "fund", "fare"] as const;
export const EXPENSE_MAX_PAGE_SIZE = 1000;

const Named = z.object({ id: Id, name: z.string(), internal_id: z.string().optional() });
/** "Field names of the fund, approved_by and fare objects: not shown": kept whole, nothing required. */
const Loose = Opaque;

const expenseFields = {
  id: Id,
  description: z.string(),
  expense_type: z.string(),
  currency: z.string(),
  amount: z.number(),
  usd_amount: z.number().nullable(),
  state: listed(EXPENSE_STATES),
  date: DateOnly,
  expense_number: z.number().int(),
  content_type: z.string(),
  cost_center_id: Id.optional(),
  cost_center: Named.nullable().optional(),
  category_id: Id.optional(),
  category: Named.nullable().optional(),
  user_id: Id.optional(),
  user: Person.nullable().optional(),
  fund_id: Id.nullable().optional(),
  fund: Loose.nullable().optional(),
  approved_by: arrayOf(Loose).optional(),
  fare: Loose.nullable().optional(),
  is_active: z.boolean(),
  created_at: Timestamp,
  url: z.string(),
  document_id: z.string(),
  expense_document_type: z.string(),
  provider: z.string(),
  payment_method: z.string(),
  net_amount: z.number(),
  tax_amount: z.number(),
  tax_rate: z.number(),
  subsidiary_currency: z.string(),
  subsidiary_expense_amount: z.number(),
  accounted_id: z.string().nullable(),
  paid_id: z.string().nullable(),
  paid_at: Timestamp.nullable(),
  additional_questions: z.array(z.unknown()).optional(),
  additional_file_url: z.string().optional(),
};

/** An expense; an unlisted `state` loads and is reported by `unknownValuesOf`. */
export const Expense = recordOf(expenseFields);
export type Expense = z.infer<typeof Expense>;

/** An expense as its GET answers it (spec 4.7): with the envelope fields. */
export const ExpenseDetail = recordOf({ ...expenseFields, ...Envelope });

/** An expenses list's filters, typed: checked where they came in, not again here (list-filters.ts says why). */
export interface ExpenseQuery {
  /** Sent as it is; a state written as text goes through stateFilter(EXPENSE_STATES, text) first. */
  state?: ExpenseState;
  /** Inclusive; a date written as text goes through isoDateOf first. */
  createdFrom?: IsoDate;
  /** Inclusive. */
  createdTo?: IsoDate;
  expand?: ExpandOf<typeof EXPENSE_EXPAND>;
}

const base = (subsidiaryId: string) => `subsidiaries/${encodeURIComponent(subsidiaryId)}/expenses/`;

export function listExpenses(client: SpendClient, subsidiaryId: string, query: ExpenseQuery = {}, options: ListOptions = {}): Paginated<Expense> {
  return new Paginated(client, {
    resource: "expenses", path: base(subsidiaryId), item: Expense, maxPageSize: EXPENSE_MAX_PAGE_SIZE,
    query: { state: query.state, created_at_from: query.createdFrom, created_at_to: query.createdTo, expand: query.expand },
  }, options);
}

export function getExpense(client: SpendClient, subsidiaryId: string, expenseId: string,
  query: Pick<ExpenseQuery, "expand"> = {}, options: SendOptions = {}): Promise<Expense> {
  const url = client.url(`${base(subsidiaryId)}${encodeURIComponent(expenseId)}/`, { expand: query.expand });
  return client.get(ExpenseDetail, "expense", url, options);
}

/** Expenses of a subsidiary, each as its GET would answer it (record-lists.ts): what the record functions' batches read. */
export function listExpensesAsGot(client: SpendClient, subsidiaryId: string, query: Pick<ExpenseQuery, "expand"> = {},
  options: ListOptions = {}): Paginated<ListedRecord<Expense>> {
  return new Paginated(client, {
    resource: "expenses", path: base(subsidiaryId), item: asGot(ExpenseDetail), maxPageSize: EXPENSE_MAX_PAGE_SIZE, query: { expand: query.expand },
  }, options);
}

/** The URL and body of an expense's state PATCH: what the sync sends, and what a team batch freezes. */
export function expensePatchRequest(client: SpendClient, subsidiaryId: string, expenseId: string, patch: StatePatch): { url: string; body: StatePatch } {
  return { url: client.url(`${base(subsidiaryId)}${encodeURIComponent(expenseId)}/`), body: checkedPatch(patch) };
}

/** Sends one state change; the answer is the updated expense. Never retried: read first after an unknown outcome. */
export async function updateExpense(client: SpendClient, subsidiaryId: string, expenseId: string, patch: StatePatch,
  options: SendOptions = {}): Promise<Expense> {
  const { url, body } = expensePatchRequest(client, subsidiaryId, expenseId, patch);
  return client.patch(ExpenseDetail, "expense update", url, body, options);
}
