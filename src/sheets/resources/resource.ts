/**
 * What the add-in knows about one resource (cards, movements, allowances, expenses), in one module each
 * (stripe-node's one resource per file, one layer up from api/): its load parameters and the table names
 * they give, its columns, its list call, its parameters' declarations (params.ts), its record function and,
 * for the two whose state the API changes, the calls Sync states makes. The service's schemas and calls stay
 * in api/<resource>.ts; a module here binds them to a table. The hosts read the fields and arguments as data:
 * a layer below them cannot import them.
 */
import type {
  ListedRecord, ListOptions, Paginated, SendOptions, SpendClient, StatePatch,
} from "../../api";
import type { TrackedResource } from "../../domain";
import type { Column } from "../columns";
import type { ArgSpec, CrossCheck, ExpandParam, ParamDecl } from "./params";

/** What a load of a query fetches, and the columns it shows (a column of any record type: the module pairs them). */
export interface Source {
  columns: Column<object>[];
  list(client: SpendClient, options: ListOptions): Paginated<{ id: string }>;
}

/** The taskpane's load form for a resource: its name in the list, its scope fields in order, its expand boxes. */
export interface FormSpec {
  label: string;
  /** The parameters the form offers (each a control built from its declaration), in order; the expand apart. */
  fields: readonly Exclude<ParamDecl, ExpandParam>[];
  /** What may be expanded (each ticked by default); none: `noExpand` is said instead. */
  expand?: ExpandParam;
  noExpand?: string;
}

/** A =SPEND list function: its name and arguments, in the order Excel passes them. */
export interface ListFunctionSpec {
  name: string;
  args: readonly ArgSpec[];
}

/** The records one list holds: a subsidiary's expenses or allowances, or the enterprise's cards. */
export interface RecordScope {
  kind: RecordKind;
  /** For allowances and expenses. */
  subsidiaryId?: string;
}

/** One record, asked by id. */
export interface RecordRef extends RecordScope {
  id: string;
}

export type RecordKind = "card" | "allowance" | "expense";

/** A resource read one record at a time (=SPEND.CARD, ALLOWANCE, EXPENSE). */
export interface RecordSpec {
  kind: RecordKind;
  /** Every column of its table without expand (a record function shows all of them). */
  columns(): Column<object>[];
  /** Its GET, asked the way its table's list asks (an allowance with its segments). */
  get(client: SpendClient, ref: RecordRef, options: SendOptions): Promise<object>;
  /** Its list, each record checked by its GET's schema (api/record-lists.ts). */
  pages(client: SpendClient, scope: RecordScope, options: ListOptions): Paginated<ListedRecord<object>>;
  /** Records asked for a page of its list: the resource's maximum. */
  pageSize: number;
  /** The column whose value names a record in a cell (an entity's text) after `label`: "Expense 1042", "Card 4242". */
  numberKey: string;
  label: string;
}

/** The tracked values of a record, as the service sends them. */
export interface TrackedRecord {
  id: string;
  state: string;
  accounted_id: string | null;
  paid_id: string | null;
  paid_at: string | null;
}

/** The calls Sync states makes for a resource whose state the API changes. */
export interface TrackedSpec {
  resource: TrackedResource;
  /** "an allowance", for messages. */
  article: string;
  /** What the service's refusal of a transition from `state` leaves out, said after it ("" when it says it all). */
  refusalHint(state: string): string;
  list(client: SpendClient, subsidiaryId: string, state: string, options: ListOptions): Paginated<TrackedRecord>;
  get(client: SpendClient, subsidiaryId: string, id: string, options: SendOptions): Promise<TrackedRecord>;
  /** The PATCH; its answer carries the record's tracked values and, from a service that sends it, when it changed. */
  update(client: SpendClient, subsidiaryId: string, id: string, patch: StatePatch): Promise<TrackedRecord & { updated_at?: string }>;
}

/** One resource, for its parsed load parameters `P`. */
export interface ResourceModule<P> {
  /** The table and sheet names' stem: "SpendExpenses_1a2b3c4d" and "Expenses 1a2b3c4d". */
  scopeName(p: P): [table: string, sheet: string];
  /** Its parameters, each declared once (params.ts): schema, form, =SPEND arguments and table-name words come from them. */
  params: readonly ParamDecl[];
  /** A rule across its parameters, checked on the =SPEND arguments. */
  cross?: CrossCheck;
  source(p: P): Source;
  /** Its name in the taskpane's list. */
  label: string;
  /** Said in the form where it has nothing to expand. */
  noExpand?: string;
  /** Its =SPEND list function ("EXPENSES"). */
  functionName: string;
  record?: RecordSpec;
  tracked?: TrackedSpec;
}

/**
 * A query's source, its columns and its list of one record type: a column is a `Column<object>` once in a Source
 * (Column.value is a method), so the pairing is checked here, where the record type is still known.
 */
export const pairedSource = <T extends { id: string }>(
  columns: Column<T>[], list: (client: SpendClient, options: ListOptions) => Paginated<T>,
): Source => ({ columns, list });

/** A record function's resource, its columns, GET and list of one record type (checked here, as in pairedSource). */
export const pairedRecord = <T extends object>(spec: Omit<RecordSpec, "columns" | "get" | "pages"> & {
  columns(): Column<T>[];
  get(client: SpendClient, ref: RecordRef, options: SendOptions): Promise<T>;
  pages(client: SpendClient, scope: RecordScope, options: ListOptions): Paginated<ListedRecord<T>>;
}): RecordSpec => spec;

/** An id as a short word of a table or sheet name. */
export const short = (id: string) => id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
