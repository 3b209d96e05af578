/**
 * Exact sums of decimal amounts as text (`12.50` + `0.005` = `12.505`): money is never a float here. The add-in
 * sums a batch's totals the same way (src/sync/team-batch.ts exactSum) and the gateway refuses a difference; the
 * gateway imports nothing of the add-in, so the rule is written twice.
 */

const DECIMAL = /^-?\d{1,20}(\.\d{1,8})?$/;

export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

/** The exact sum, with as many decimals as the most precise term (at least none). */
export function sumDecimals(terms: readonly string[]): string {
  const places = Math.max(0, ...terms.map((t) => (t.split(".")[1] ?? "").length));
  let total = 0n;
  for (const term of terms) {
    const negative = term.startsWith("-");
    const [whole, fraction = ""] = term.replace("-", "").split(".");
    const scaled = BigInt(whole + fraction.padEnd(places, "0"));
    total += negative ? -scaled : scaled;
  }
  const sign = total < 0n ? "-" : "";
  const digits = (total < 0n ? -total : total).toString().padStart(places + 1, "0");
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
