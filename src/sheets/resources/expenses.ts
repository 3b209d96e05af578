/**
 * Expenses of a subsidiary: their state is changed by Sync states (the Expenses table, =SPEND.EXPENSES and
 * =SPEND.EXPENSE).
 */
import {
  EXPENSE_EXPAND, EXPENSE_MAX_PAGE_SIZE, getExpense, listExpenses, listExpensesAsGot, stateFilter, updateExpense, type Expense,
} from "../../api";
import { EXPENSE_STATES } from "../../domain";
import { fullName, idOf, type Column } from "../columns";
import { readingOrder, trackingColumns } from "./tracking";
import { short, pairedRecord, pairedSource, type ResourceModule } from "./resource";
import type { z } from "zod";
import { declare, paramsSchema } from "./params";

/** An expenses query's parameters, in the order the form shows them and =SPEND.EXPENSES takes them. */
const EXPENSE_PARAMS = declare([
  {
    name: "subsidiaryId", wire: "subsidiary_id", type: "id", required: true, picker: "subsidiary", label: "Subsidiary ID",
    form: { control: "subsidiary-id" }, spend: { arg: "subsidiary_id", help: "The subsidiary's id." },
  },
  {
    name: "state", wire: "state", type: "choice", values: EXPENSE_STATES, label: "State",
    display: { draft: "Draft", pending: "Pending approval", approved: "Approved", accounted: "Accounted", paid: "Paid", rejected: "Rejected" },
    form: { control: "state" }, spend: { arg: "state", help: "Optional: draft, pending, approved, accounted, paid or rejected." },
  },
  {
    name: "createdFrom", wire: "created_at_from", type: "date", tag: "from", label: "Created from",
    form: { control: "created-from" }, spend: { arg: "created_from", help: "Optional: first creation date (an Excel date or YYYY-MM-DD), inclusive." },
  },
  {
    name: "createdTo", wire: "created_at_to", type: "date", tag: "to", label: "Created to",
    form: { control: "created-to" }, spend: { arg: "created_to", help: "Optional: last creation date (an Excel date or YYYY-MM-DD), inclusive." },
  },
  {
    name: "expand", wire: "expand", type: "expand", values: EXPENSE_EXPAND, label: "Show beside the ids",
    display: { cost_center: "Cost center", category: "Category", user: "Employee", approved_by: "Approved by", fund: "Fund", fare: "Mileage fare" },
    form: { control: "expand" }, spend: { arg: "expand", help: "Optional: cost_center, category, user, approved_by, fund, fare (comma-separated)." },
  },
]);

export const ExpenseParams = paramsSchema("expenses", EXPENSE_PARAMS);
type ExpenseParams = z.output<typeof ExpenseParams>;

type E = Expense;
const name = (o: unknown) => (o && typeof o === "object" && "name" in o ? (o as { name: unknown }).name : null);

/**
 * Identity (number, date, description, amount), the editable columns and Sync status, then the rest. With
 * expand, a person, cost center or category shows its name; its id stays in a column of its own, for lookups.
 * @internal column-order and discard tests read every resource's columns with and without expand.
 */
export function expenseColumns(expand: ReadonlySet<string>): Column<E>[] {
  const identity: Column<E>[] = [
    { key: "id", header: "Expense ID", kind: "id", value: (e) => e.id },
    { key: "expense_number", header: "Expense #", kind: "integer", value: (e) => e.expense_number },
    { key: "date", header: "Date", kind: "date", value: (e) => e.date },
    { key: "description", header: "Description", kind: "text", value: (e) => e.description },
    { key: "amount", header: "Amount", kind: "amount", value: (e) => e.amount, currencyKey: "currency" },
    { key: "currency", header: "Currency", kind: "text", value: (e) => e.currency },
  ];
  const rest: Column<E>[] = [];
  if (expand.has("user")) rest.push({ key: "user_name", header: "Employee", kind: "text", value: (e) => fullName(e.user) });
  if (expand.has("cost_center")) rest.push({ key: "cost_center", header: "Cost center", kind: "text", value: (e) => name(e.cost_center) });
  if (expand.has("category")) rest.push({ key: "category", header: "Category", kind: "text", value: (e) => name(e.category) });
  rest.push(
    { key: "provider", header: "Provider", kind: "text", value: (e) => e.provider },
    { key: "expense_type", header: "Type", kind: "text", value: (e) => e.expense_type },
    { key: "net_amount", header: "Net amount", kind: "amount", value: (e) => e.net_amount, currencyKey: "currency" },
    { key: "tax_amount", header: "Tax amount", kind: "amount", value: (e) => e.tax_amount, currencyKey: "currency" },
    { key: "tax_rate", header: "Tax rate %", kind: "percent", value: (e) => e.tax_rate },
    { key: "usd_amount", header: "USD amount", kind: "amount", value: (e) => e.usd_amount, currency: "USD" },
    { key: "subsidiary_expense_amount", header: "Subsidiary amount", kind: "amount", value: (e) => e.subsidiary_expense_amount, currencyKey: "subsidiary_currency" },
    { key: "subsidiary_currency", header: "Subsidiary currency", kind: "text", value: (e) => e.subsidiary_currency },
    { key: "payment_method", header: "Payment method", kind: "text", value: (e) => e.payment_method },
  );
  if (expand.has("user")) rest.push({ key: "user_email", header: "Employee email", kind: "text", value: (e) => e.user?.email });
  rest.push(
    { key: "user_id", header: "Employee ID", kind: "id", value: (e) => idOf(e.user_id, e.user) },
    { key: "cost_center_id", header: "Cost center ID", kind: "id", value: (e) => idOf(e.cost_center_id, e.cost_center) },
    { key: "category_id", header: "Category ID", kind: "id", value: (e) => idOf(e.category_id, e.category) },
  );
  if (expand.has("fund")) rest.push({ key: "fund", header: "Fund", kind: "text", value: (e) => fundText(e.fund) });
  rest.push({ key: "fund_id", header: "Fund ID", kind: "id", value: (e) => idOf(e.fund_id, e.fund) });
  if (expand.has("approved_by")) {
    rest.push({ key: "approved_by", header: "Approved by", kind: "text", value: (e) => (e.approved_by ?? []).map(personText).join("; ") });
  }
  if (expand.has("fare")) rest.push({ key: "fare", header: "Fare", kind: "text", value: (e) => name(e.fare) });
  rest.push(
    { key: "expense_document_type", header: "Document type", kind: "text", value: (e) => e.expense_document_type },
    { key: "document_id", header: "Document #", kind: "text", value: (e) => e.document_id },
    { key: "url", header: "Receipt URL", kind: "text", value: (e) => e.url },
    { key: "created_at", header: "Created (UTC)", kind: "timestamp", value: (e) => e.created_at },
    { key: "is_active", header: "Active", kind: "boolean", value: (e) => e.is_active },
  );
  return readingOrder(identity, trackingColumns<E>(EXPENSE_STATES), rest);
}

function fundText(fund: unknown): string | null {
  if (!fund || typeof fund !== "object") return null;
  const f = fund as { fund_number?: unknown; description?: unknown; id?: unknown };
  return [f.fund_number, f.description].filter((x) => x !== undefined && x !== null).join(" ") || String(f.id ?? "");
}

function personText(p: Record<string, unknown>): string {
  const nameText = [p.first_name, p.last_name].filter(Boolean).join(" ");
  return nameText || String(p.email ?? p.id ?? "");
}

export const expenses = {
  scopeName: (p) => [`SpendExpenses_${short(p.subsidiaryId)}`, `Expenses ${short(p.subsidiaryId)}`],
  params: EXPENSE_PARAMS,
  cross: {
    after: "createdTo",
    rule: ({ createdFrom: from, createdTo: to }) => (from && to && String(from) > String(to) ? `created_from (${String(from)}) is after created_to (${String(to)}).` : undefined),
  },
  source: (p) => pairedSource(
    expenseColumns(new Set(p.expand)),
    (c, o) => listExpenses(c, p.subsidiaryId, { state: p.state, createdFrom: p.createdFrom, createdTo: p.createdTo, expand: p.expand }, o),
  ),
  label: "Expenses",
  functionName: "EXPENSES",
  record: pairedRecord({
    kind: "expense",
    columns: () => expenseColumns(new Set()),
    get: (client, ref, options) => getExpense(client, ref.subsidiaryId!, ref.id, {}, options),
    pages: (client, scope, options) => listExpensesAsGot(client, scope.subsidiaryId!, {}, options),
    pageSize: EXPENSE_MAX_PAGE_SIZE,
    numberKey: "expense_number",
    label: "Expense",
  }),
  tracked: {
    resource: "expense",
    article: "an expense",
    refusalHint: () => "",
    // A state read from a table's cell: checked here, once (api/list-filters.ts).
    list: (client, subsidiaryId, state, options) => listExpenses(client, subsidiaryId, { state: stateFilter(EXPENSE_STATES, state) }, options),
    get: (client, subsidiaryId, id, options) => getExpense(client, subsidiaryId, id, {}, options),
    update: (client, subsidiaryId, id, patch) => updateExpense(client, subsidiaryId, id, patch),
  },
} satisfies ResourceModule<ExpenseParams>;
