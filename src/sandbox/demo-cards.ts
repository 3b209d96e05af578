/**
 * The demo's corporate cards: each with three monthly billing periods of movements (expenses, payments,
 * fees), some expenses reconciled with the card's expenses.
 */
import { amountIn, convert, round } from "./demo-money";
import { DAY, isoDate, type DemoRun } from "./demo-run";
import type { BillingPeriodRec, CardRec, ExpenseRec, Money, MovementRec, PersonRec } from "./model";

/** A card of the enterprise in `currency`, held by one of `people`, with its billing periods and movements. */
export function addCard(run: DemoRun, enterpriseId: string, people: PersonRec[], currency: string, expenses: ExpenseRec[], index: number): void {
  const { rng, data } = run;
  const card: CardRec = {
    id: rng.uuid(), enterprise_id: enterpriseId, user_id: rng.pick(people).id,
    last_four_digits: String(rng.int(0, 9999)).padStart(4, "0"), bank_id: rng.pick(data.banks).id,
    national_balance_currency: currency, international_balance_currency: "USD",
    billing_day: [5, 15, 25, 28][index % 4], billing_mode: index === 3 ? "manual" : "bank_movements",
  };
  data.cards.push(card);
  const anchor = new Date(run.anchorMs);
  // A card movement settles in a known currency, so only expenses with a USD amount are reconciled.
  const linkable = expenses.filter((e) => e.payment_method === "corporate_card" && e.usd_amount !== null);
  for (let k = 0; k < 3; k++) {
    const endMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - k, card.billing_day);
    const startMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - k - 1, card.billing_day + 1);
    const period: BillingPeriodRec = { id: rng.uuid(), card_id: card.id, start_date: isoDate(startMs), end_date: isoDate(endMs) };
    data.billing_periods.push(period);
    const n = run.count(index === 0 && k === 0 ? 140 : 30);
    for (let m = 0; m < n; m++) {
      data.movements.push(movement(run, card, period, startMs, endMs, m, linkable));
    }
  }
}

/** The m-th movement of a billing period; the first four are one of each type. */
function movement(run: DemoRun, card: CardRec, period: BillingPeriodRec, startMs: number, endMs: number, m: number,
  linkable: ExpenseRec[]): MovementRec {
  const rng = run.rng;
  const type: MovementRec["type"] =
    m < 4 ? (["expense", "payment", "associated_fee", "other_fee"] as const)[m]
      : rng.weighted({ expense: 70, payment: 8, associated_fee: 12, other_fee: 10 });
  const currency = card.national_balance_currency;
  const dateMs = startMs + rng.int(0, Math.max(0, Math.round((endMs - startMs) / DAY))) * DAY;
  let amount: Money = { amount: amountIn(currency, 10 + rng.next() * 200), currency };
  let foreign: Money | null = null;
  let description = "";
  let reconciliation: MovementRec["reconciliation"] = null;
  let installments = 1;
  if (type === "expense") {
    const reconciled = (m === 0 || m >= 4) && linkable.length > 0 && (m === 0 || rng.chance(0.55));
    if (reconciled) {
      const expense = linkable[rng.int(0, linkable.length - 1)];
      reconciliation = { id: rng.uuid(), expense_id: expense.id };
      amount = { amount: convert(expense.amount, expense.currency, currency), currency };
      if (expense.currency !== currency) foreign = { amount: expense.amount, currency: expense.currency };
      description = expense.provider.toUpperCase();
    } else {
      description = rng.pick(["AMAZON MKTPLACE", "UBER *TRIP", "COPEC APP", "LATAM.COM", "STARBUCKS", "NETFLIX.COM"]);
      if (rng.chance(0.2)) {
        foreign = { amount: round(10 + rng.next() * 150, 2), currency: "USD" };
        amount = { amount: convert(foreign.amount, "USD", currency), currency };
      }
    }
    installments = rng.chance(0.15) ? rng.pick([3, 6, 12]) : 1;
  } else if (type === "payment") {
    description = "PAYMENT - THANK YOU";
    amount = { amount: amountIn(currency, 500 + rng.next() * 3000), currency };
  } else if (type === "associated_fee") {
    description = rng.pick(["INTEREST CHARGE", "STAMP TAX", "ANNUAL CARD FEE"]);
  } else {
    description = rng.pick(["FOREIGN TRANSACTION FEE", "LATE PAYMENT FEE", "CASH ADVANCE FEE"]);
    amount = { amount: amountIn(currency, 1 + rng.next() * 30), currency };
  }
  return {
    id: rng.uuid(), card_id: card.id, billing_period_id: period.id, amount, description,
    transaction_date: isoDate(dateMs), is_deposit: type === "payment", type,
    current_installment: installments === 1 ? 1 : rng.int(1, installments), total_installments: installments,
    reference_code: `${rng.int(10, 99)}${rng.hex(10).toUpperCase()}`, foreign_amount: foreign,
    is_debt_transfer: type === "payment" && rng.chance(0.1), reconciliation,
  };
}
