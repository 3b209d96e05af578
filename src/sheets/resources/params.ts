/**
 * A resource's parameters, each declared once (zod's docs: one schema, the single source from which forms and
 * parsers come; stripe-node: every method generated from one declaration). From a module's declarations come
 * its load schema (paramsSchema), its table-name words (paramWords), its =SPEND list function's arguments
 * (spendArgs) and the taskpane's form (taskpane/load-form.ts builds a control per declaration). Adding a
 * parameter is one declaration and the call that sends it: the form, the function, the name follow.
 */
import { z } from "zod";
import { isListed } from "../../api/listed-values";
import { isIsoDate, type IsoDate } from "../../domain";

/**
 * Where a parameter is offered: the taskpane's form (its control's id, a hint under it) and a =SPEND argument.
 * Each is said, `null` where it is offered there on purpose not at all: a new parameter that forgets one does not
 * compile, rather than load in one entry point and be missing from the other.
 */
interface Offers {
  /** The taskpane's Load form; `control` is the control's element id (an id's is its picker's). */
  form: { control: string; hint?: string } | null;
  /** A =SPEND list function's argument: its name and the description Excel shows (the build writes both into functions.json). */
  spend: { arg: string; help: string } | null;
}

interface Declared<N extends string> extends Offers {
  /** The parameter's name in the query and the workbook's stored settings ("subsidiaryId"). */
  name: N;
  /** Its name on the wire (the service's path or query parameter). */
  wire: string;
  /** What a person reads beside it (the form's label, its "is required" message). */
  label: string;
}

/** The id pickers of the taskpane (taskpane/pickers.ts): subsidiary, card, billing period. */
export type PickerKey = "subsidiary" | "card" | "period";

/** A scope id (a path segment): required, and the table name's stem (the module's scopeName), never a word. */
interface IdParam<N extends string = string> extends Declared<N> {
  type: "id";
  required: true;
  picker: PickerKey;
}

/** One value of a list (a state, a movement type), or none: the value is its own word of the table name. */
interface ChoiceParam<N extends string = string, V extends string = string> extends Declared<N> {
  type: "choice";
  values: readonly V[];
  /** What a person reads for each value (docs/labels.md): the value itself is what is sent and what a cell keeps. */
  display: Readonly<Record<V, string>>;
}

/** Values to expand (each ticked in the form by default): every one is the word "names", fewer name themselves. */
export interface ExpandParam<N extends string = string, V extends string = string> extends Declared<N> {
  type: "expand";
  values: readonly V[];
  /** What a person reads beside each value's box (the column header it adds where there is one). */
  display: Readonly<Record<V, string>>;
}

/** Yes or no, or unsaid (or a default): each side's word in the table name ("" for none) and what a person reads. */
interface BooleanParam<N extends string = string> extends Declared<N> {
  type: "boolean";
  words: { true: string; false: string };
  display?: { true: string; false: string };
  default?: boolean;
}

/** A date (YYYY-MM-DD), or none: its word is the tag and the date's digits ("from20260101"). */
interface DateParam<N extends string = string> extends Declared<N> {
  type: "date";
  tag: string;
}

export type ParamDecl = IdParam | ChoiceParam | ExpandParam | BooleanParam | DateParam;
type ParamType = ParamDecl["type"];

/** A rule across parameters of one query, checked on the =SPEND arguments once `after` is read: a message when broken. */
export interface CrossCheck {
  after: string;
  rule(values: Readonly<Record<string, unknown>>): string | undefined;
}

/** A module's declarations, in the order the form shows them and the =SPEND function takes them. */
export const declare = <const D extends readonly ParamDecl[]>(params: D): D => params;

type ZodOf<D> =
  D extends IdParam ? z.ZodString
  : D extends ChoiceParam<string, infer V> ? z.ZodOptional<z.ZodType<V>>
  : D extends ExpandParam<string, infer V> ? z.ZodDefault<z.ZodArray<z.ZodType<V>>>
  : D extends BooleanParam ? (D extends { default: boolean } ? z.ZodDefault<z.ZodBoolean> : z.ZodOptional<z.ZodBoolean>)
  : D extends DateParam ? z.ZodOptional<z.ZodType<IsoDate>>
  : never;

/** The zod shape of a module's declarations. */
type ShapeOf<D extends readonly ParamDecl[]> = { [P in D[number] as P["name"]]: ZodOf<P> };

/**
 * A value of a choice, or one of an expand's, as the schema takes it: checked by isListed, the one check of a
 * listed value at every entry point (a =SPEND argument's, functions/args.ts, asks it too, with the cell's message).
 */
const listedValue = (p: ChoiceParam | ExpandParam) =>
  z.custom<string>((v) => typeof v === "string" && isListed(p.values, v), `${p.name} must be one of ${p.values.join(", ")}.`);

function zodOf(p: ParamDecl): z.ZodType {
  switch (p.type) {
    case "id": return z.string().min(1);
    case "choice": return listedValue(p).optional();
    case "expand": return z.array(listedValue(p)).default([]);
    case "boolean": return p.default === undefined ? z.boolean().optional() : z.boolean().default(p.default);
    // The form's date box and a table's stored settings are text: a date is checked here, once, as the list
    // takes it (an IsoDate, not checked again: api/list-filters.ts).
    case "date": return z.custom<IsoDate>((v) => typeof v === "string" && isIsoDate(v), `${p.name} must be a date written YYYY-MM-DD.`).optional();
  }
}

/**
 * A query's parameters from =SPEND arguments functions/args.ts has checked, each by its declaration: what its
 * schema would fill in for an argument not given (an expand's [], a yes/no's default) is filled in, nothing is
 * checked again.
 */
export function withDefaults(params: readonly ParamDecl[], checked: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = { ...checked };
  for (const p of params) {
    if (values[p.name] !== undefined) continue;
    if (p.type === "expand") values[p.name] = [];
    if (p.type === "boolean" && p.default !== undefined) values[p.name] = p.default;
  }
  return values;
}

/** A resource's load schema: its kind, the enterprise, and one member per declaration. */
export function paramsSchema<R extends string, const D extends readonly ParamDecl[]>(resource: R, params: D) {
  const shape = Object.fromEntries(params.map((p) => [p.name, zodOf(p)])) as ShapeOf<D>;
  return z.object({ resource: z.literal(resource), enterpriseId: z.string().min(1), ...shape });
}

/** A value as a word of a table name. */
const word = (text: string) => text.replace(/[^A-Za-z0-9]/g, "");

/** Every expand (the taskpane's default: names beside the ids) is the one word "names"; another choice names itself. */
const expandWords = (values: readonly string[], all: readonly string[]): string[] =>
  values.length === 0 ? [] : all.every((v) => values.includes(v)) ? ["names"] : [`x${[...values].sort().map(word).join("x")}`];

/** The words of one parameter's value in a table name (none for a scope id or an absent value). */
function wordsOf(p: ParamDecl, value: unknown): string[] {
  switch (p.type) {
    case "id": return [];
    case "choice": return typeof value === "string" ? [value] : [];
    case "expand": return expandWords(Array.isArray(value) ? value : [], p.values);
    case "boolean": return typeof value === "boolean" ? [p.words[value ? "true" : "false"]].filter(Boolean) : [];
    case "date": return typeof value === "string" && value ? [`${p.tag}${word(value)}`] : [];
  }
}

/** A query's filters and expand as table-name words, in declaration order: every filter names itself. */
export function paramWords(params: readonly ParamDecl[], values: Readonly<Record<string, unknown>>): string[] {
  return params.flatMap((p) => wordsOf(p, values[p.name]));
}

/** An argument of a =SPEND list function, checked by its type, and the parameter it fills. */
export interface ArgSpec {
  arg: string;
  param: string;
  type: ParamType;
  /** An id: the function cannot be called without it (the others are optional in Excel's metadata). */
  required: boolean;
  /** The allowed values of a choice or an expand. */
  values?: readonly string[];
  /** What Excel shows for it (functions.json's description, written from this by the build). */
  help: string;
  /** A rule across arguments, checked once this one is read: a message when the earlier values and this one disagree. */
  check?: (value: unknown, earlier: Readonly<Record<string, unknown>>) => string | undefined;
}

/** A module's =SPEND arguments, in declaration order, the cross check on the one it follows. */
export function spendArgs(params: readonly ParamDecl[], cross?: CrossCheck): ArgSpec[] {
  return params.flatMap((p) => (p.spend ? [{
    arg: p.spend.arg, param: p.name, type: p.type, help: p.spend.help, required: p.type === "id" && p.required,
    values: p.type === "choice" || p.type === "expand" ? p.values : undefined,
    check: cross?.after === p.name ? (_value: unknown, earlier: Readonly<Record<string, unknown>>) => cross.rule(earlier) : undefined,
  }] : []));
}
