/**
 * The =SPEND.* custom functions. Metadata (functions.json) is generated from these JSDoc blocks by
 * custom-functions-metadata-plugin; ids are stable (a change is caught by the snapshot test). A list function's
 * parameters are its resource's declarations (sheets/resources): the build writes them into functions.json
 * (tools/functions-metadata.js), so a declared parameter is offered, described and checked with no line here.
 * Each function checks its arguments, then asks the shared governor; the work is done in sheets/ and api/.
 */
// Narrow paths, not the sheets barrel: the barrel brings every module of sheets/ into functions.js, which the
// webview downloads before the first formula answers.
import { rowFormatter } from "../sheets/money-formats";
import { Query, listFunctionOf, type RecordKind, type ResourceKind } from "../sheets/resources";
import { recordColumns, spillList, type Spill } from "../sheets/spill/spill";
import { recordEntity, typedGrid, typedValue } from "../sheets/spill/types";
import { argumentOf, plainArgument, requiredId, ArgumentError } from "./args";
import { toFunctionError } from "./errors";
import { plainGrid, plainValue } from "./plain-values";
import { governedRecord } from "./record-batch";
import { currentSession, governed, resultForm } from "./runtime";

// The metadata plugin appends `CustomFunctions.associate(...)` calls to this file, and Office.js defines
// CustomFunctions. Where Office.js did not load (a blocked CDN), those calls would throw at load and leave the
// taskpane blank; with no Excel to call the functions, they register with a CustomFunctions that keeps nothing,
// and the taskpane says why it cannot start (taskpane/host-support.ts).
if (typeof CustomFunctions === "undefined") Reflect.set(globalThis, "CustomFunctions", { associate: () => undefined });

/**
 * A list as Excel shows it: with data types where this Excel takes them from a function (dates look like dates),
 * else plain, its dates as ISO text (plain-values.ts).
 */
const output = (spill: Spill): any[][] => {
  const form = resultForm();
  return form === "plain" ? plainGrid(spill) : typedGrid(spill, form);
};

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toFunctionError(error);
  }
}

const enterpriseOf = () => currentSession().currentClient().enterpriseId;

/**
 * A list function. Excel passes the arguments functions.json lists for it (its resource's declarations, in their
 * order), then the invocation, always last; each is checked by its declared type, in order (a rule across them
 * once the one it follows is read), then the list is asked through the governor, keyed by the checked values.
 * Checked once: the query is made of the checked values, not parsed again, and the api's list takes them typed.
 */
function list(kind: ResourceKind, passed: readonly unknown[]): Promise<any[][]> {
  return guard(() => {
    const spec = listFunctionOf(kind);
    const invocation = passed[passed.length - 1] as CustomFunctions.Invocation;
    const checked: Record<string, unknown> = {};
    spec.args.forEach((arg, at) => {
      checked[arg.param] = argumentOf(arg, at < passed.length - 1 ? passed[at] : undefined);
      const problem = arg.check?.(checked[arg.param], checked);
      if (problem) throw new ArgumentError(problem);
    });
    return governed(spec.name, spec.args.map((arg) => checked[arg.param]), invocation, async (client, signal) =>
      spillList(client, Query.ofArguments(kind, enterpriseOf(), checked), { signal })).then(output);
  });
}

/**
 * Corporate cards of the connected enterprise, with a header row.
 * @customfunction CARDS CARDS
 * @param args Its arguments, as the cards resource declares them (functions.json lists them), then the invocation.
 * @returns A table of cards.
 */
export async function cards(...args: any[]): Promise<any[][]> {
  return list("cards", args);
}

/**
 * Movements of one billing period of a corporate card, with their reconciliation, and a header row.
 * @customfunction MOVEMENTS MOVEMENTS
 * @param args Its arguments, as the movements resource declares them (functions.json lists them), then the invocation.
 * @returns A table of movements.
 */
export async function movements(...args: any[]): Promise<any[][]> {
  return list("movements", args);
}

/**
 * Allowances of a subsidiary, with a header row.
 * @customfunction ALLOWANCES ALLOWANCES
 * @param args Its arguments, as the allowances resource declares them (functions.json lists them), then the invocation.
 * @returns A table of allowances.
 */
export async function allowances(...args: any[]): Promise<any[][]> {
  return list("allowances", args);
}

/**
 * Expenses of a subsidiary, with a header row.
 * @customfunction EXPENSES EXPENSES
 * @param args Its arguments, as the expenses resource declares them (functions.json lists them), then the invocation.
 * @returns A table of expenses.
 */
export async function expenses(...args: any[]): Promise<any[][]> {
  return list("expenses", args);
}

async function one(name: string, kind: RecordKind, id: string, subsidiaryId: string | undefined, fieldArgument: unknown,
  invocation: CustomFunctions.Invocation): Promise<any[][]> {
  const field = plainArgument("field", fieldArgument);
  const wanted = field === undefined || field === null || String(field).trim() === "" ? null : String(field).trim().toLowerCase();
  let column = -1;
  if (wanted !== null) {
    const columns = recordColumns(kind);
    column = columns.findIndex((c) => c.key === wanted || c.header.toLowerCase() === wanted);
    if (column < 0) throw new ArgumentError(`field must be one of ${columns.map((c) => c.key).join(", ")}; got "${String(field)}".`);
  }
  // Batched with the other record calls of its scope (record-batch.ts); the answer is its GET's, cell for cell.
  const spill = await governedRecord(name, { kind, id, subsidiaryId }, invocation);
  const form = resultForm();
  // Always a grid, as the metadata declares (matrix): one field or the entity as a single cell, or, without
  // data types, the record with its header row.
  if (column >= 0) {
    const value = spill.rows[0][column];
    if (form === "plain") return [[plainValue(spill.columns[column].kind, value)]];
    // An amount's decimals follow its currency, as in the tables.
    return [[typedValue(spill.columns[column].kind, value, form, rowFormatter(spill.columns)?.(spill.rows[0])[column])]];
  }
  return form === "plain" ? plainGrid(spill) : [[recordEntity(kind, spill, form)]];
}

/**
 * One corporate card as a header row and its row, or one field's value.
 * @customfunction CARD CARD
 * @param card_id The card's id.
 * @param [field] Optional: a column such as last_four_digits or billing_day (its key or its header).
 * @param invocation Invocation
 * @returns The card (a header row and its row), or one field's value as a single cell.
 */
export async function card(card_id: any, field: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return guard(async () => one("CARD", "card", requiredId("card_id", card_id), undefined, field, invocation));
}

/**
 * One allowance as a header row and its row, or one field's value.
 * @customfunction ALLOWANCE ALLOWANCE
 * @param subsidiary_id The subsidiary's id.
 * @param allowance_id The allowance's id.
 * @param [field] Optional: a column such as state, amount or paid_at (its key or its header).
 * @param invocation Invocation
 * @returns The allowance (a header row and its row), or one field's value as a single cell.
 */
export async function allowance(subsidiary_id: any, allowance_id: any, field: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return guard(async () => {
    const sub = requiredId("subsidiary_id", subsidiary_id);
    return one("ALLOWANCE", "allowance", requiredId("allowance_id", allowance_id), sub, field, invocation);
  });
}

/**
 * One expense as a header row and its row, or one field's value.
 * @customfunction EXPENSE EXPENSE
 * @param subsidiary_id The subsidiary's id.
 * @param expense_id The expense's id.
 * @param [field] Optional: a column such as state, amount or paid_at (its key or its header).
 * @param invocation Invocation
 * @returns The expense (a header row and its row), or one field's value as a single cell.
 */
export async function expense(subsidiary_id: any, expense_id: any, field: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return guard(async () => {
    const sub = requiredId("subsidiary_id", subsidiary_id);
    return one("EXPENSE", "expense", requiredId("expense_id", expense_id), sub, field, invocation);
  });
}
