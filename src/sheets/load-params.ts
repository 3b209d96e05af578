/**
 * What a table holds: resource, scope, filters, expand. Stored in the workbook (never the key) so that
 * Refresh reloads the same thing and a colleague can refresh with their own key.
 */
import { z } from "zod";
import {
  ALLOWANCE_EXPAND, CARD_EXPAND, EXPENSE_EXPAND, MOVEMENT_TYPES, listAllowances, listCards, listExpenses, listMovements,
  type ListOptions, type Paginated, type SpendClient,
} from "../api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../domain";
import type { Column } from "./columns";
import { allowanceColumns } from "./layouts/allowances";
import { cardColumns } from "./layouts/cards";
import { expenseColumns } from "./layouts/expenses";
import { movementColumns } from "./layouts/movements";

const Base = { enterpriseId: z.string().min(1) };

export const LoadParams = z.discriminatedUnion("resource", [
  z.object({ resource: z.literal("cards"), ...Base, expand: z.array(z.enum(CARD_EXPAND)).default([]) }),
  z.object({
    resource: z.literal("movements"), ...Base, cardId: z.string().min(1), billingPeriodId: z.string().min(1),
    type: z.enum(MOVEMENT_TYPES).optional(), reconciled: z.boolean().optional(), reconciliation: z.boolean().default(true),
  }),
  z.object({
    resource: z.literal("allowances"), ...Base, subsidiaryId: z.string().min(1), state: z.enum(ALLOWANCE_STATES).optional(),
    expand: z.array(z.enum(ALLOWANCE_EXPAND)).default([]),
  }),
  z.object({
    resource: z.literal("expenses"), ...Base, subsidiaryId: z.string().min(1), state: z.enum(EXPENSE_STATES).optional(),
    createdFrom: z.string().optional(), createdTo: z.string().optional(), expand: z.array(z.enum(EXPENSE_EXPAND)).default([]),
  }),
]);
export type LoadParams = z.input<typeof LoadParams>;
export type ResourceKind = LoadParams["resource"];

/** Allowances and expenses carry the editable columns that Sync states sends. */
export const isTracked = (resource: ResourceKind): resource is "allowances" | "expenses" =>
  resource === "allowances" || resource === "expenses";

const short = (id: string) => id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);

/** One named table per resource and scope. */
export function tableNameOf(p: LoadParams): string {
  switch (p.resource) {
    case "cards": return "SpendCards";
    case "movements": return `SpendMovements_${short(p.cardId)}_${short(p.billingPeriodId)}`;
    case "allowances": return `SpendAllowances_${short(p.subsidiaryId)}`;
    case "expenses": return `SpendExpenses_${short(p.subsidiaryId)}`;
  }
}

/** Sheet names stay under Excel's 31 characters. */
export function sheetNameOf(p: LoadParams): string {
  switch (p.resource) {
    case "cards": return "Corporate cards";
    case "movements": return `Movements ${short(p.cardId)} ${short(p.billingPeriodId)}`;
    case "allowances": return `Allowances ${short(p.subsidiaryId)}`;
    case "expenses": return `Expenses ${short(p.subsidiaryId)}`;
  }
}

/** What a load of these parameters fetches, and the columns it shows. */
export interface Source {
  columns: Column<never>[];
  list(client: SpendClient, options: ListOptions): Paginated<{ id: string }>;
}

export function sourceOf(input: LoadParams): Source {
  const p = LoadParams.parse(input);
  const as = <T>(columns: Column<T>[]) => columns as unknown as Column<never>[];
  switch (p.resource) {
    case "cards":
      return { columns: as(cardColumns(new Set(p.expand))), list: (c, o) => listCards(c, { expand: p.expand }, o) };
    case "movements":
      return {
        columns: as(movementColumns(new Set(p.reconciliation ? ["renconciliation"] : []))),
        list: (c, o) => listMovements(c, { cardId: p.cardId, billingPeriodId: p.billingPeriodId }, { type: p.type, reconciled: p.reconciled, reconciliation: p.reconciliation }, o),
      };
    case "allowances":
      return { columns: as(allowanceColumns(new Set(p.expand))), list: (c, o) => listAllowances(c, p.subsidiaryId, { state: p.state, expand: p.expand }, o) };
    case "expenses":
      return {
        columns: as(expenseColumns(new Set(p.expand))),
        list: (c, o) => listExpenses(c, p.subsidiaryId, { state: p.state, createdFrom: p.createdFrom, createdTo: p.createdTo, expand: p.expand }, o),
      };
  }
}

export const SETTING_PREFIX = "spendsync.table.";
