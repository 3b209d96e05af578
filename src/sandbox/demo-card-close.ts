/**
 * `--card-close N`: cards as they really are at month end. Each close card's movements come from its holder's
 * own card expenses, with what makes matching them hard: posting 0–7 days after the expense, foreign purchases
 * at the card's own rate, tips, twin charges, a charge split over two expenses, refunds, fees, installments,
 * charges nobody filed and expenses whose charge never posted. Some movements carry the service's own
 * reconciliation; the true partners of every movement go to `card_close_truth`, which no route reads.
 *
 * It draws from a random stream of its own and only appends records, so the rest of the demo data is the
 * same with the flag as without it.
 */
import {
  FOREIGN_MERCHANTS, HOTELS, INSTALLMENT_MERCHANTS, LOCAL_MERCHANTS, RESTAURANTS, cardExpense, purchaseIn,
  type ExpensePlace, type Merchant,
} from "./demo-card-expenses";
import { DECIMALS, PER_USD, round } from "./demo-money";
import { DAY, isoDate, type DemoRun } from "./demo-run";
import type { CardCloseTruth, CardPattern, CardRec, ExpenseRec, Money, MovementRec, PersonRec } from "./model";
import { Random } from "./random";

export interface CardCloseOptions {
  /** Movements in the first close card's billing period (the second card gets a quarter). */
  movements: number;
  /** Card expenses of the holder's colleagues in the same subsidiary, besides the decoys (the benchmark's 20,000). */
  otherExpenses?: number;
}

/** How often each kind of charge is drawn (a twin makes two movements, a refund up to two). */
const WEIGHTS: Record<Exclude<CardPattern, "payment" | "twin">, number> & { twin: number } = {
  plain: 40, service: 18, foreign: 10, tip: 7, split: 5, installment: 5, refund: 3, fee: 6, unfiled: 5, twin: 1.5,
};

interface Period {
  card: CardRec;
  holder: PersonRec;
  periodId: string;
  startMs: number;
  endMs: number;
}

/** Adds the close cards to the first enterprise, in its first subsidiary's currency. */
export function addCloseCards(base: DemoRun, options: CardCloseOptions): void {
  const run: DemoRun = { ...base, rng: new Random(base.data.seed, "card-close"), count: base.count };
  const { data, rng } = run;
  const ent = data.enterprises[0];
  const sub = data.subsidiaries.find((s) => s.enterprise_id === ent.id)!;
  const people = data.people.filter((p) => p.enterprise_id === ent.id);
  let number = Math.max(...data.expenses.filter((e) => data.subsidiaries.find((s) => s.id === e.subsidiary_id)?.enterprise_id === ent.id)
    .map((e) => e.expense_number)) + 1;
  const place: ExpensePlace = {
    sub, costCenters: data.cost_centers.filter((c) => c.enterprise_id === ent.id),
    categories: data.categories.filter((c) => c.enterprise_id === ent.id), nextNumber: () => number++,
  };
  const truth: CardCloseTruth = data.card_close_truth ?? { links: [], never_posted: [] };
  data.card_close_truth = truth;
  const anchor = new Date(run.anchorMs);
  const startMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 1, 1);
  const endMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), 0);
  [options.movements, Math.max(12, Math.round(options.movements / 4))].forEach((count, c) => {
    const holder = people[30 + c];
    const card: CardRec = {
      id: rng.uuid(), enterprise_id: ent.id, user_id: holder.id, last_four_digits: String(rng.int(1000, 9999)),
      bank_id: rng.pick(data.banks).id, national_balance_currency: sub.currency, international_balance_currency: "USD",
      billing_day: new Date(endMs).getUTCDate(), billing_mode: "bank_movements",
    };
    data.cards.push(card);
    const periodId = rng.uuid();
    data.billing_periods.push({ id: periodId, card_id: card.id, start_date: isoDate(startMs), end_date: isoDate(endMs) });
    new PeriodBuilder(run, place, truth, { card, holder, periodId, startMs, endMs }).fill(count, people);
  });
  const others = people.filter((p) => p.id !== people[30].id && p.id !== people[31].id);
  for (let i = 0; i < (options.otherExpenses ?? 0); i++) {
    const merchant = rng.pick(LOCAL_MERCHANTS);
    const dateMs = startMs - 10 * DAY + rng.int(0, 45) * DAY;
    data.expenses.push(cardExpense(run, place, rng.pick(others).id, merchant, { amount: purchaseIn(run, merchant, sub.currency), currency: sub.currency }, dateMs));
  }
}

class PeriodBuilder {
  private readonly movements: MovementRec[] = [];
  private readonly currency: string;

  constructor(private readonly run: DemoRun, private readonly place: ExpensePlace, private readonly truth: CardCloseTruth,
    private readonly p: Period) {
    this.currency = p.card.national_balance_currency;
  }

  /** At least `count` movements, then the expenses that never posted and the decoys; movements in date order. */
  fill(count: number, people: PersonRec[]): void {
    const { rng } = this.run;
    this.movement("payment", "PAYMENT - THANK YOU", this.p.startMs + 2 * DAY, this.money(500), [], { deposit: true });
    while (this.movements.length < count) {
      this.charge(rng.weighted(WEIGHTS));
    }
    const colleague = people.find((x) => x.id !== this.p.holder.id && x.id !== this.p.card.user_id)!;
    for (let i = 0; i < Math.max(2, Math.round(count * 0.05)); i++) {
      const e = this.expense(rng.pick(LOCAL_MERCHANTS), this.postedMs() - rng.int(0, 7) * DAY);
      this.truth.never_posted.push(e.id);
    }
    for (let i = 0; i < Math.max(2, Math.round(count * 0.1)); i++) {
      // Paid with a personal card or cash: the holder's, near in time, never on this card.
      this.expense(rng.pick(LOCAL_MERCHANTS), this.postedMs(), undefined, rng.pick(["personal_card", "cash"]));
    }
    // A colleague's card expense for exactly what one of the holder's charges costs: never the holder's match.
    for (const m of this.movements.filter((x) => x.type === "expense" && !x.is_deposit).slice(0, Math.max(1, Math.round(count * 0.05)))) {
      const merchant = LOCAL_MERCHANTS.find((x) => m.description === x.statement) ?? LOCAL_MERCHANTS[0];
      this.run.data.expenses.push(cardExpense(this.run, this.place, colleague.id, merchant, m.amount, Date.parse(`${m.transaction_date}T00:00:00Z`)));
    }
    this.movements.sort((a, b) => a.transaction_date.localeCompare(b.transaction_date));
    this.run.data.movements.push(...this.movements);
  }

  private charge(pattern: keyof typeof WEIGHTS): void {
    const { rng } = this.run;
    const posted = this.postedMs();
    const bought = posted - rng.int(0, 7) * DAY;
    if (pattern === "plain" || pattern === "service" || pattern === "unfiled") {
      const merchant = rng.pick(LOCAL_MERCHANTS);
      const amount = purchaseIn(this.run, merchant, this.currency);
      const e = pattern === "unfiled" ? null : this.expense(merchant, bought, amount);
      this.movement(pattern, merchant.statement, posted, { amount, currency: this.currency }, e ? [e] : [], { reconciled: pattern === "service" ? e : null });
    } else if (pattern === "foreign") {
      const merchant = rng.pick(FOREIGN_MERCHANTS);
      const currency = rng.pick(["USD", "EUR"]);
      const e = this.expense(merchant, bought, purchaseIn(this.run, merchant, currency), "corporate_card", currency);
      // The card's rate differs from the service's conversion by up to 3%.
      const rate = (PER_USD[this.currency] / PER_USD[currency]) * (0.97 + rng.next() * 0.06);
      this.movement("foreign", merchant.statement, posted, { amount: round(e.amount * rate, DECIMALS[this.currency]), currency: this.currency }, [e],
        { foreign: { amount: e.amount, currency } });
    } else if (pattern === "tip") {
      const merchant = rng.pick(RESTAURANTS);
      // A tip settles with the charge, within days of the meal.
      const e = this.expense(merchant, posted - rng.int(0, 3) * DAY);
      const tip = rng.pick([0.1, 0.12, 0.15]);
      this.movement("tip", merchant.statement, posted, { amount: round(e.amount * (1 + tip), DECIMALS[this.currency]), currency: this.currency }, [e]);
    } else if (pattern === "split") {
      const merchant = rng.pick(HOTELS);
      const room = this.expense(merchant, bought);
      const dinner = this.expense({ ...merchant, item: "Hotel restaurant, dinner", category: 0, usd: [25, 90] }, bought);
      this.movement("split", merchant.statement, posted, { amount: round(room.amount + dinner.amount, DECIMALS[this.currency]), currency: this.currency }, [room, dinner]);
    } else if (pattern === "installment") {
      this.installment(posted);
    } else if (pattern === "refund") {
      this.refund(posted);
    } else if (pattern === "fee") {
      const fee = rng.chance(0.5);
      this.movement("fee", fee ? rng.pick(["INTEREST CHARGE", "STAMP TAX"]) : "FOREIGN TRANSACTION FEE", posted, this.money(1 + rng.next() * 12), [],
        { type: fee ? "associated_fee" : "other_fee" });
    } else {
      this.twins(posted, bought);
    }
  }

  /** Two charges of one amount at one merchant on one day, and two expenses just alike: no one can tell which is which. */
  private twins(posted: number, bought: number): void {
    const merchant = this.run.rng.pick(LOCAL_MERCHANTS);
    const amount = purchaseIn(this.run, merchant, this.currency);
    for (let i = 0; i < 2; i++) {
      const e = this.expense(merchant, bought, amount);
      this.movement("twin", merchant.statement, posted, { amount, currency: this.currency }, [e]);
    }
  }

  /** Installment k of n of a purchase made k-1 months before: the statement dates it on the purchase. */
  private installment(posted: number): void {
    const { rng } = this.run;
    const merchant = rng.pick(INSTALLMENT_MERCHANTS);
    const n = rng.pick([3, 6, 12]);
    const k = rng.int(1, n);
    const each = round(purchaseIn(this.run, merchant, this.currency) / n, DECIMALS[this.currency]);
    const bought = posted - (k - 1) * 30 * DAY - rng.int(0, 5) * DAY;
    const e = this.expense(merchant, bought, round(each * n, DECIMALS[this.currency]));
    this.movement("installment", merchant.statement, bought, { amount: each, currency: this.currency }, [e], { installment: [k, n] });
  }

  /** A purchase returned: its charge (when it posted in this period) and the refund, a deposit of the same amount. */
  private refund(posted: number): void {
    const { rng } = this.run;
    const merchant = rng.pick([...LOCAL_MERCHANTS, ...HOTELS]);
    const bought = posted - rng.int(4, 25) * DAY;
    const e = this.expense(merchant, bought);
    const charged = bought + rng.int(0, 3) * DAY;
    if (charged >= this.p.startMs) this.movement("plain", merchant.statement, charged, { amount: e.amount, currency: this.currency }, [e]);
    this.movement("refund", `REFUND ${merchant.statement}`, posted, { amount: e.amount, currency: this.currency }, [e], { deposit: true, type: "expense" });
  }

  private postedMs(): number {
    const days = Math.round((this.p.endMs - this.p.startMs) / DAY);
    return this.p.startMs + this.run.rng.int(0, days) * DAY;
  }

  private money(usd: number): Money {
    return { amount: round(usd * PER_USD[this.currency], DECIMALS[this.currency]), currency: this.currency };
  }

  private expense(merchant: Merchant, dateMs: number, amount?: number, method = "corporate_card", currency = this.currency): ExpenseRec {
    const e = cardExpense(this.run, this.place, this.p.holder.id, merchant,
      { amount: amount ?? purchaseIn(this.run, merchant, currency), currency }, dateMs, method);
    this.run.data.expenses.push(e);
    return e;
  }

  private movement(pattern: CardPattern, description: string, dateMs: number, amount: Money, partners: ExpenseRec[],
    extra: { deposit?: boolean; type?: MovementRec["type"]; foreign?: Money; installment?: [number, number]; reconciled?: ExpenseRec | null } = {}): void {
    const { rng } = this.run;
    const type = extra.type ?? (pattern === "payment" ? "payment" : "expense");
    const m: MovementRec = {
      id: rng.uuid(), card_id: this.p.card.id, billing_period_id: this.p.periodId, amount, description,
      transaction_date: isoDate(dateMs), is_deposit: extra.deposit ?? false, type,
      current_installment: extra.installment?.[0] ?? 1, total_installments: extra.installment?.[1] ?? 1,
      reference_code: `${rng.int(10, 99)}${rng.hex(10).toUpperCase()}`, foreign_amount: extra.foreign ?? null,
      is_debt_transfer: false, reconciliation: extra.reconciled ? { id: rng.uuid(), expense_id: extra.reconciled.id } : null,
    };
    this.movements.push(m);
    this.truth.links.push({ movement_id: m.id, expense_ids: partners.map((e) => e.id), pattern });
  }
}
