/**
 * The card-close matcher scored against the sandbox's hidden truth (card_close_truth): the sandbox's records
 * mapped onto the matcher's input as the sheets layer maps the service's answers, each close card's period
 * matched, and every proposal checked against the true partners.
 */
import { matchCard, type CardMatch, type MatchInput } from "../../src/domain/card-match";
import { DECIMALS } from "../../src/sandbox/demo-money";
import type { CardPattern, ExpenseRec, MovementRec, SandboxData } from "../../src/sandbox/model";

export interface Figures {
  /** True links (a movement to its expenses) the service had not made. */
  trueLinks: number;
  proposed: number;
  right: number;
  wrong: number;
  /** Twin charges: true links no one can tell apart. */
  ties: number;
  tiesAmbiguous: number;
  feesAndPayments: number;
  feesExplained: number;
  refunds: number;
  refundsExplained: number;
  neverPosted: number;
  neverPostedListed: number;
  /** Charges nobody filed, listed with no proposal. */
  unfiled: number;
  unfiledChased: number;
  byPattern: Record<string, { links: number; proposed: number }>;
}

/** The matcher's input for one card's billing period, from the sandbox's records. */
function inputOf(data: SandboxData, cardId: string): MatchInput {
  const card = data.cards.find((c) => c.id === cardId)!;
  const period = data.billing_periods.find((p) => p.card_id === cardId)!;
  const movements = data.movements.filter((m) => m.billing_period_id === period.id);
  const categories = new Map(data.categories.map((c) => [c.id, c.name]));
  return {
    holderId: card.user_id, periodStart: period.start_date, periodEnd: period.end_date,
    movements: movements.map(movementOf), expenses: data.expenses.map((e) => expenseOf(e, categories)),
    decimals: (c) => DECIMALS[c] ?? 2,
  };
}

function movementOf(m: MovementRec): MatchInput["movements"][number] {
  return {
    id: m.id, amount: m.amount.amount, currency: m.amount.currency, foreign: m.foreign_amount, date: m.transaction_date,
    description: m.description, type: m.type, deposit: m.is_deposit,
    installment: { current: m.current_installment, total: m.total_installments }, reconciledExpenseId: m.reconciliation?.expense_id ?? null,
  };
}

function expenseOf(e: ExpenseRec, categories: ReadonlyMap<string, string>): MatchInput["expenses"][number] {
  return {
    id: e.id, userId: e.user_id, amount: e.amount, currency: e.currency,
    converted: e.subsidiary_currency === "CLP" ? e.subsidiary_expense_amount : null, date: e.date, provider: e.provider,
    description: e.description, paymentMethod: e.payment_method, active: e.is_active, category: categories.get(e.category_id) ?? "",
  };
}

/** The close cards of the data (those the truth speaks of). */
export function closeCards(data: SandboxData): string[] {
  const moved = new Set(data.card_close_truth!.links.map((l) => l.movement_id));
  return [...new Set(data.movements.filter((m) => moved.has(m.id)).map((m) => m.card_id))];
}

/** Matches every close card's period and scores the proposals against the truth. */
export function scoreAgainstTruth(data: SandboxData): { figures: Figures; matches: CardMatch[] } {
  const truth = data.card_close_truth!;
  const links = new Map(truth.links.map((l) => [l.movement_id, l]));
  const f: Figures = {
    trueLinks: 0, proposed: 0, right: 0, wrong: 0, ties: 0, tiesAmbiguous: 0, feesAndPayments: 0, feesExplained: 0,
    refunds: 0, refundsExplained: 0, neverPosted: truth.never_posted.length, neverPostedListed: 0, unfiled: 0, unfiledChased: 0, byPattern: {},
  };
  const matches = closeCards(data).map((card) => matchCard(inputOf(data, card)));
  const uncharged = new Set(matches.flatMap((m) => m.uncharged));
  f.neverPostedListed = truth.never_posted.filter((id) => uncharged.has(id)).length;
  for (const o of matches.flatMap((m) => m.outcomes)) {
    const link = links.get(o.movementId)!;
    const linked = o.kind === "proposed" || o.kind === "split" || o.kind === "refund";
    const right = linked && same(o.expenseIds, link.expense_ids);
    count(f, link.pattern, link.expense_ids.length > 0 && link.pattern !== "service", linked);
    if (link.pattern === "service") continue;
    if (linked) f[right ? "right" : "wrong"]++;
    if (link.pattern === "twin") {
      f.ties++;
      if (o.kind === "ambiguous" && o.alternatives.some((a) => same(a, link.expense_ids))) f.tiesAmbiguous++;
    }
    if (link.pattern === "fee" || link.pattern === "payment") {
      f.feesAndPayments++;
      if (o.kind === link.pattern) f.feesExplained++;
    }
    if (link.pattern === "refund") {
      f.refunds++;
      if (right) f.refundsExplained++;
    }
    if (link.pattern === "unfiled") {
      f.unfiled++;
      if (o.kind === "none") f.unfiledChased++;
    }
  }
  return { figures: f, matches };
}

function count(f: Figures, pattern: CardPattern, isLink: boolean, linked: boolean): void {
  if (!isLink) return;
  f.trueLinks++;
  if (linked) f.proposed++;
  const p = (f.byPattern[pattern] ??= { links: 0, proposed: 0 });
  p.links++;
  if (linked) p.proposed++;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/** One line of figures, as the test and the bench print them. */
export function describeFigures(label: string, f: Figures): string {
  const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
  return `${label}: ${f.right} right, ${f.wrong} wrong of ${f.proposed} proposed (precision ${pct(f.right, f.right + f.wrong)}); `
    + `recall ${pct(f.right, f.trueLinks)} of ${f.trueLinks} true links; ties ambiguous ${f.tiesAmbiguous}/${f.ties}; `
    + `fees and payments explained ${f.feesExplained}/${f.feesAndPayments}; refunds traced ${f.refundsExplained}/${f.refunds}; `
    + `unfiled charges chased ${f.unfiledChased}/${f.unfiled}; never-posted expenses listed ${f.neverPostedListed}/${f.neverPosted}`;
}
