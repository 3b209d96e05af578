/**
 * How one movement and one expense are scored together, with the reasons kept. Amounts are compared in whole
 * minor units of their currency; dates as whole days; words as a statement and a receipt share them.
 *
 * Exact rules (same amount; the foreign amount as filed; an installment's share) stand on amount and date.
 * Tolerant rules (a tip, on a meal only; a foreign amount or conversion within TOLERANCE) also need a shared word, and are
 * tried only for movements the exact rules and exact splits left without a candidate (match.ts).
 */
import type { CardExpense, CardMovement } from "./types";

/** Days a charge may post after the expense's date (Expensify's window), and before it (time zones). */
export const POST_AFTER_DAYS = 7;
export const POST_BEFORE_DAYS = 1;
/** A foreign amount or the service's conversion within this share counts (Expensify: ±5%). */
const TOLERANCE = 0.05;
/**
 * A card charge above its receipt by TIP_MIN to TIP_MAX, at a merchant the receipt names, posted within
 * TIP_DAYS, on a card expense of a meal, is read as a tip (the receipt was printed before the tip was added).
 */
const TIP_MIN = 0.05;
const TIP_MAX = 0.25;
const TIP_DAYS = 3;
/** Categories where a tip is added on the card after the receipt is printed (restaurants, bars, cafés). */
const TIPPED = /meal|restaurant|food|dining|bar|comida|alimenta|restaura/i;

export interface Scored {
  score: number;
  reasons: string[];
}

/** An expense as the rules read it. */
export interface PreparedExpense {
  e: CardExpense;
  minor: number;
  day: number;
  words: Set<string>;
}

export interface PreparedMovement {
  m: CardMovement;
  minor: number;
  day: number;
  words: Set<string>;
}

const STOP = new Set(["the", "and", "refund", "trip", "help", "app", "com", "www", "cuotas", "pos", "compra"]);

/** The words of a text that can name a merchant: lower case, accents off, 3 letters or more, not a number. */
export function wordsOf(text: string): Set<string> {
  const plain = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  return new Set(plain.split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !STOP.has(w)));
}

/** Whole days since 1970 of a YYYY-MM-DD date. */
export function dayOf(date: string): number {
  return Math.round(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / 86_400_000);
}

/** An amount in whole minor units (the sign dropped: the rules compare sizes; a deposit's sign is its flag). */
export function minorOf(amount: number, decimals: number): number {
  return Math.round(Math.abs(amount) * 10 ** decimals);
}

export function shared(a: Set<string>, b: Set<string>): string[] {
  return [...a].filter((w) => b.has(w));
}

/** Date, words and payment method: what every rule adds to its amount's basis. */
function around(pm: PreparedMovement, pe: PreparedExpense, basis: number, reasons: string[], needWords: boolean, purchaseDay = pm.day): Scored | null {
  const days = purchaseDay - pe.day;
  if (days < -POST_BEFORE_DAYS || days > POST_AFTER_DAYS) return null;
  const words = shared(pm.words, pe.words);
  if (needWords && words.length === 0) return null;
  let score = basis + (POST_AFTER_DAYS + 1 - Math.abs(days)) * 2;
  const out = [...reasons, days === 0 ? "same day" : days > 0 ? `posted ${days} day${days === 1 ? "" : "s"} after the expense` : `dated ${-days} day before the expense`];
  if (words.length > 0) {
    score += 20;
    out.push(`statement and receipt share: ${words.join(", ")}`);
  }
  if (pe.e.paymentMethod === "corporate_card") score += 5;
  else {
    score -= 10;
    out.push(`filed as paid by ${pe.e.paymentMethod.replace(/_/g, " ")}`);
  }
  return { score, reasons: out };
}

/** The exact rules: the same amount, the foreign amount as filed, or an installment's share of the purchase. */
export function exactScore(pm: PreparedMovement, pe: PreparedExpense, decimals: (c: string) => number): Scored | null {
  const { m } = pm;
  const { e } = pe;
  const { total, current } = m.installment;
  if (total > 1) {
    if (e.currency !== m.currency || Math.abs(pe.minor - pm.minor * total) > total) return null;
    return around(pm, pe, 70, [`installment ${current} of ${total} of ${e.amount} ${e.currency}`], false);
  }
  if (e.currency === m.currency && pe.minor === pm.minor) return around(pm, pe, 60, ["same amount"], false);
  if (m.foreign && m.foreign.currency === e.currency && minorOf(m.foreign.amount, decimals(e.currency)) === pe.minor) {
    const reasons = [`foreign amount ${m.foreign.amount} ${e.currency} as filed`];
    if (e.converted !== null && e.converted !== 0) reasons.push(`card rate ${signedPercent(Math.abs(m.amount) / e.converted - 1)} from the service's conversion`);
    return around(pm, pe, 60, reasons, false);
  }
  return null;
}

/** The tolerant rules: a tip above the receipt, or a foreign amount or conversion within TOLERANCE; each needs a shared word and a card expense. */
export function tolerantScore(pm: PreparedMovement, pe: PreparedExpense, decimals: (c: string) => number): Scored | null {
  const { m } = pm;
  const { e } = pe;
  if (m.installment.total > 1) return null;
  if (e.currency === m.currency) {
    const above = pm.minor / pe.minor - 1;
    if (pe.minor === 0 || above < TIP_MIN || above > TIP_MAX || !TIPPED.test(e.category)) return null;
    if (e.paymentMethod !== "corporate_card" || pm.day - pe.day < 0 || pm.day - pe.day > TIP_DAYS) return null;
    return around(pm, pe, 30, [`${signedPercent(above)} above the receipt (a tip)`], true);
  }
  if (e.paymentMethod !== "corporate_card") return null;
  if (m.foreign && m.foreign.currency === e.currency) {
    const off = minorOf(m.foreign.amount, decimals(e.currency)) / pe.minor - 1;
    if (pe.minor === 0 || Math.abs(off) > TOLERANCE) return null;
    return around(pm, pe, 35, [`foreign amount ${signedPercent(off)} from the ${e.amount} ${e.currency} filed`], true);
  }
  if (e.converted === null || e.converted === 0) return null;
  const off = Math.abs(m.amount) / e.converted - 1;
  if (Math.abs(off) > TOLERANCE) return null;
  return around(pm, pe, 25, [`${signedPercent(off)} from the service's conversion of ${e.amount} ${e.currency}`], true);
}

function signedPercent(share: number): string {
  const p = Math.round(share * 1000) / 10;
  return `${p > 0 ? "+" : ""}${p}%`;
}
