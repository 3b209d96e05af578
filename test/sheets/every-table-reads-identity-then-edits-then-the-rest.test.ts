/**
 * Every table reads in one order (src/sheets/layouts/*.ts, pure: plain calls, no Excel): identity first (id, number,
 * date, description, amount), then the editable State → Accounted ID → Paid ID → Paid at (the order Tab follows),
 * Sync status right after, then the rest; an expand adds a name beside the id it names, which stays for lookups.
 * Each column shows its record's field as a user reads it: a deposit negative, a person by name, a fund by number.
 */
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../../src/domain";
import type { Column } from "../../src/sheets/columns";
import { allowanceColumns, convertedCurrency } from "../../src/sheets/resources/allowances";
import { cardColumns } from "../../src/sheets/resources/cards";
import { expenseColumns } from "../../src/sheets/resources/expenses";
import { movementColumns } from "../../src/sheets/resources/movements";

const headers = (columns: Column<never>[]) => columns.map((c) => c.header);
const valueOf = (columns: Column<never>[], key: string, record: unknown) => columns.find((c) => c.key === key)!.value(record as never);
const EDITABLE = ["State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"];

describe("the order every table reads in", () => {
  it("expenses: identity, the editable columns, Sync status, then the rest; an expand's names beside the ids they name", () => {
    expect(headers(expenseColumns(new Set()) as Column<never>[])).toEqual([
      "Expense ID", "Expense #", "Date", "Description", "Amount", "Currency", ...EDITABLE, "Provider", "Type", "Net amount", "Tax amount", "Tax rate %",
      "USD amount", "Subsidiary amount", "Subsidiary currency", "Payment method", "Employee ID", "Cost center ID", "Category ID", "Fund ID",
      "Document type", "Document #", "Receipt URL", "Created (UTC)", "Active",
    ]);
    expect(headers(expenseColumns(new Set(["user", "cost_center", "category", "fund", "approved_by", "fare"])) as Column<never>[])).toEqual([
      "Expense ID", "Expense #", "Date", "Description", "Amount", "Currency", ...EDITABLE, "Employee", "Cost center", "Category", "Provider", "Type",
      "Net amount", "Tax amount", "Tax rate %", "USD amount", "Subsidiary amount", "Subsidiary currency", "Payment method", "Employee email",
      "Employee ID", "Cost center ID", "Category ID", "Fund", "Fund ID", "Approved by", "Fare", "Document type", "Document #", "Receipt URL", "Created (UTC)", "Active",
    ]);
  });

  it("allowances: the same order; the segments and documents when expanded", () => {
    expect(headers(allowanceColumns(new Set()) as Column<never>[])).toEqual([
      "Allowance ID", "Allowance #", "Start (UTC)", "Description", "Amount", "Currency", ...EDITABLE, "Beneficiary ID", "Cost center ID", "End (UTC)",
      "Days", "Converted amount", "Converted currency", "Created (UTC)", "Updated (UTC)", "Active",
    ]);
    expect(headers(allowanceColumns(new Set(["beneficiary", "allowance_segments", "documents"])) as Column<never>[])).toEqual([
      "Allowance ID", "Allowance #", "Start (UTC)", "Description", "Amount", "Currency", ...EDITABLE, "Beneficiary", "Beneficiary email", "Beneficiary ID",
      "Cost center ID", "End (UTC)", "Days", "Converted amount", "Converted currency", "Segments", "Documents", "Created (UTC)", "Updated (UTC)", "Active",
    ]);
  });

  it("cards and movements: no editable columns, Sync status after the identity", () => {
    expect(headers(cardColumns(new Set()) as Column<never>[])).toEqual([
      "Card ID", "Last four digits", "Sync status", "Card holder ID", "Bank ID", "National currency", "International currency", "Billing day", "Billing mode",
    ]);
    expect(headers(cardColumns(new Set(["user", "bank"])) as Column<never>[])).toEqual([
      "Card ID", "Last four digits", "Card holder", "Sync status", "Card holder email", "Card holder ID", "Bank", "Bank ID", "National currency",
      "International currency", "Billing day", "Billing mode",
    ]);
    expect(headers(movementColumns(new Set()) as Column<never>[])).toEqual([
      "Movement ID", "Date", "Description", "Amount", "Currency", "Sync status", "Type", "Foreign amount", "Foreign currency", "Deposit", "Installment",
      "Installments", "Reference", "Debt transfer",
    ]);
    expect(headers(movementColumns(new Set(["renconciliation"])) as Column<never>[]).slice(14)).toEqual([
      "Reconciled", "Expense #", "Expense state", "Expense amount", "Expense currency",
    ]);
  });

  it("the editable columns: State with the resource's states as its list, narrow floors, Paid at a timestamp; Sync status is not editable", () => {
    const pick = (columns: Column<never>[]) => columns.filter((c) => c.editable || c.key === "status").map((c) => [c.key, c.kind, c.dropdown ?? null, c.width ?? null]);
    expect(pick(expenseColumns(new Set()) as Column<never>[])).toEqual([
      ["state", "entry", EXPENSE_STATES, 70], ["accounted_id", "entry", null, 90], ["paid_id", "entry", null, 90], ["paid_at", "timestamp", null, null], ["status", "text", null, 160],
    ]);
    expect(pick(allowanceColumns(new Set()) as Column<never>[])[0]).toEqual(["state", "entry", ALLOWANCE_STATES, 70]);
    expect(valueOf(expenseColumns(new Set()) as Column<never>[], "status", { state: "paid" })).toBe("");
  });

  it("amounts follow their currency's column, the USD amount is always USD", () => {
    const pick = (columns: Column<never>[]) => columns.filter((c) => c.kind === "amount").map((c) => [c.key, c.currencyKey ?? null, c.currency ?? null]);
    expect(pick(expenseColumns(new Set()) as Column<never>[])).toEqual([
      ["amount", "currency", null], ["net_amount", "currency", null], ["tax_amount", "currency", null], ["usd_amount", null, "USD"],
      ["subsidiary_expense_amount", "subsidiary_currency", null],
    ]);
    expect(pick(movementColumns(new Set(["renconciliation"])) as Column<never>[])).toEqual([
      ["amount", "currency", null], ["foreign_amount", "foreign_currency", null], ["reconciled_expense_amount", "reconciled_expense_currency", null],
    ]);
    expect(pick(allowanceColumns(new Set()) as Column<never>[])).toEqual([["amount", "currency", null], ["converted_amount", "converted_currency", null]]);
  });
});

describe("what each column shows of its record", () => {
  const movements = movementColumns(new Set(["renconciliation"])) as Column<never>[];

  it("a movement: a deposit negative whatever its sign, a charge as sent; its reconciliation's expense, or nothing", () => {
    const charge = { amount: { amount: -12, currency: "CLP" }, is_deposit: false, reconciliation: null, foreign_amount: { amount: 3, currency: "USD" } };
    const deposit = { amount: { amount: 50, currency: "CLP" }, is_deposit: true, reconciliation: { expense: { expense_number: 9, state: "paid", amount: { amount: 50, currency: "CLP" } } } };
    expect(["amount", "currency", "foreign_amount", "foreign_currency", "reconciled", "reconciled_expense_number"].map((k) => valueOf(movements, k, charge)))
      .toEqual([-12, "CLP", 3, "USD", false, undefined]);
    expect(["amount", "reconciled", "reconciled_expense_number", "reconciled_expense_state", "reconciled_expense_amount", "reconciled_expense_currency"].map((k) => valueOf(movements, k, deposit)))
      .toEqual([-50, true, 9, "paid", 50, "CLP"]);
    expect(valueOf(movements, "amount", { ...deposit, amount: { amount: -50, currency: "CLP" } })).toBe(-50);
    expect(["foreign_amount", "foreign_currency"].map((k) => valueOf(movements, k, { ...charge, foreign_amount: null }))).toEqual([undefined, undefined]);
  });

  it("an expense: names of expanded objects, a fund by number and description, approvers by name, else email, else id", () => {
    const columns = expenseColumns(new Set(["user", "cost_center", "category", "fund", "approved_by", "fare"])) as Column<never>[];
    const expense = {
      user: { id: "u_1", first_name: "Ana", last_name: "Díaz", email: "ana@x" }, cost_center: { id: "cc_1", name: "Sales" }, category: "odd", fare: { name: "Economy" },
      fund: { id: "f_1", fund_number: 12, description: "Travel" },
      approved_by: [{ first_name: "Bo", last_name: "" }, { email: "c@x", id: "u_8" }, { id: "u_9" }, {}],
    };
    expect(["user_name", "user_email", "user_id", "cost_center", "cost_center_id", "category", "fare", "fund", "approved_by"].map((k) => valueOf(columns, k, expense)))
      .toEqual(["Ana Díaz", "ana@x", "u_1", "Sales", "cc_1", null, "Economy", "12 Travel", "Bo; c@x; u_9; "]);
    expect(["fund", "approved_by"].map((k) => valueOf(columns, k, { fund: { id: "f_2" }, approved_by: undefined }))).toEqual(["f_2", ""]);
    expect(["fund", "fund_id"].map((k) => valueOf(columns, k, { fund: { id: "f_3", fund_number: null, description: "Only" }, fund_id: null }))).toEqual(["Only", "f_3"]);
    expect(["fund", "fund"].map((k, i) => valueOf(columns, k, { fund: i ? "f" : null }))).toEqual([null, null]);
    expect(valueOf(columns, "fund", { fund: {} })).toBe("");
    expect(["cost_center", "category", "fare", "user_name"].map((k) => valueOf(columns, k, { cost_center: null, category: null, fare: null, user: null }))).toEqual([null, null, null, null]);
  });

  it("an allowance: its segments one by one with their amounts as the books show them; their converted currency, each once", () => {
    const columns = allowanceColumns(new Set(["allowance_segments", "documents", "beneficiary"])) as Column<never>[];
    const segment = (fare_name: string, amount: number, currency: string, converted: string) => ({ fare_name, days: 2, amount: { amount, currency }, converted_amount: { amount: 1, currency: converted } });
    const allowance = { allowance_segments: [segment("Lunch", 12000, "CLP", "USD"), segment("Hotel", 10.5, "USD", "USD")], documents: [{}, {}], beneficiary: null, beneficiary_id: "b_1" };
    expect(["segments", "documents", "converted_currency", "beneficiary_name", "beneficiary_id"].map((k) => valueOf(columns, k, allowance)))
      .toEqual(["Lunch: 2 d, 12,000 CLP; Hotel: 2 d, 10.50 USD", 2, "USD", null, "b_1"]);
    expect(convertedCurrency({ allowance_segments: [segment("a", 1, "CLP", "CLP"), segment("b", 1, "CLP", "USD"), segment("c", 1, "CLP", "CLP")] } as never)).toBe("CLP / USD");
    expect(convertedCurrency({ allowance_segments: [] } as never)).toBeNull();
    expect(convertedCurrency({} as never)).toBeNull();
    expect(["segments", "documents"].map((k) => valueOf(columns, k, {}))).toEqual(["", 0]);
  });

  it("a card: its holder's and bank's names when expanded, their ids from the objects where the id field is gone", () => {
    const columns = cardColumns(new Set(["user", "bank"])) as Column<never>[];
    const card = { user: { id: "u_1", first_name: "Ana", last_name: "Díaz", email: "ana@x" }, bank: { id: "bk_1", name: "Banco" } };
    expect(["user_name", "user_email", "user_id", "bank_name", "bank_id"].map((k) => valueOf(columns, k, card))).toEqual(["Ana Díaz", "ana@x", "u_1", "Banco", "bk_1"]);
    expect(["user_email", "bank_name"].map((k) => valueOf(columns, k, {}))).toEqual([undefined, undefined]);
  });
});
