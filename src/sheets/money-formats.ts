/**
 * An amount shows the decimals of its currency: CLP and JPY none, USD and EUR two, KWD three
 * (Intl.NumberFormat knows each ISO 4217 currency's minor units). A column says where its currency is:
 * another column of the row (`currencyKey`) or a fixed code (`currency`).
 */
import { NUMBER_FORMATS, type Column } from "./columns";
import type { CellValue } from "./excel-values";

const decimalsCache = new Map<string, number>();

/** Minor units of an ISO 4217 code; 2 for a code Intl does not know. */
export function currencyDecimals(code: string): number {
  let decimals = decimalsCache.get(code);
  if (decimals === undefined) {
    try {
      decimals = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      decimals = 2;
    }
    decimalsCache.set(code, decimals);
  }
  return decimals;
}

/** The Excel number format of an amount in `code`: "#,##0" for CLP, "#,##0.00" for USD, "#,##0.000" for KWD. */
export function currencyFormat(code: string): string {
  const decimals = currencyDecimals(code.trim().toUpperCase());
  return decimals > 0 ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
}

/**
 * A row's number formats, for layouts with amounts in a currency: each amount column takes its currency's
 * decimals (from the row's currency cell, or its fixed code); the rest keep their kind's format. Undefined
 * when the layout has no such column (every row then has the same formats).
 *
 * Rows with the same formats share one frozen array (a formatter knows a few: an amount's format follows its
 * currency's decimals, 0 to 4), so 50,000 rows make a handful of arrays, not one per row.
 */
export function rowFormatter(columns: readonly Pick<Column<unknown>, "key" | "kind" | "currency" | "currencyKey">[]): ((row: CellValue[]) => readonly (string | null)[]) | undefined {
  const base = columns.map((c) => NUMBER_FORMATS[c.kind]);
  const amounts = columns.flatMap((c, i) => {
    if (c.currency) return [{ at: i, fixed: c.currency, from: -1 }];
    const from = c.currencyKey ? columns.findIndex((other) => other.key === c.currencyKey) : -1;
    return from >= 0 ? [{ at: i, fixed: "", from }] : [];
  });
  if (amounts.length === 0) return undefined;
  const shared = new Map<string, readonly (string | null)[]>();
  const amountFormats: string[] = new Array(amounts.length);
  return (row) => {
    for (let k = 0; k < amounts.length; k++) {
      const a = amounts[k];
      const code = a.fixed || row[a.from];
      amountFormats[k] = typeof code === "string" && /^[A-Za-z]{3}$/.test(code.trim()) ? currencyFormat(code) : base[a.at];
    }
    const key = amountFormats.join("\n");
    let formats = shared.get(key);
    if (!formats) {
      const made = base.slice();
      amounts.forEach((a, k) => (made[a.at] = amountFormats[k]));
      formats = Object.freeze(made);
      shared.set(key, formats);
    }
    return formats;
  };
}
