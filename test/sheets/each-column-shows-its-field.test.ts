/**
 * Every column of every table (src/sheets/resources/*.ts, pure: no Excel): the field it shows (its key, which is
 * also the `field` argument of =SPEND.EXPENSE and its kin), its header, its kind (which sets its format) and the
 * currency of an amount; and a record with a distinct value in every field, rendered as the row a user reads, with
 * every expand and without. Any column that lost its field, its name or its kind changes one of these.
 */
import { Allowance, Card, Expense, Movement } from "../../src/api";
import { sourceOf, type LoadParams } from "../../src/sheets/load/params";
import { recordRenderer } from "../../src/sheets/render";
import type { ReadOnly, Snapshot } from "../../src/sheets/edits/snapshot";

const person = (n: number) => ({ id: `p${n}`, first_name: `Ana${n}`, last_name: `Pérez${n}`, email: `ana${n}@example.com`, phone: "+56", internal_id: `I${n}`, government_id: `G${n}` });
const money = (amount: number, currency: string) => ({ amount, currency });

const EXPENSE = {
  id: "e1", description: "Lunch", expense_type: "meal", currency: "USD", amount: 12.5, usd_amount: 12.75, state: "accounted", date: "2026-03-02",
  expense_number: 1001, content_type: "image/png", cost_center_id: "cc1", category_id: "cat1", user_id: "p1", fund_id: "f1", is_active: false,
  created_at: "2026-03-02T12:00:00Z", url: "https://files.example/r.png", document_id: "F-7", expense_document_type: "invoice", provider: "Cafe",
  payment_method: "card", net_amount: 10.25, tax_amount: 2.25, tax_rate: 21, subsidiary_currency: "CLP", subsidiary_expense_amount: 11000,
  accounted_id: "ACC-1", paid_id: null, paid_at: null,
};
const EXPENSE_EXPANDED = {
  ...EXPENSE, user: person(1), cost_center: { id: "cc1", name: "Sales" }, category: { id: "cat1", name: "Meals" },
  fund: { id: "f1", fund_number: 7, description: "Travel fund" }, approved_by: [person(2), { id: "p3", email: "boss@example.com" }], fare: { id: "fa1", name: "Day fare" },
};
const ALLOWANCE = {
  id: "a1", allowance_number: 2002, description: "Trip", state: "paid", beneficiary_id: "p4", cost_center_id: "cc2",
  start_date: "2026-03-01T08:00:00Z", end_date: "2026-03-03T18:00:00Z", days: 2.5, amount: money(100, "CLP"), currency: "CLP",
  converted_amount: 90.5, accounted_id: "ACC-2", paid_id: "PAY-2", paid_at: "2026-03-05T10:00:00Z", created_at: "2026-02-27T09:30:00Z",
  updated_at: "2026-03-05T10:00:00Z", is_active: true,
  allowance_segments: [{ id: "s1", start_date: "2026-03-01T08:00:00Z", end_date: "2026-03-03T18:00:00Z", fare_id: "fa2", fare_name: "Lunch", days: 2.5, amount: money(100, "CLP"), converted_amount: money(90.5, "EUR") }],
};
const ALLOWANCE_EXPANDED = { ...ALLOWANCE, beneficiary: person(4), documents: [{ url: "https://files.example/1" }, { url: "https://files.example/2" }, { url: "https://files.example/3" }] };
const CARD = {
  id: "c1", user_id: "p5", last_four_digits: "0042", bank_id: "b1", national_balance_currency: "CLP", international_balance_currency: "USD",
  billing_day: 25, billing_mode: "bank_movements",
};
const CARD_EXPANDED = { ...CARD, user: person(5), bank: { id: "b1", name: "Banco Uno" } };
const MOVEMENT = {
  id: "m1", amount: money(5000, "CLP"), description: "Fee", transaction_date: "2026-03-04", is_deposit: true, type: "associated_fee",
  current_installment: 2, total_installments: 3, reference_code: "R-9", foreign_amount: money(6.5, "USD"), is_debt_transfer: false,
  reconciliation: {
    id: "rc1", expense: { id: "e9", description: "Taxi", expense_number: 3003, date: "2026-03-04T09:00:00Z", amount: money(4.75, "USD"), usd_amount: null, cost_center: null, state: "paid" },
  },
};

const params = (resource: string, expand: string[] = []) =>
  ({ resource, enterpriseId: "ent-1", subsidiaryId: "sub-1", cardId: "c1", billingPeriodId: "bp1", expand }) as unknown as LoadParams;
const columns = (p: LoadParams) => sourceOf(p).columns.map((c) => [c.key, c.header, c.kind, c.currencyKey ?? c.currency ?? ""]);
const row = (p: LoadParams, record: { id: string }) => recordRenderer(p)(record, new Map() as Snapshot, new Map() as ReadOnly);

/** Each column as [field, header, kind, currency of an amount], and the record's cell under it. */
const table = (p: LoadParams, record: { id: string }) => {
  const cells = row(p, record);
  return columns(p).map((c, i) => [...c, cells[i]]);
};

describe("every column: its field, header, kind and currency, and the record's value in it", () => {
  it("expenses, no expand", () => {
    expect(table(params("expenses", []), Expense.parse(EXPENSE))).toEqual([
      ["id", "Expense ID", "id", "", "e1"],
      ["expense_number", "Expense #", "integer", "", 1001],
      ["date", "Date", "date", "", 46083],
      ["description", "Description", "text", "", "Lunch"],
      ["amount", "Amount", "amount", "currency", 12.5],
      ["currency", "Currency", "text", "", "USD"],
      ["state", "State", "entry", "", "accounted"],
      ["accounted_id", "Accounted ID", "entry", "", "ACC-1"],
      ["paid_id", "Paid ID", "entry", "", ""],
      ["paid_at", "Paid at (UTC)", "timestamp", "", ""],
      ["status", "Sync status", "text", "", ""],
      ["provider", "Provider", "text", "", "Cafe"],
      ["expense_type", "Type", "text", "", "meal"],
      ["net_amount", "Net amount", "amount", "currency", 10.25],
      ["tax_amount", "Tax amount", "amount", "currency", 2.25],
      ["tax_rate", "Tax rate %", "percent", "", 21],
      ["usd_amount", "USD amount", "amount", "USD", 12.75],
      ["subsidiary_expense_amount", "Subsidiary amount", "amount", "subsidiary_currency", 11000],
      ["subsidiary_currency", "Subsidiary currency", "text", "", "CLP"],
      ["payment_method", "Payment method", "text", "", "card"],
      ["user_id", "Employee ID", "id", "", "p1"],
      ["cost_center_id", "Cost center ID", "id", "", "cc1"],
      ["category_id", "Category ID", "id", "", "cat1"],
      ["fund_id", "Fund ID", "id", "", "f1"],
      ["expense_document_type", "Document type", "text", "", "invoice"],
      ["document_id", "Document #", "text", "", "F-7"],
      ["url", "Receipt URL", "text", "", "https://files.example/r.png"],
      ["created_at", "Created (UTC)", "timestamp", "", 46083.5],
      ["is_active", "Active", "boolean", "", "No"],
    ]);
  });

  it("expenses, every expand: names beside the ids they name", () => {
    expect(table(params("expenses", ["user", "cost_center", "category", "fund", "approved_by", "fare"]), Expense.parse(EXPENSE_EXPANDED))).toEqual([
      ["id", "Expense ID", "id", "", "e1"],
      ["expense_number", "Expense #", "integer", "", 1001],
      ["date", "Date", "date", "", 46083],
      ["description", "Description", "text", "", "Lunch"],
      ["amount", "Amount", "amount", "currency", 12.5],
      ["currency", "Currency", "text", "", "USD"],
      ["state", "State", "entry", "", "accounted"],
      ["accounted_id", "Accounted ID", "entry", "", "ACC-1"],
      ["paid_id", "Paid ID", "entry", "", ""],
      ["paid_at", "Paid at (UTC)", "timestamp", "", ""],
      ["status", "Sync status", "text", "", ""],
      ["user_name", "Employee", "text", "", "Ana1 Pérez1"],
      ["cost_center", "Cost center", "text", "", "Sales"],
      ["category", "Category", "text", "", "Meals"],
      ["provider", "Provider", "text", "", "Cafe"],
      ["expense_type", "Type", "text", "", "meal"],
      ["net_amount", "Net amount", "amount", "currency", 10.25],
      ["tax_amount", "Tax amount", "amount", "currency", 2.25],
      ["tax_rate", "Tax rate %", "percent", "", 21],
      ["usd_amount", "USD amount", "amount", "USD", 12.75],
      ["subsidiary_expense_amount", "Subsidiary amount", "amount", "subsidiary_currency", 11000],
      ["subsidiary_currency", "Subsidiary currency", "text", "", "CLP"],
      ["payment_method", "Payment method", "text", "", "card"],
      ["user_email", "Employee email", "text", "", "ana1@example.com"],
      ["user_id", "Employee ID", "id", "", "p1"],
      ["cost_center_id", "Cost center ID", "id", "", "cc1"],
      ["category_id", "Category ID", "id", "", "cat1"],
      ["fund", "Fund", "text", "", "7 Travel fund"],
      ["fund_id", "Fund ID", "id", "", "f1"],
      ["approved_by", "Approved by", "text", "", "Ana2 Pérez2; boss@example.com"],
      ["fare", "Fare", "text", "", "Day fare"],
      ["expense_document_type", "Document type", "text", "", "invoice"],
      ["document_id", "Document #", "text", "", "F-7"],
      ["url", "Receipt URL", "text", "", "https://files.example/r.png"],
      ["created_at", "Created (UTC)", "timestamp", "", 46083.5],
      ["is_active", "Active", "boolean", "", "No"],
    ]);
  });

  it("allowances, no expand", () => {
    expect(table(params("allowances", []), Allowance.parse(ALLOWANCE))).toEqual([
      ["id", "Allowance ID", "id", "", "a1"],
      ["allowance_number", "Allowance #", "integer", "", 2002],
      ["start_date", "Start (UTC)", "timestamp", "", 46082.33333333333],
      ["description", "Description", "text", "", "Trip"],
      ["amount", "Amount", "amount", "currency", 100],
      ["currency", "Currency", "text", "", "CLP"],
      ["state", "State", "entry", "", "paid"],
      ["accounted_id", "Accounted ID", "entry", "", "ACC-2"],
      ["paid_id", "Paid ID", "entry", "", "PAY-2"],
      ["paid_at", "Paid at (UTC)", "timestamp", "", 46086.41666666667],
      ["status", "Sync status", "text", "", ""],
      ["beneficiary_id", "Beneficiary ID", "id", "", "p4"],
      ["cost_center_id", "Cost center ID", "id", "", "cc2"],
      ["end_date", "End (UTC)", "timestamp", "", 46084.75],
      ["days", "Days", "number", "", 2.5],
      ["converted_amount", "Converted amount", "amount", "converted_currency", 90.5],
      ["converted_currency", "Converted currency", "text", "", "EUR"],
      ["created_at", "Created (UTC)", "timestamp", "", 46080.39583333333],
      ["updated_at", "Updated (UTC)", "timestamp", "", 46086.41666666667],
      ["is_active", "Active", "boolean", "", "Yes"],
    ]);
  });

  it("allowances, every expand: the beneficiary, the segments in words, the documents counted", () => {
    expect(table(params("allowances", ["beneficiary", "allowance_segments", "documents"]), Allowance.parse(ALLOWANCE_EXPANDED))).toEqual([
      ["id", "Allowance ID", "id", "", "a1"],
      ["allowance_number", "Allowance #", "integer", "", 2002],
      ["start_date", "Start (UTC)", "timestamp", "", 46082.33333333333],
      ["description", "Description", "text", "", "Trip"],
      ["amount", "Amount", "amount", "currency", 100],
      ["currency", "Currency", "text", "", "CLP"],
      ["state", "State", "entry", "", "paid"],
      ["accounted_id", "Accounted ID", "entry", "", "ACC-2"],
      ["paid_id", "Paid ID", "entry", "", "PAY-2"],
      ["paid_at", "Paid at (UTC)", "timestamp", "", 46086.41666666667],
      ["status", "Sync status", "text", "", ""],
      ["beneficiary_name", "Beneficiary", "text", "", "Ana4 Pérez4"],
      ["beneficiary_email", "Beneficiary email", "text", "", "ana4@example.com"],
      ["beneficiary_id", "Beneficiary ID", "id", "", "p4"],
      ["cost_center_id", "Cost center ID", "id", "", "cc2"],
      ["end_date", "End (UTC)", "timestamp", "", 46084.75],
      ["days", "Days", "number", "", 2.5],
      ["converted_amount", "Converted amount", "amount", "converted_currency", 90.5],
      ["converted_currency", "Converted currency", "text", "", "EUR"],
      ["segments", "Segments", "text", "", "Lunch: 2.5 d, 100 CLP"],
      ["documents", "Documents", "integer", "", 3],
      ["created_at", "Created (UTC)", "timestamp", "", 46080.39583333333],
      ["updated_at", "Updated (UTC)", "timestamp", "", 46086.41666666667],
      ["is_active", "Active", "boolean", "", "Yes"],
    ]);
  });

  it("cards, no expand", () => {
    expect(table(params("cards", []), Card.parse(CARD))).toEqual([
      ["id", "Card ID", "id", "", "c1"],
      ["last_four_digits", "Last four digits", "id", "", "0042"],
      ["status", "Sync status", "text", "", ""],
      ["user_id", "Card holder ID", "id", "", "p5"],
      ["bank_id", "Bank ID", "id", "", "b1"],
      ["national_balance_currency", "National currency", "text", "", "CLP"],
      ["international_balance_currency", "International currency", "text", "", "USD"],
      ["billing_day", "Billing day", "integer", "", 25],
      ["billing_mode", "Billing mode", "text", "", "bank_movements"],
    ]);
  });

  it("cards, every expand: the holder beside the card, the bank", () => {
    expect(table(params("cards", ["user", "bank"]), Card.parse(CARD_EXPANDED))).toEqual([
      ["id", "Card ID", "id", "", "c1"],
      ["last_four_digits", "Last four digits", "id", "", "0042"],
      ["user_name", "Card holder", "text", "", "Ana5 Pérez5"],
      ["status", "Sync status", "text", "", ""],
      ["user_email", "Card holder email", "text", "", "ana5@example.com"],
      ["user_id", "Card holder ID", "id", "", "p5"],
      ["bank_name", "Bank", "text", "", "Banco Uno"],
      ["bank_id", "Bank ID", "id", "", "b1"],
      ["national_balance_currency", "National currency", "text", "", "CLP"],
      ["international_balance_currency", "International currency", "text", "", "USD"],
      ["billing_day", "Billing day", "integer", "", 25],
      ["billing_mode", "Billing mode", "text", "", "bank_movements"],
    ]);
  });

  it("movements: a deposit negative, as a statement reads; its reconciled expense beside it", () => {
    expect(table(params("movements"), Movement.parse(MOVEMENT))).toEqual([
      ["id", "Movement ID", "id", "", "m1"],
      ["transaction_date", "Date", "date", "", 46085],
      ["description", "Description", "text", "", "Fee"],
      ["amount", "Amount", "amount", "currency", -5000],
      ["currency", "Currency", "text", "", "CLP"],
      ["status", "Sync status", "text", "", ""],
      ["type", "Type", "text", "", "associated_fee"],
      ["foreign_amount", "Foreign amount", "amount", "foreign_currency", 6.5],
      ["foreign_currency", "Foreign currency", "text", "", "USD"],
      ["is_deposit", "Deposit", "boolean", "", "Yes"],
      ["current_installment", "Installment", "integer", "", 2],
      ["total_installments", "Installments", "integer", "", 3],
      ["reference_code", "Reference", "id", "", "R-9"],
      ["is_debt_transfer", "Debt transfer", "boolean", "", "No"],
      ["reconciled", "Reconciled", "boolean", "", "Yes"],
      ["reconciled_expense_number", "Expense #", "integer", "", 3003],
      ["reconciled_expense_state", "Expense state", "text", "", "paid"],
      ["reconciled_expense_amount", "Expense amount", "amount", "reconciled_expense_currency", 4.75],
      ["reconciled_expense_currency", "Expense currency", "text", "", "USD"],
    ]);
  });

  it("an expand the service answered without its object (an employee left, a beneficiary not sent): the name and email are empty, the id stays", () => {
    const expenses = params("expenses", ["user"]);
    const cells = row(expenses, Expense.parse({ ...EXPENSE, user: null }));
    const at = (p: LoadParams, header: string) => sourceOf(p).columns.findIndex((c) => c.header === header);
    expect([cells[at(expenses, "Employee")], cells[at(expenses, "Employee email")], cells[at(expenses, "Employee ID")]]).toEqual(["", "", "p1"]);
    const allowances = params("allowances", ["beneficiary"]);
    const aCells = row(allowances, Allowance.parse(ALLOWANCE));
    expect([aCells[at(allowances, "Beneficiary")], aCells[at(allowances, "Beneficiary email")], aCells[at(allowances, "Beneficiary ID")]]).toEqual(["", "", "p4"]);
  });

  it("movements: one not reconciled leaves the expense's columns empty", () => {
    const cells = row(params("movements"), Movement.parse({ ...MOVEMENT, is_deposit: false, reconciliation: null }));
    expect(cells.slice(3, 4)).toEqual([5000]);
    expect(cells.slice(-5)).toEqual(["No", "", "", "", ""]);
  });
});
