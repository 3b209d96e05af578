/**
 * Allowances of a subsidiary: their state is changed by Sync states (the Allowances table, =SPEND.ALLOWANCES
 * and =SPEND.ALLOWANCE).
 */
import {
  ALLOWANCE_EXPAND, ALLOWANCE_MAX_PAGE_SIZE, getAllowance, listAllowances, listAllowancesAsGot, stateFilter, updateAllowance,
  type Allowance,
} from "../../api";
import { ALLOWANCE_STATES, ALLOWED_TRANSITIONS } from "../../domain";
import { fullName, idOf, type Column } from "../columns";
import { readingOrder, trackingColumns } from "./tracking";
import { amountText } from "../money-formats";
import { short, pairedRecord, pairedSource, type ResourceModule } from "./resource";
import type { z } from "zod";
import { declare, paramsSchema } from "./params";

/** An allowances query's parameters, in the order the form shows them and =SPEND.ALLOWANCES takes them. */
const ALLOWANCE_PARAMS = declare([
  {
    name: "subsidiaryId", wire: "subsidiary_id", type: "id", required: true, picker: "subsidiary", label: "Subsidiary ID",
    form: { control: "subsidiary-id" }, spend: { arg: "subsidiary_id", help: "The subsidiary's id." },
  },
  {
    name: "state", wire: "state", type: "choice", values: ALLOWANCE_STATES, label: "State",
    display: { pending: "Pending approval", approved: "Approved", accounted: "Accounted", paid: "Paid", rejected: "Rejected" },
    form: { control: "state" }, spend: { arg: "state", help: "Optional: pending, approved, accounted, paid or rejected." },
  },
  {
    name: "expand", wire: "expand", type: "expand", values: ALLOWANCE_EXPAND, label: "Show beside the ids",
    display: { beneficiary: "Beneficiary", allowance_segments: "Allowance segments", documents: "Documents" },
    form: { control: "expand" }, spend: { arg: "expand", help: "Optional: beneficiary, allowance_segments, documents (comma-separated)." },
  },
]);

export const AllowanceParams = paramsSchema("allowances", ALLOWANCE_PARAMS);
type AllowanceParams = z.output<typeof AllowanceParams>;

type A = Allowance;
/**
 * The allowance's converted_amount is a bare number (spec 2.2); its currency is said only on the segments
 * (each segment's converted_amount is a money object). Every allowance source asks for the segments for this
 * (ALLOWANCE_CURRENCY_EXPAND), whatever the user chose to show. Segments that disagree are all named ("CLP /
 * USD"): not an ISO code, so the amount shows its own decimals and the load names it; none, an empty cell.
 * @internal every-table-reads-identity test checks the converted amount's currency directly.
 */
export function convertedCurrency(a: A): string | null {
  const codes = [...new Set((a.allowance_segments ?? []).map((s) => s.converted_amount.currency))];
  return codes.length > 0 ? codes.join(" / ") : null;
}

/** What every allowance request expands, beside the user's choice: the segments, which name the converted amount's currency. */
export const ALLOWANCE_CURRENCY_EXPAND = "allowance_segments" as const;

/**
 * Identity, the editable columns and Sync status, then the rest; with expand, the beneficiary's name (the id kept beside it).
 * @internal column-order tests read every resource's columns with and without expand.
 */
export function allowanceColumns(expand: ReadonlySet<string>): Column<A>[] {
  const identity: Column<A>[] = [
    { key: "id", header: "Allowance ID", kind: "id", value: (a) => a.id },
    { key: "allowance_number", header: "Allowance #", kind: "integer", value: (a) => a.allowance_number },
    { key: "start_date", header: "Start (UTC)", kind: "timestamp", value: (a) => a.start_date },
    { key: "description", header: "Description", kind: "text", value: (a) => a.description },
    { key: "amount", header: "Amount", kind: "amount", value: (a) => a.amount.amount, currencyKey: "currency" },
    { key: "currency", header: "Currency", kind: "text", value: (a) => a.amount.currency },
  ];
  const rest: Column<A>[] = [];
  if (expand.has("beneficiary")) {
    rest.push(
      { key: "beneficiary_name", header: "Beneficiary", kind: "text", value: (a) => fullName(a.beneficiary) },
      { key: "beneficiary_email", header: "Beneficiary email", kind: "text", value: (a) => a.beneficiary?.email },
    );
  }
  rest.push(
    { key: "beneficiary_id", header: "Beneficiary ID", kind: "id", value: (a) => idOf(a.beneficiary_id, a.beneficiary) },
    { key: "cost_center_id", header: "Cost center ID", kind: "id", value: (a) => a.cost_center_id },
    { key: "end_date", header: "End (UTC)", kind: "timestamp", value: (a) => a.end_date },
    { key: "days", header: "Days", kind: "number", value: (a) => a.days },
    { key: "converted_amount", header: "Converted amount", kind: "amount", value: (a) => a.converted_amount, currencyKey: "converted_currency" },
    { key: "converted_currency", header: "Converted currency", kind: "text", value: convertedCurrency },
  );
  if (expand.has("allowance_segments")) {
    rest.push({
      key: "segments", header: "Segments", kind: "text",
      value: (a) => (a.allowance_segments ?? []).map((s) => `${s.fare_name}: ${s.days} d, ${amountText(s.amount.amount, s.amount.currency)} ${s.amount.currency}`).join("; "),
    });
  }
  if (expand.has("documents")) {
    rest.push({ key: "documents", header: "Documents", kind: "integer", value: (a) => (a.documents ?? []).length });
  }
  rest.push(
    { key: "created_at", header: "Created (UTC)", kind: "timestamp", value: (a) => a.created_at },
    { key: "updated_at", header: "Updated (UTC)", kind: "timestamp", value: (a) => a.updated_at },
    { key: "is_active", header: "Active", kind: "boolean", value: (a) => a.is_active },
  );
  return readingOrder(identity, trackingColumns<A>(ALLOWANCE_STATES), rest);
}

/**
 * An allowance query's expand with the segments added (once, in the order the user gave, the segments last).
 * @internal a-table-is-named-for-its-query.test.ts checks the segments are added once.
 */
export const withCurrencyExpand = <T extends string>(expand: readonly T[]): (T | typeof ALLOWANCE_CURRENCY_EXPAND)[] =>
  expand.includes(ALLOWANCE_CURRENCY_EXPAND as T) ? [...expand] : [...expand, ALLOWANCE_CURRENCY_EXPAND];

/** An allowance is asked with its segments, which name the converted amount's currency. */
const RECORD_EXPAND = withCurrencyExpand([]);

export const allowances = {
  scopeName: (p) => [`SpendAllowances_${short(p.subsidiaryId)}`, `Allowances ${short(p.subsidiaryId)}`],
  params: ALLOWANCE_PARAMS,
  // The segments always come: they name the converted amount's currency.
  source: (p) => pairedSource(allowanceColumns(new Set(p.expand)), (c, o) => listAllowances(c, p.subsidiaryId, { state: p.state, expand: withCurrencyExpand(p.expand) }, o)),
  label: "Allowances",
  functionName: "ALLOWANCES",
  record: pairedRecord({
    kind: "allowance",
    columns: () => allowanceColumns(new Set()),
    get: (client, ref, options) => getAllowance(client, ref.subsidiaryId!, ref.id, { expand: RECORD_EXPAND }, options),
    pages: (client, scope, options) => listAllowancesAsGot(client, scope.subsidiaryId!, { expand: RECORD_EXPAND }, options),
    pageSize: ALLOWANCE_MAX_PAGE_SIZE,
    numberKey: "allowance_number",
    label: "Allowance",
  }),
  tracked: {
    resource: "allowance",
    article: "an allowance",
    // The service's transition message for allowances names no allowed state (expenses' has them): they are added.
    refusalHint: (state) => {
      const targets = ALLOWED_TRANSITIONS.allowance[state] ?? [];
      return targets.length ? ` From ${state}, choose ${targets.join(" or ")}.` : " Only approved or accounted allowances can be changed through the API.";
    },
    // A state read from a table's cell: checked here, once (api/list-filters.ts).
    list: (client, subsidiaryId, state, options) => listAllowances(client, subsidiaryId, { state: stateFilter(ALLOWANCE_STATES, state) }, options),
    get: (client, subsidiaryId, id, options) => getAllowance(client, subsidiaryId, id, {}, options),
    update: (client, subsidiaryId, id, patch) => updateAllowance(client, subsidiaryId, id, patch),
  },
} satisfies ResourceModule<AllowanceParams>;
