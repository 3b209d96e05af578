/** The taskpane's sentence about a reconciliation summary: each total in its own currency's decimals. */
import type { SummaryLine } from "../../src/sheets";
import { summarySentence } from "../../src/taskpane/summary-sentence";

const total = (reconciled: SummaryLine["reconciled"], currency: string, count: number, amount: number): SummaryLine =>
  ({ type: "All types", reconciled, currency, count, amount });

it("says each currency's totals with its ISO decimals: CLP none, USD two (10.50, not 10.5), KWD three, a finer figure in full", () => {
  const lines = [
    { type: "expense", reconciled: "Reconciled", currency: "CLP", count: 2, amount: 12345 } as SummaryLine,
    total("Reconciled", "CLP", 2, 12345), total("Not reconciled", "CLP", 1, -1500000), total("All", "CLP", 3, -1487655),
    total("Reconciled", "KWD", 4, 1.25), total("Not reconciled", "KWD", 0, 0),
    total("Not reconciled", "USD", 1, 10.5), total("Reconciled", "USD", 1, 10.005),
  ];
  expect(summarySentence({ sheetName: "Summary x", tableName: "T_Summary", lines, leftOut: 0 })).toBe(
    'Reconciliation summary on the sheet "Summary x": 2 reconciled (CLP 12,345), 1 not reconciled (CLP -1,500,000), ' +
    "4 reconciled (KWD 1.250), 1 not reconciled (USD 10.50), 1 reconciled (USD 10.005).",
  );
});

it("says how many rows no longer returned by the query were left out, one row in the singular, and nothing when none", () => {
  const lines = [total("Reconciled", "CLP", 1, 4000)];
  const said = (leftOut: number) => summarySentence({ sheetName: "Summary x", tableName: "T_Summary", lines, leftOut });
  expect(said(0)).toBe('Reconciliation summary on the sheet "Summary x": 1 reconciled (CLP 4,000).');
  expect(said(1)).toBe('Reconciliation summary on the sheet "Summary x": 1 reconciled (CLP 4,000). 1 row no longer returned by the query is left out.');
  expect(said(2)).toBe('Reconciliation summary on the sheet "Summary x": 1 reconciled (CLP 4,000). 2 rows no longer returned by the query are left out.');
  expect(summarySentence({ sheetName: "S", tableName: "T", lines: [total("All", "CLP", 0, 0)], leftOut: 0 })).toBe('Reconciliation summary on the sheet "S": no movements.');
});
