/**
 * The =SPEND.* custom functions. Metadata (functions.json) is generated from these JSDoc blocks by
 * custom-functions-metadata-plugin; ids are stable (a change is caught by the snapshot test). Each function
 * checks its arguments (a list function's, as its resource's module in sheets/resources lists them), then asks
 * the shared governor; the work is done in sheets/ and api/.
 */
import {
  Query, listFunctionOf, recordColumns, recordEntity, rowFormatter, spillList, typedGrid, typedValue,
  type RecordKind, type ResourceKind, type SpendArgs, type Spill,
} from "../sheets";
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
 * A list function: its arguments, passed by the names its resource's module declares (one left out does not
 * compile), checked in order, each by its declared type (a rule across them once the one it follows is read),
 * then the list asked through the governor, keyed by the checked values.
 */
function list<K extends ResourceKind>(kind: K, values: SpendArgs[K], invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return guard(() => {
    const spec = listFunctionOf(kind);
    const given: Readonly<Record<string, unknown>> = values;
    const checked: Record<string, unknown> = {};
    spec.args.forEach((arg) => {
      checked[arg.param] = argumentOf(arg, given[arg.arg]);
      const problem = arg.check?.(checked[arg.param], checked);
      if (problem) throw new ArgumentError(problem);
    });
    return governed(spec.name, spec.args.map((arg) => checked[arg.param]), invocation, async (client, signal) =>
      spillList(client, Query.parse({ resource: kind, enterpriseId: enterpriseOf(), ...checked }), { signal })).then(output);
  });
}

/**
 * Corporate cards of the connected enterprise, with a header row.
 * @customfunction CARDS CARDS
 * @param [expand] Optional: user, bank, or "user,bank" to show the card holder and the bank.
 * @param invocation Invocation
 * @returns A table of cards.
 */
export async function cards(expand: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return list("cards", { expand }, invocation);
}

/**
 * Movements of one billing period of a corporate card, with their reconciliation, and a header row.
 * @customfunction MOVEMENTS MOVEMENTS
 * @param card_id The card's id.
 * @param billing_period_id The billing period's id.
 * @param [type] Optional: payment, expense, associated_fee or other_fee.
 * @param [reconciled] Optional: TRUE for reconciled movements only, FALSE for the others.
 * @param invocation Invocation
 * @returns A table of movements.
 */
export async function movements(card_id: any, billing_period_id: any, type: any, reconciled: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return list("movements", { card_id, billing_period_id, type, reconciled }, invocation);
}

/**
 * Allowances of a subsidiary, with a header row.
 * @customfunction ALLOWANCES ALLOWANCES
 * @param subsidiary_id The subsidiary's id.
 * @param [state] Optional: pending, approved, accounted, paid or rejected.
 * @param [expand] Optional: beneficiary, allowance_segments, documents (comma-separated).
 * @param invocation Invocation
 * @returns A table of allowances.
 */
export async function allowances(subsidiary_id: any, state: any, expand: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return list("allowances", { subsidiary_id, state, expand }, invocation);
}

/**
 * Expenses of a subsidiary, with a header row.
 * @customfunction EXPENSES EXPENSES
 * @param subsidiary_id The subsidiary's id.
 * @param [state] Optional: draft, pending, approved, accounted, paid or rejected.
 * @param [created_from] Optional: first creation date (an Excel date or YYYY-MM-DD), inclusive.
 * @param [created_to] Optional: last creation date (an Excel date or YYYY-MM-DD), inclusive.
 * @param [expand] Optional: cost_center, category, user, approved_by, fund, fare (comma-separated).
 * @param invocation Invocation
 * @returns A table of expenses.
 */
export async function expenses(subsidiary_id: any, state: any, created_from: any, created_to: any, expand: any,
  invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return list("expenses", { subsidiary_id, state, created_from, created_to, expand }, invocation);
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
