/**
 * Card movements: one billing period of a corporate card, read-only, with its reconciliation and a summary
 * sheet (the Movements table and =SPEND.MOVEMENTS).
 */
import { z } from "zod";
import { MOVEMENT_TYPES, listMovements, type Movement } from "../../api";
import type { Column } from "../columns";
import { readingOrder } from "./tracking";
import { pairedSource, short, type ResourceModule } from "./resource";

export const MovementParams = z.object({
  resource: z.literal("movements"), enterpriseId: z.string().min(1), cardId: z.string().min(1), billingPeriodId: z.string().min(1),
  type: z.enum(MOVEMENT_TYPES).optional(), reconciled: z.boolean().optional(), reconciliation: z.boolean().default(true),
});
type MovementParams = z.output<typeof MovementParams>;

/** Identity (date, description, amount), Sync status, then the rest. */
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
  queryWords: (p) => [
    ...(p.type ? [p.type] : []), ...(p.reconciled === undefined ? [] : [p.reconciled ? "reconciled" : "unreconciled"]),
    ...(p.reconciliation ? [] : ["norecon"]),
  ],
  source: (p) => pairedSource(
    movementColumns(new Set(p.reconciliation ? ["renconciliation"] : [])),
    (c, o) => listMovements(c, { cardId: p.cardId, billingPeriodId: p.billingPeriodId }, { type: p.type, reconciled: p.reconciled, reconciliation: p.reconciliation }, o),
  ),
  form: { label: "Card movements (billing period)", fields: ["cardId", "billingPeriodId", "type", "reconciled"], expand: [], noExpand: "Reconciliation is always shown for movements" },
  listFunction: {
    name: "MOVEMENTS",
    args: [
      { arg: "card_id", param: "cardId", type: "id" }, { arg: "billing_period_id", param: "billingPeriodId", type: "id" },
      { arg: "type", param: "type", type: "choice", values: MOVEMENT_TYPES }, { arg: "reconciled", param: "reconciled", type: "boolean" },
    ],
  },
} satisfies ResourceModule<MovementParams>;
