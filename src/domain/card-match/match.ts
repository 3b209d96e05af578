/**
 * The card-close matcher (docs/reconciliation.md). For each movement of a billing period: the service's own
 * link kept; payments and fees explained; charges matched to the cardholder's expenses, exact rules one to one
 * first, then exact sums of several expenses, then the tolerant rules; refunds traced to the purchase they give
 * back. It never guesses: candidates that score alike are listed as ambiguous, none chosen.
 */
import { assignOneToOne, type Candidate } from "./assign";
import {
  POST_AFTER_DAYS, POST_BEFORE_DAYS, dayOf, exactScore, minorOf, shared, tolerantScore, wordsOf,
  type PreparedExpense, type PreparedMovement,
} from "./rules";
import { splitsOf } from "./splits";
import type { CardMatch, Confidence, MatchInput, MovementOutcome } from "./types";

const FEES = new Set(["associated_fee", "other_fee"]);
/** A refund gives back a purchase made at most this many days before it. */
const REFUND_DAYS = 90;

/** Matches a billing period's movements to the cardholder's expenses. */
export function matchCard(input: MatchInput): CardMatch {
  return new Matcher(input).run();
}

/** High from an exact amount posted within days with a shared word; Low for a tolerant rule's bare minimum. */
function confidenceOf(score: number): Confidence {
  return score >= 90 ? "High" : score >= 70 ? "Medium" : "Low";
}

class Matcher {
  private readonly outcomes: (MovementOutcome | null)[];
  private readonly pms: PreparedMovement[];
  private readonly expenses: PreparedExpense[];
  /** By currency, in date order: the window scans. */
  private readonly byCurrency = new Map<string, PreparedExpense[]>();
  /** By currency and minor units: the exact lookups. */
  private readonly byAmount = new Map<string, PreparedExpense[]>();
  private readonly used = new Set<string>();

  constructor(private readonly input: MatchInput) {
    const dec = input.decimals;
    this.pms = input.movements.map((m) => ({ m, minor: minorOf(m.amount, dec(m.currency)), day: dayOf(m.date), words: wordsOf(m.description) }));
    this.expenses = input.expenses.filter((e) => e.userId === input.holderId && e.active)
      .map((e) => ({ e, minor: minorOf(e.amount, dec(e.currency)), day: dayOf(e.date), words: wordsOf(`${e.provider} ${e.description}`) }));
    for (const pe of [...this.expenses].sort((a, b) => a.day - b.day)) {
      push(this.byCurrency, pe.e.currency, pe);
      push(this.byAmount, `${pe.e.currency}|${pe.minor}`, pe);
    }
    this.outcomes = this.pms.map(() => null);
  }

  run(): CardMatch {
    this.explainKnown();
    const charges = this.pms.map((_, i) => i).filter((i) => this.outcomes[i] === null && !this.pms[i].m.deposit);
    const outbid = new Set<number>();
    this.oneToOne(charges, (pm) => this.exactCandidates(pm), outbid);
    this.splits(charges.filter((i) => this.outcomes[i] === null));
    this.oneToOne(charges.filter((i) => this.outcomes[i] === null), (pm) => this.tolerantCandidates(pm), outbid);
    this.pms.forEach((pm, i) => {
      if (this.outcomes[i] === null && pm.m.deposit) this.outcomes[i] = this.refund(pm);
    });
    this.pms.forEach((pm, i) => {
      this.outcomes[i] ??= this.none(pm, outbid.has(i) ? "Its candidates match other movements better." : null);
    });
    return { outcomes: this.outcomes as MovementOutcome[], uncharged: this.uncharged() };
  }

  /** The service's links, payments and fees: nothing to match. */
  private explainKnown(): void {
    this.pms.forEach(({ m }, i) => {
      if (m.reconciledExpenseId) {
        this.used.add(m.reconciledExpenseId);
        this.outcomes[i] = outcome(m.id, "service", [m.reconciledExpenseId], ["reconciled by the service"]);
      } else if (m.type === "payment") {
        this.outcomes[i] = outcome(m.id, "payment", [], ["a payment to the card: no expense is filed for it"]);
      } else if (FEES.has(m.type)) {
        this.outcomes[i] = outcome(m.id, "fee", [], [`a bank fee (${m.type.replace("_", " ")}): no expense is filed for it`]);
      }
    });
  }

  private oneToOne(indexes: number[], candidatesOf: (pm: PreparedMovement) => Candidate[], outbid: Set<number>): void {
    const candidates = new Map<number, Candidate[]>();
    for (const i of indexes) {
      const list = candidatesOf(this.pms[i]);
      if (list.length > 0) candidates.set(i, list);
    }
    const result = assignOneToOne(candidates, this.used);
    for (const [i, c] of result.taken) {
      this.outcomes[i] = { ...outcome(this.pms[i].m.id, "proposed", [c.pe.e.id], c.reasons), score: c.score, confidence: confidenceOf(c.score) };
      outbid.delete(i);
    }
    for (const [i, { candidates: alike, why }] of result.ambiguous) {
      this.outcomes[i] = { ...outcome(this.pms[i].m.id, "ambiguous", [], [why, ...alike[0].reasons]), alternatives: alike.map((c) => [c.pe.e.id]) };
      for (const c of alike) this.used.add(c.pe.e.id);
    }
    for (const i of result.outbid) outbid.add(i);
  }

  private exactCandidates(pm: PreparedMovement): Candidate[] {
    const { m } = pm;
    const dec = this.input.decimals;
    const pool: PreparedExpense[] = [...(this.byAmount.get(`${m.currency}|${pm.minor}`) ?? [])];
    if (m.foreign) pool.push(...(this.byAmount.get(`${m.foreign.currency}|${minorOf(m.foreign.amount, dec(m.foreign.currency))}`) ?? []));
    const n = m.installment.total;
    for (let d = -n; n > 1 && d <= n; d++) pool.push(...(this.byAmount.get(`${m.currency}|${pm.minor * n + d}`) ?? []));
    return scoredOver(pool, (pe) => exactScore(pm, pe, dec));
  }

  private tolerantCandidates(pm: PreparedMovement): Candidate[] {
    const pool = [pm.m.currency, pm.m.foreign?.currency].filter((c): c is string => !!c)
      .concat(pm.m.foreign ? [] : [...this.byCurrency.keys()].filter((c) => c !== pm.m.currency))
      .flatMap((c) => this.window(c, pm.day));
    return scoredOver(pool.filter((pe) => !this.used.has(pe.e.id)), (pe) => tolerantScore(pm, pe, this.input.decimals));
  }

  /** The expenses in `currency` a charge on `day` may be for. */
  private window(currency: string, day: number): PreparedExpense[] {
    const list = this.byCurrency.get(currency) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].day < day - POST_AFTER_DAYS) lo = mid + 1;
      else hi = mid;
    }
    const out: PreparedExpense[] = [];
    for (let k = lo; k < list.length && list[k].day <= day + POST_BEFORE_DAYS; k++) out.push(list[k]);
    return out;
  }

  private splits(indexes: number[]): void {
    const found = new Map<number, PreparedExpense[][]>();
    for (const i of indexes) {
      const pm = this.pms[i];
      if (pm.m.installment.total > 1) continue;
      const sets = splitsOf(pm, this.window(pm.m.currency, pm.day), this.used);
      if (sets.length > 0) found.set(i, sets);
    }
    // An expense in the sets of two movements belongs to neither for sure: both are ambiguous.
    const claims = new Map<string, number>();
    for (const sets of found.values()) for (const id of new Set(sets.flat().map((pe) => pe.e.id))) claims.set(id, (claims.get(id) ?? 0) + 1);
    for (const [i, sets] of found) {
      const m = this.pms[i].m;
      const contested = sets.flat().some((pe) => claims.get(pe.e.id)! > 1);
      const ids = sets.map((set) => set.map((pe) => pe.e.id));
      for (const id of ids.flat()) this.used.add(id);
      if (sets.length === 1 && !contested) {
        const words = shared(this.pms[i].words, sets[0][0].words);
        const score = 60 + 20 + 5;
        this.outcomes[i] = { ...outcome(m.id, "split", ids[0], [`the exact sum of ${ids[0].length} expenses`, `statement and receipts share: ${words.join(", ")}`]),
          score, confidence: confidenceOf(score) };
      } else {
        const why = sets.length > 1 ? `${sets.length} sets of expenses add up to it exactly: none chosen` : "another movement adds up to the same expenses: none chosen";
        this.outcomes[i] = { ...outcome(m.id, "ambiguous", [], [why]), alternatives: ids };
      }
    }
  }

  /** A deposit that gives back a purchase: the holder's expense of that amount, made before it. */
  private refund(pm: PreparedMovement): MovementOutcome {
    const pool = (this.byAmount.get(`${pm.m.currency}|${pm.minor}`) ?? []).filter((pe) => pe.day <= pm.day + POST_BEFORE_DAYS && pm.day - pe.day <= REFUND_DAYS);
    const scored = pool.map((pe) => ({ pe, words: shared(pm.words, pe.words) })).map((c) => ({ ...c, score: 60 + (c.words.length > 0 ? 20 : 0) }))
      .sort((a, b) => b.score - a.score);
    if (scored.length === 0) return this.none(pm, "A refund, but the cardholder has no expense of this amount in the 90 days before it.");
    const alike = scored.filter((c) => c.score === scored[0].score);
    if (alike.length > 1) {
      return { ...outcome(pm.m.id, "ambiguous", [], [`a refund: ${alike.length} expenses of this amount fit alike: none chosen`]), alternatives: alike.map((c) => [c.pe.e.id]) };
    }
    const [best] = scored;
    const reasons = ["a refund of the same amount", `gives back the purchase of ${best.pe.e.date}`];
    if (best.words.length > 0) reasons.push(`statement and receipt share: ${best.words.join(", ")}`);
    return { ...outcome(pm.m.id, "refund", [best.pe.e.id], reasons), score: best.score, confidence: confidenceOf(best.score + 10) };
  }

  private none(pm: PreparedMovement, why: string | null): MovementOutcome {
    const foreign = pm.m.foreign ? " (nor for its foreign amount)" : "";
    return outcome(pm.m.id, "none", [], [why ?? `No expense of the cardholder for this amount${foreign}, dated up to ${POST_AFTER_DAYS} days before the charge.`]);
  }

  /** The holder's card expenses of the period and its posting window that no movement accounts for. */
  private uncharged(): string[] {
    const linked = new Set<string>();
    for (const o of this.outcomes) for (const id of [...o!.expenseIds, ...o!.alternatives.flat()]) linked.add(id);
    const from = dayOf(this.input.periodStart) - POST_AFTER_DAYS;
    const to = dayOf(this.input.periodEnd);
    return this.expenses.filter((pe) => pe.e.paymentMethod === "corporate_card" && pe.day >= from && pe.day <= to && !linked.has(pe.e.id))
      .sort((a, b) => a.day - b.day).map((pe) => pe.e.id);
  }
}

function scoredOver(pool: PreparedExpense[], score: (pe: PreparedExpense) => { score: number; reasons: string[] } | null): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const pe of pool) {
    if (seen.has(pe.e.id)) continue;
    seen.add(pe.e.id);
    const s = score(pe);
    if (s) out.push({ pe, ...s });
  }
  return out;
}

function outcome(movementId: string, kind: MovementOutcome["kind"], expenseIds: string[], reasons: string[]): MovementOutcome {
  return { movementId, kind, expenseIds, alternatives: [], confidence: null, score: null, reasons };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
