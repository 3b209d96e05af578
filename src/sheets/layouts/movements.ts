/** The Movements table of one billing period: identity (date, description, amount), Sync status, then the rest. */
import type { Movement } from "../../api";
import type { Column } from "../columns";
import { readingOrder } from "./tracking";

export function movementColumns(expand: ReadonlySet<string>): Column<Movement>[] {
  const identity: Column<Movement>[] = [
    { key: "id", header: "Movement ID", kind: "id", value: (m) => m.id },
    { key: "transaction_date", header: "Date", kind: "date", value: (m) => m.transaction_date },
    { key: "description", header: "Description", kind: "text", value: (m) => m.description },
    // Signed the way a statement reads: charges positive, deposits (payments to the card) negative,
    // whatever sign the service gives a deposit; the reconciliation summary counts them the same way.
    { key: "amount", header: "Amount", kind: "amount", value: (m) => (m.is_deposit ? -Math.abs(m.amount.amount) : m.amount.amount), currencyKey: "currency" },
    { key: "currency", header: "Currency", kind: "text", value: (m) => m.amount.currency },
  ];
  const columns: Column<Movement>[] = [
    { key: "type", header: "Type", kind: "text", value: (m) => m.type },
    { key: "foreign_amount", header: "Foreign amount", kind: "amount", value: (m) => m.foreign_amount?.amount, currencyKey: "foreign_currency" },
    { key: "foreign_currency", header: "Foreign currency", kind: "text", value: (m) => m.foreign_amount?.currency },
    { key: "is_deposit", header: "Deposit", kind: "boolean", value: (m) => m.is_deposit },
    { key: "current_installment", header: "Installment", kind: "integer", value: (m) => m.current_installment },
    { key: "total_installments", header: "Installments", kind: "integer", value: (m) => m.total_installments },
    { key: "reference_code", header: "Reference", kind: "id", value: (m) => m.reference_code },
    { key: "is_debt_transfer", header: "Debt transfer", kind: "boolean", value: (m) => m.is_debt_transfer },
  ];
  if (expand.has("renconciliation")) {
    columns.push(
      { key: "reconciled", header: "Reconciled", kind: "boolean", value: (m) => Boolean(m.reconciliation) },
      { key: "reconciled_expense_number", header: "Expense #", kind: "integer", value: (m) => m.reconciliation?.expense.expense_number },
      { key: "reconciled_expense_state", header: "Expense state", kind: "text", value: (m) => m.reconciliation?.expense.state },
      { key: "reconciled_expense_amount", header: "Expense amount", kind: "amount", value: (m) => m.reconciliation?.expense.amount.amount, currencyKey: "reconciled_expense_currency" },
      { key: "reconciled_expense_currency", header: "Expense currency", kind: "text", value: (m) => m.reconciliation?.expense.amount.currency },
    );
  }
  return readingOrder(identity, [], columns);
}
