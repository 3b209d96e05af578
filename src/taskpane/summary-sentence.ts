/** The taskpane's one sentence about a reconciliation summary just written (the table itself is in the sheet). */
import { ALL_TYPES, amountText, type SummaryReport } from "../sheets";

/** "CLP 12,346", "KWD 1.250", "USD 10.005": each total in its currency's decimals, as the Summary sheet shows it. */
const amount = (n: number, currency: string) => `${currency ? `${currency} ` : ""}${amountText(n, currency)}`;

export function summarySentence(report: SummaryReport): string {
  const totals = report.lines.filter((l) => l.type === ALL_TYPES && l.reconciled !== "All" && l.count > 0);
  const parts = totals.map((l) => `${l.count} ${l.reconciled.toLowerCase()} (${amount(l.amount, l.currency)})`);
  const rowsAre = report.leftOut === 1 ? "1 row" : `${report.leftOut} rows`;
  const leftOut = report.leftOut ? ` ${rowsAre} no longer returned by the query ${report.leftOut === 1 ? "is" : "are"} left out.` : "";
  return `Reconciliation summary on the sheet "${report.sheetName}": ${parts.length ? parts.join(", ") : "no movements"}.${leftOut}`;
}
