/**
 * Amounts in the demo data: the demo's fixed exchange rates and each currency's ISO decimals, and amounts
 * converted and rounded by them.
 */

/** Units of each currency per US dollar (not round, so that COP and KWD amounts use their decimals). */
export const PER_USD: Record<string, number> = { CLP: 950, USD: 1, EUR: 0.925, PEN: 3.75, COP: 3950.45, KWD: 0.3071 };
/**
 * ISO 4217 minor units, written out here rather than read from the add-in's source of them, so that the add-in's
 * tests compare two independent readings of the list: COP has 2 (its cash has none), KWD 3.
 */
export const DECIMALS: Record<string, number> = { CLP: 0, USD: 2, EUR: 2, PEN: 2, COP: 2, KWD: 3 };

/**
 * An amount in US dollars at the demo's fixed rates. The reconciliation object of spec 2.4 types
 * usd_amount as money (never null), so a reconciled expense without one of its own is converted.
 */
export function usdAt(amount: number, currency: string): number {
  return round(amount / (PER_USD[currency] ?? 1), 2);
}

/** What `usd` US dollars are in `currency`, to its decimals. */
export function amountIn(currency: string, usd: number): number {
  return round(usd * PER_USD[currency], DECIMALS[currency]);
}

/** An amount in `from` converted to `to`, to the decimals of `to`. */
export function convert(amount: number, from: string, to: string): number {
  return round((amount / PER_USD[from]) * PER_USD[to], DECIMALS[to]);
}

/** `value` to `decimals` places. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
