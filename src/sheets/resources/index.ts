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
import { paramWords, spendArgs, withDefaults, type ExpandParam, type ParamDecl } from "./params";
import type { FormSpec, ListFunctionSpec, RecordKind, RecordSpec, ResourceModule, Source, TrackedSpec } from "./resource";

export type { FormSpec, ListFunctionSpec, RecordKind, RecordRef, RecordScope, RecordSpec, Source, TrackedRecord, TrackedSpec } from "./resource";
export type { ArgSpec, ParamDecl, PickerKey } from "./params";

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

/** A query's parameters as its schema gives them (defaults filled in): what the workbook stores. */
export type ParsedParams = z.output<typeof LoadParams>;

/**
 * A query as a value (DESIGN.md: declared once, parsed once at each entry point, passed down whole). The taskpane's
 * form, a =SPEND function and a table's stored settings each parse their parameters once into a Query; the load,
 * refresh, sync and the reconciliation summary take it and ask it: its module, table-name words and columns are
 * resolved once, with it.
 */
export class Query {
  /** The table and sheet names' stem ("SpendExpenses_1a2b3c4d", "Expenses 1a2b3c4d"). */
  readonly scopeName: [table: string, sheet: string];
  /** Its filters and expand as table-name words ([] for the plain query of a scope). */
  readonly words: string[];
  /** For allowances and expenses: Sync states' calls and the subsidiary they are asked in. */
  readonly tracked?: { spec: TrackedSpec; subsidiaryId: string };
  #source: Source | undefined;
  readonly #build: () => Source;

  private constructor(readonly params: ParsedParams) {
    const bound = bind(params.resource, params);
    this.scopeName = bound.scopeName;
    this.words = bound.words;
    this.tracked = bound.tracked;
    this.#build = bound.source;
  }

  /** Parses parameters once (a Query is passed through as it is); bad parameters are refused by their schema. */
  static parse(input: LoadParams | Query | Readonly<Record<string, unknown>>): Query {
    return input instanceof Query ? input : new Query(LoadParams.parse(input));
  }

  /**
   * A =SPEND list function's query, from its arguments as functions/args.ts checked them, each once, by the
   * declaration it fills (listFunctionOf): its schema is not run over them again, as it would check the same
   * thing twice with another error. The cast is that contract: every declared argument is checked and typed by
   * its declaration before it is here, and a parameter the function does not offer takes its schema's default.
   */
  static ofArguments(kind: ResourceKind, enterpriseId: string, checked: Readonly<Record<string, unknown>>): Query {
    return new Query({ ...withDefaults(REGISTRY[kind].params, checked), resource: kind, enterpriseId } as ParsedParams);
  }

  /** A query of parameters a schema has just parsed (a table's stored settings), not parsed again. */
  static ofParsed(params: ParsedParams): Query {
    return new Query(params);
  }

  get kind(): ResourceKind {
    return this.params.resource;
  }

  /** What a load of it fetches and the columns it shows: built once, when first asked (naming a table needs none). */
  get source(): Source {
    this.#source ??= this.#build();
    return this.#source;
  }

  /** The parameters of a movements query, whose table gets a reconciliation summary; null for the other kinds. */
  get summary(): MovementsQuery | null {
    return this.params.resource === "movements" ? this.params : null;
  }
}

/** A kind's module bound to its parameters. */
function bind<K extends ResourceKind>(kind: K, p: ParamsByKind[K]) {
  const module: ResourceModule<ParamsByKind[K]> = REGISTRY[kind];
  return {
    scopeName: module.scopeName(p), words: paramWords(module.params, p), source: () => module.source(p),
    tracked: module.tracked && "subsidiaryId" in p ? { spec: module.tracked, subsidiaryId: p.subsidiaryId } : undefined,
  };
}

const isExpand = (p: ParamDecl): p is ExpandParam => p.type === "expand";

/** What the taskpane shows for a kind: the parameters its declarations offer to the form. */
export function formOf(kind: ResourceKind): FormSpec {
  const { label, noExpand, params } = REGISTRY[kind];
  const offered = params.filter((p) => p.form);
  return { label, noExpand, fields: offered.filter((p) => !isExpand(p)), expand: offered.find(isExpand) };
}

/** A kind's =SPEND list function: the arguments its declarations offer, in their order. */
export const listFunctionOf = (kind: ResourceKind): ListFunctionSpec =>
  ({ name: REGISTRY[kind].functionName, args: spendArgs(REGISTRY[kind].params, REGISTRY[kind].cross) });

const RECORDS: Record<RecordKind, RecordSpec> = { card: cards.record, allowance: allowances.record, expense: expenses.record };

/** A record function's resource. */
export const recordSpecOf = (kind: RecordKind): RecordSpec => RECORDS[kind];

const TRACKED: Record<TrackedResource, TrackedSpec> = { allowance: allowances.tracked, expense: expenses.tracked };

/** The calls Sync states makes for a tracked resource. */
export const trackedSpecOf = (resource: TrackedResource): TrackedSpec => TRACKED[resource];

/** A movements query's parameters (its table gets a reconciliation summary on a sheet of its own). */
export type MovementsQuery = Extract<ParsedParams, { resource: "movements" }>;
