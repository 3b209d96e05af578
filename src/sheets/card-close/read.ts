/**
 * What a card close reads from the service: the card with its holder, the billing period's movements with the
 * service's reconciliation, and the expenses of the chosen subsidiaries with their person and category; then
 * the matcher's input made of them (docs/reconciliation.md).
 */
import { getCard, isoDateOf, listExpenses, listMovements, type Card, type Expense, type Movement, type SpendClient } from "../../api";
import type { CardExpense, CardMovement, MatchInput } from "../../domain/card-match";
import { fullName } from "../columns";
import { minorUnits } from "../money-formats";

export interface CardCloseQuery {
  cardId: string;
  billingPeriodId: string;
  /** The subsidiaries whose expenses count (the cardholder may file in more than one). */
  subsidiaryIds: string[];
}

export interface CardCloseData {
  card: Card;
  holder: string;
  movements: Movement[];
  expenses: Expense[];
  /** YYYY-MM-DD: the spec has no billing-period record, so the period is what its movements span. */
  periodStart: string;
  periodEnd: string;
}

/** Installments are dated on their purchase, months back: the period's span is read from the other movements. */
const DAY = 86_400_000;
/** Expenses created this long before the period count (an installment's purchase, up to a year back)... */
const EXPENSES_BEFORE_DAYS = 370;
/** ...and this long after it (expenses are filed late). */
const EXPENSES_AFTER_DAYS = 60;

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Reads the card, its period's movements, then the expenses filed around that period. */
export async function readCardClose(client: SpendClient, query: CardCloseQuery, signal?: AbortSignal): Promise<CardCloseData> {
  const [card, movements] = await Promise.all([
    getCard(client, query.cardId, { expand: ["user"] }, { signal }),
    collect(listMovements(client, { cardId: query.cardId, billingPeriodId: query.billingPeriodId }, { reconciliation: true }, { signal })),
  ]);
  const dated = movements.filter((m) => m.total_installments <= 1).map((m) => m.transaction_date).sort();
  const all = movements.map((m) => m.transaction_date).sort();
  const periodStart = dated[0] ?? all[0] ?? new Date().toISOString().slice(0, 10);
  const periodEnd = dated.at(-1) ?? all.at(-1) ?? periodStart;
  const lists = await Promise.all(query.subsidiaryIds.map((sub) => collect(listExpenses(client, sub, {
    expand: ["user", "category"],
    // Computed from the movements' dates: checked once here, as the list takes only checked dates.
    createdFrom: isoDateOf("createdFrom", shift(periodStart, -EXPENSES_BEFORE_DAYS)), createdTo: isoDateOf("createdTo", shift(periodEnd, EXPENSES_AFTER_DAYS)),
  }, { signal }))));
  return { card, holder: fullName(card.user) ?? "", movements, expenses: lists.flat(), periodStart, periodEnd };
}

async function collect<T>(list: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of list) out.push(item);
  return out;
}

/** The matcher's input: amounts by their currency's ISO minor units, each expense's person and category by name. */
export function matchInputOf(data: CardCloseData): MatchInput {
  const holderId = data.card.user?.id ?? data.card.user_id ?? "";
  return {
    holderId, periodStart: data.periodStart, periodEnd: data.periodEnd,
    movements: data.movements.map(movementOf), expenses: data.expenses.map((e) => expenseOf(e, data.card.national_balance_currency)),
    decimals: (currency) => minorUnits(currency) ?? 2,
  };
}

function movementOf(m: Movement): CardMovement {
  const foreign = m.foreign_amount as { amount?: unknown; currency?: unknown } | null;
  return {
    id: m.id, amount: m.amount.amount, currency: m.amount.currency, date: m.transaction_date, description: m.description,
    foreign: foreign && typeof foreign.amount === "number" && typeof foreign.currency === "string" ? { amount: foreign.amount, currency: foreign.currency } : null,
    type: m.type, deposit: m.is_deposit, installment: { current: m.current_installment, total: m.total_installments },
    reconciledExpenseId: m.reconciliation?.expense.id ?? null,
  };
}

function expenseOf(e: Expense, cardCurrency: string): CardExpense {
  return {
    id: e.id, userId: e.user?.id ?? e.user_id ?? "", amount: e.amount, currency: e.currency,
    // The service's conversion is in the subsidiary's currency: usable when that is the card's.
    converted: e.subsidiary_currency === cardCurrency ? e.subsidiary_expense_amount : null,
    date: e.date, provider: e.provider, description: e.description, paymentMethod: e.payment_method,
    category: e.category?.name ?? "", active: e.is_active,
  };
}
