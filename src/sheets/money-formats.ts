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
 */
export function rowFormatter(columns: readonly Pick<Column<unknown>, "key" | "kind" | "currency" | "currencyKey">[]): ((row: CellValue[]) => (string | null)[]) | undefined {
  const base = columns.map((c) => NUMBER_FORMATS[c.kind]);
  const amounts = columns.flatMap((c, i) => {
    if (c.currency) return [{ at: i, fixed: c.currency, from: -1 }];
    const from = c.currencyKey ? columns.findIndex((other) => other.key === c.currencyKey) : -1;
    return from >= 0 ? [{ at: i, fixed: "", from }] : [];
  });
  if (amounts.length === 0) return undefined;
  return (row) => {
    const formats: (string | null)[] = base.slice();
    for (const a of amounts) {
      const code = a.fixed || row[a.from];
      if (typeof code === "string" && /^[A-Za-z]{3}$/.test(code.trim())) formats[a.at] = currencyFormat(code);
    }
    return formats;
  };
}
