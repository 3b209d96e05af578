/** Movements of a card's billing period (spec 2.4, 4.9, 4.10). */
import { z } from "zod";
import type { SendOptions, SpendClient } from "./client";
import { DateOnly, Envelope, Id, Money, Opaque, Timestamp, listed, recordOf } from "./common";
import { Paginated, type ListOptions } from "./pagination";

export const MOVEMENT_TYPES = ["payment", "expense", "associated_fee", "other_fee"] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
export const MOVEMENT_MAX_PAGE_SIZE = 100;

export const Reconciliation = z.object({
  id: Id,
  expense: z.object({
    id: Id,
    description: z.string(),
    expense_number: z.number().int(),
    date: Timestamp,
    amount: Money,
    usd_amount: Money.nullable(),
    cost_center: z.object({ id: Id, name: z.string() }).nullable(),
    state: z.string(),
  }),
});
export type Reconciliation = z.infer<typeof Reconciliation>;

const movementFields = {
  id: Id,
  amount: Money,
  description: z.string(),
  transaction_date: DateOnly,
  is_deposit: z.boolean(),
  reconciliation: Reconciliation.nullable().optional(),
  type: listed(MOVEMENT_TYPES),
  current_installment: z.number().int(),
  total_installments: z.number().int(),
  reference_code: z.string(),
  /** "shape when not null: not shown": kept whole. */
  foreign_amount: Opaque.nullable(),
  is_debt_transfer: z.boolean(),
};

/** A movement; an unlisted `type` loads and is reported by `unknownValuesOf`. */
export const Movement = recordOf(movementFields);
export type Movement = z.infer<typeof Movement>;

const MovementDetail = recordOf({ ...movementFields, ...Envelope });

export interface MovementScope {
  cardId: string;
  billingPeriodId: string;
}

export interface MovementQuery {
  type?: MovementType;
  reconciled?: boolean;
  /** Adds the reconciliation object (the spec spells the expand value `renconciliation`). */
  reconciliation?: boolean;
}

function base(scope: MovementScope): string {
  return `corporate-cards/${encodeURIComponent(scope.cardId)}/billing-periods/${encodeURIComponent(scope.billingPeriodId)}/movements/`;
}

export function listMovements(client: SpendClient, scope: MovementScope, query: MovementQuery = {}, options: ListOptions = {}): Paginated<Movement> {
  return new Paginated(client, {
    resource: "movements", path: base(scope), item: Movement, maxPageSize: MOVEMENT_MAX_PAGE_SIZE,
    query: { type: query.type, reconciled: query.reconciled, expand: query.reconciliation ? "renconciliation" : undefined },
  }, options);
}

/** 4.10, read as `…/movements/{movement_id}/` (DESIGN.md). */
export function getMovement(client: SpendClient, scope: MovementScope, movementId: string, query: Pick<MovementQuery, "reconciliation"> = {},
  options: SendOptions = {}): Promise<Movement> {
  const url = client.url(`${base(scope)}${encodeURIComponent(movementId)}/`, { expand: query.reconciliation ? "renconciliation" : undefined });
  return client.get(MovementDetail, "movement", url, options);
}
