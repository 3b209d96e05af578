/**
 * The registry: the four resources by kind, the load parameters they accept (one schema member each), and the
 * one place that picks a resource's module for a query, a record kind or a tracked resource. Nothing outside
 * src/sheets/resources/ branches on a resource's kind: it asks here. (domain/, below this layer and shared with the
 * sandbox, keeps the service's own rules per tracked resource as lookup tables: states, titles, refusals.)
 *
 * Three names for a kind, each where it means something: a table's `ResourceKind` ("expenses", the load
 * parameters' `resource`), a record function's `RecordKind` ("expense": cards, allowances and expenses have one) and
 * the service's `TrackedResource` ("expense": allowances and expenses, whose state Sync states changes). Each module
 * says its own three.
 */
import { z } from "zod";
import type { TrackedResource } from "../../domain";
import { AllowanceParams, allowances } from "./allowances";
import { CardParams, cards } from "./cards";
import { ExpenseParams, expenses } from "./expenses";
import { MovementParams, movements } from "./movements";
import type { FormSpec, ListFunctionSpec, RecordKind, RecordSpec, ResourceModule, Source, TrackedSpec } from "./resource";

export type { ArgSpec, FormField, FormSpec, ListFunctionSpec, RecordKind, RecordRef, RecordScope, RecordSpec, Source, TrackedRecord, TrackedSpec } from "./resource";
export { allowanceColumns, convertedCurrency, withCurrencyExpand } from "./allowances";
export { cardColumns } from "./cards";
export { expenseColumns } from "./expenses";
export { movementColumns } from "./movements";

/** What a table holds: resource, scope, filters, expand; checked before anything is asked. */
export const LoadParams = z.discriminatedUnion("resource", [CardParams, MovementParams, AllowanceParams, ExpenseParams]);
export type LoadParams = z.input<typeof LoadParams>;
export type ResourceKind = LoadParams["resource"];

/** Each kind's parsed parameters. */
interface ParamsByKind {
  cards: z.output<typeof CardParams>;
  movements: z.output<typeof MovementParams>;
  allowances: z.output<typeof AllowanceParams>;
  expenses: z.output<typeof ExpenseParams>;
}

/** Every kind's module, in the order the taskpane offers them. */
const REGISTRY: { [K in ResourceKind]: ResourceModule<ParamsByKind[K]> } = { expenses, allowances, cards, movements };

const isKind = (key: string): key is ResourceKind => key in REGISTRY;

/** The kinds in the order the taskpane offers them: the registry's, so a new module is offered at once. */
export const RESOURCE_KINDS: readonly ResourceKind[] = Object.keys(REGISTRY).filter(isKind);

/** A query's resource, bound to its parameters. */
export interface BoundResource {
  scopeName: [table: string, sheet: string];
  queryWords: string[];
  source: Source;
  /** For allowances and expenses: Sync states' calls and the subsidiary they are asked in. */
  tracked?: { spec: TrackedSpec; subsidiaryId: string };
}

function bind<K extends ResourceKind>(kind: K, p: ParamsByKind[K]): BoundResource {
  const module: ResourceModule<ParamsByKind[K]> = REGISTRY[kind];
  return {
    scopeName: module.scopeName(p), queryWords: module.queryWords(p),
    tracked: module.tracked && "subsidiaryId" in p ? { spec: module.tracked, subsidiaryId: p.subsidiaryId } : undefined,
    // Built when asked: naming a table needs no columns.
    get source() {
      return module.source(p);
    },
  };
}

/** The resource of these parameters, checked by their schema. */
export function resourceOf(input: LoadParams): BoundResource {
  const p = LoadParams.parse(input);
  return bind(p.resource, p);
}

/** What the taskpane shows for a kind. */
export const formOf = (kind: ResourceKind): FormSpec => REGISTRY[kind].form;

/** A kind's =SPEND list function. */
export const listFunctionOf = (kind: ResourceKind): ListFunctionSpec => REGISTRY[kind].listFunction;

/** Allowances and expenses carry the editable columns that Sync states sends. */
export const isTracked = (kind: ResourceKind): boolean => REGISTRY[kind].tracked !== undefined;

const RECORDS: Record<RecordKind, RecordSpec> = { card: cards.record, allowance: allowances.record, expense: expenses.record };

/** A record function's resource. */
export const recordSpecOf = (kind: RecordKind): RecordSpec => RECORDS[kind];

const TRACKED: Record<TrackedResource, TrackedSpec> = { allowance: allowances.tracked, expense: expenses.tracked };

/** The calls Sync states makes for a tracked resource. */
export const trackedSpecOf = (resource: TrackedResource): TrackedSpec => TRACKED[resource];

/** A movements query's parameters (its table gets a reconciliation summary on a sheet of its own). */
export type MovementsQuery = Extract<LoadParams, { resource: "movements" }>;

/** The parameters of a query whose table gets a reconciliation summary on its own sheet (movements); else null. */
export function summaryParamsOf(input: LoadParams): MovementsQuery | null {
  const p = LoadParams.parse(input);
  return p.resource === "movements" ? p : null;
}
