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
import { ALLOWANCE_CURRENCY_EXPAND, allowanceColumns } from "./layouts/allowances";
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
const word = (text: string) => text.replace(/[^A-Za-z0-9]/g, "");

/**
 * The filters and expand of a query as readable words ("approved from20260101 xuser"); "" for the plain
 * query of a scope. Two queries that fetch different records or columns never give the same words.
 */
export function queryWords(input: LoadParams): string[] {
  const p = LoadParams.parse(input);
  // Every expand (the taskpane's default: names beside the ids) is the one word "names"; another choice names itself.
  const expand = (values: readonly string[], all: readonly string[]) =>
    values.length === 0 ? [] : all.every((v) => values.includes(v)) ? ["names"] : [`x${[...values].sort().map(word).join("x")}`];
  switch (p.resource) {
    case "cards": return expand(p.expand, CARD_EXPAND);
    case "movements": return [
      ...(p.type ? [p.type] : []), ...(p.reconciled === undefined ? [] : [p.reconciled ? "reconciled" : "unreconciled"]),
      ...(p.reconciliation ? [] : ["norecon"]),
    ];
    case "allowances": return [...(p.state ? [p.state] : []), ...expand(p.expand, ALLOWANCE_EXPAND)];
    case "expenses": return [
      ...(p.state ? [p.state] : []), ...(p.createdFrom ? [`from${word(p.createdFrom)}`] : []), ...(p.createdTo ? [`to${word(p.createdTo)}`] : []),
      ...expand(p.expand, EXPENSE_EXPAND),
    ];
  }
}

/** A short stable tag of a text (FNV-1a, base 36), for sheet names that cannot hold all of it. */
export function nameTag(text: string, length = 6): string {
  let hash = 2166136261;
  for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(36).padStart(7, "0").slice(0, length);
}

const tagOf = (words: string[]) => nameTag(words.join(" "));

function scopeName(p: LoadParams): [table: string, sheet: string] {
  switch (p.resource) {
    case "cards": return ["SpendCards", "Corporate cards"];
    case "movements": return [`SpendMovements_${short(p.cardId)}_${short(p.billingPeriodId)}`, `Movements ${short(p.cardId)} ${short(p.billingPeriodId)}`];
    case "allowances": return [`SpendAllowances_${short(p.subsidiaryId)}`, `Allowances ${short(p.subsidiaryId)}`];
    case "expenses": return [`SpendExpenses_${short(p.subsidiaryId)}`, `Expenses ${short(p.subsidiaryId)}`];
  }
}

/**
 * One named table per query (resource, scope, filters, expand): the plain query of a scope keeps its
 * short name, a filtered one adds its words, e.g. SpendExpenses_1a2b3c4d_approved_from20260101.
 */
export function tableNameOf(p: LoadParams): string {
  return [scopeName(p)[0], ...queryWords(p)].join("_");
}

/** Sheet names stay under Excel's 31 characters: the query's words when they fit, else a short tag of them. */
export function sheetNameOf(p: LoadParams): string {
  const base = scopeName(p)[1];
  const words = queryWords(p);
  if (words.length === 0) return base;
  const readable = `${base} ${words.join(" ")}`;
  return readable.length <= 31 ? readable : `${base.slice(0, 24)} ${tagOf(words)}`;
}

/** What a load of these parameters fetches, and the columns it shows. */
export interface Source {
  columns: Column<never>[];
  list(client: SpendClient, options: ListOptions): Paginated<{ id: string }>;
}

/** An allowance query's expand with the segments added (once, in the order the user gave, the segments last). */
export const withCurrencyExpand = <T extends string>(expand: readonly T[]): (T | typeof ALLOWANCE_CURRENCY_EXPAND)[] =>
  expand.includes(ALLOWANCE_CURRENCY_EXPAND as T) ? [...expand] : [...expand, ALLOWANCE_CURRENCY_EXPAND];

export function sourceOf(input: LoadParams): Source {
  const p = LoadParams.parse(input);
  // A column of any record type is a column of `never` (its `value` takes a record; never is every record type).
  const as = <T>(columns: Column<T>[]): Column<never>[] => columns;
  switch (p.resource) {
    case "cards":
      return { columns: as(cardColumns(new Set(p.expand))), list: (c, o) => listCards(c, { expand: p.expand }, o) };
    case "movements":
      return {
        columns: as(movementColumns(new Set(p.reconciliation ? ["renconciliation"] : []))),
        list: (c, o) => listMovements(c, { cardId: p.cardId, billingPeriodId: p.billingPeriodId }, { type: p.type, reconciled: p.reconciled, reconciliation: p.reconciliation }, o),
      };
    case "allowances":
      return {
        columns: as(allowanceColumns(new Set(p.expand))),
        // The segments always come: they name the converted amount's currency (layouts/allowances.ts).
        list: (c, o) => listAllowances(c, p.subsidiaryId, { state: p.state, expand: withCurrencyExpand(p.expand) }, o),
      };
    case "expenses":
      return {
        columns: as(expenseColumns(new Set(p.expand))),
        list: (c, o) => listExpenses(c, p.subsidiaryId, { state: p.state, createdFrom: p.createdFrom, createdTo: p.createdTo, expand: p.expand }, o),
      };
  }
}

export const SETTING_PREFIX = "spendsync.table.";
