/**
 * Card movements: one billing period of a corporate card, read-only, with its reconciliation and a summary
 * sheet (the Movements table and =SPEND.MOVEMENTS).
 */
import { MOVEMENT_TYPES, listMovements, type Movement } from "../../api";
import type { Column } from "../columns";
import { readingOrder } from "./tracking";
import { pairedSource, short, type ResourceModule } from "./resource";
import type { z } from "zod";
import { declare, paramsSchema } from "./params";

/** A movements query's parameters, in the order the form shows them and =SPEND.MOVEMENTS takes them. */
/** Each movement type in a card statement's words (spec 4.6: a payment is a deposit, a payment made to the card). */
export const MOVEMENT_TYPE_NAMES = {
  payment: "Payment to the card", expense: "Expense", associated_fee: "Associated fee", other_fee: "Other fee",
} as const satisfies Record<(typeof MOVEMENT_TYPES)[number], string>;

const MOVEMENT_PARAMS = declare([
  {
    name: "cardId", wire: "card_id", type: "id", required: true, picker: "card", label: "Card ID",
    form: { control: "card-id" }, spend: { arg: "card_id", help: "The card's id." },
  },
  {
    name: "billingPeriodId", wire: "billing_period_id", type: "id", required: true, picker: "period", label: "Billing period ID",
    form: { control: "billing-period-id", hint: "The billing periods of the card used before on this device or in this workbook are offered." },
    spend: { arg: "billing_period_id", help: "The billing period's id." },
  },
  {
    name: "type", wire: "type", type: "choice", values: MOVEMENT_TYPES, label: "Movement type",
    display: MOVEMENT_TYPE_NAMES,
    form: { control: "movement-type" }, spend: { arg: "type", help: "Optional: payment, expense, associated_fee or other_fee." },
  },
  {
    name: "reconciled", wire: "reconciled", type: "boolean", label: "Reconciled",
    words: { true: "reconciled", false: "unreconciled" }, display: { true: "Reconciled", false: "Not reconciled" },
    form: { control: "reconciled" }, spend: { arg: "reconciled", help: "Optional: TRUE for reconciled movements only, FALSE for the others." },
  },
  // Offered nowhere (a stored query or a test sets it): a movements table shows its reconciliation unless told not to.
  {
    name: "reconciliation", wire: "expand", type: "boolean", label: "Reconciliation", words: { true: "", false: "norecon" }, default: true,
    form: null, spend: null,
  },
]);

export const MovementParams = paramsSchema("movements", MOVEMENT_PARAMS);
type MovementParams = z.output<typeof MovementParams>;

/**
 * Identity (date, description, amount), Sync status, then the rest.
 * @internal column-order tests read every resource's columns with and without expand.
 */
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

export const movements = {
  scopeName: (p) => [`SpendMovements_${short(p.cardId)}_${short(p.billingPeriodId)}`, `Movements ${short(p.cardId)} ${short(p.billingPeriodId)}`],
  params: MOVEMENT_PARAMS,
  source: (p) => pairedSource(
    movementColumns(new Set(p.reconciliation ? ["renconciliation"] : [])),
    (c, o) => listMovements(c, { cardId: p.cardId, billingPeriodId: p.billingPeriodId }, { type: p.type, reconciled: p.reconciled, reconciliation: p.reconciliation }, o),
  ),
  label: "Card movements (billing period)",
  noExpand: "Reconciliation is always shown for movements",
  functionName: "MOVEMENTS",
} satisfies ResourceModule<MovementParams>;
