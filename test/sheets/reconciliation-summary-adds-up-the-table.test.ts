/**
 * The reconciliation summary adds up the movements table as the sheet shows it (src/sheets/reconciliation/reconciliation.ts, pure:
 * plain calls, no Excel): a line per type, reconciled or not, and currency, the spec's types first in its order, then
 * per currency the reconciled, not reconciled and all totals; a deposit counts negative whatever sign its cell shows;
 * Yes/No cells read as typed by hand too; empty rows and rows the query no longer returns are left out.
 */
import { ALL_TYPES, SUMMARY_HEADER, movementsOfCells, signedAmount, summarizeMovements, summaryRows, type SummaryMovement } from "../../src/sheets/reconciliation/reconciliation";

const m = (type: string, reconciled: boolean | null, amount: number | null, currency = "CLP", deposit = false): SummaryMovement => ({ type, reconciled, currency, amount, deposit });

describe("the summary's lines", () => {
  it("types in the spec's order then others alphabetically; within a type reconciled, not, not shown; then by currency", () => {
    const lines = summarizeMovements([
      m("zeta_fee", false, 1), m("other_fee", true, 2), m("alpha_fee", false, 3), m("expense", null, 4), m("expense", false, 5, "USD"), m("expense", false, 6),
      m("expense", true, 7), m("payment", false, 100, "CLP", true), m("associated_fee", true, 8),
    ]);
    expect(summaryRows(lines)).toEqual([
      ["Payment to the card", "Not reconciled", "CLP", 1, -100],
      ["Expense", "Reconciled", "CLP", 1, 7], ["Expense", "Not reconciled", "CLP", 1, 6], ["Expense", "Not reconciled", "USD", 1, 5], ["Expense", "Not shown", "CLP", 1, 4],
      ["Associated fee", "Reconciled", "CLP", 1, 8], ["Other fee", "Reconciled", "CLP", 1, 2],
      ["alpha_fee", "Not reconciled", "CLP", 1, 3], ["zeta_fee", "Not reconciled", "CLP", 1, 1],
      [ALL_TYPES, "Reconciled", "CLP", 3, 17], [ALL_TYPES, "Not reconciled", "CLP", 4, -90], [ALL_TYPES, "Not shown", "CLP", 1, 4], [ALL_TYPES, "All", "CLP", 8, -69],
      [ALL_TYPES, "Not reconciled", "USD", 1, 5], [ALL_TYPES, "All", "USD", 1, 5],
    ]);
    expect(SUMMARY_HEADER).toEqual(["Type", "Reconciliation", "Currency", "Movements", "Amount (charges +, deposits −)"]);
  });

  it("counts add up per group; sums lose their floating-point noise; a zero total is 0, not -0", () => {
    const lines = summarizeMovements([m("expense", false, 0.1, "USD"), m("expense", false, 0.2, "USD"), m("payment", false, 0.3, "USD", true)]);
    expect(summaryRows(lines)).toEqual([
      ["Payment to the card", "Not reconciled", "USD", 1, -0.3], ["Expense", "Not reconciled", "USD", 2, 0.3],
      [ALL_TYPES, "Not reconciled", "USD", 3, 0], [ALL_TYPES, "All", "USD", 3, 0],
    ]);
    expect(Object.is(lines[2].amount, 0)).toBe(true);
  });

  it("a total that comes to nothing by float noise reads 0, never -0", () => {
    const lines = summarizeMovements([m("expense", false, 0.3), m("payment", false, 0.1, "CLP", true), m("payment", false, 0.2, "CLP", true)]);
    expect(lines.map((l) => l.amount.toLocaleString("en-US"))).toEqual(["-0.3", "0.3", "0", "0"]);
  });

  it("a spec type comes before any other, the first of the spec's too", () => {
    expect(summarizeMovements([m("alpha_fee", false, 1), m("payment", false, 2)]).map((l) => l.type)).toEqual(["payment", "alpha_fee", ALL_TYPES, ALL_TYPES]);
    expect(summarizeMovements([m("payment", false, 2), m("alpha_fee", false, 1)]).map((l) => l.type)).toEqual(["payment", "alpha_fee", ALL_TYPES, ALL_TYPES]);
  });

  it("no movements: one total line of nothing", () => {
    expect(summarizeMovements([])).toEqual([{ type: ALL_TYPES, reconciled: "All", currency: "", count: 0, amount: 0 }]);
  });

  it("a deposit counts negative whatever its sign; a charge keeps its own (a refund stays negative); no amount adds nothing", () => {
    expect([signedAmount(m("payment", null, 50, "CLP", true)), signedAmount(m("payment", null, -50, "CLP", true)), signedAmount(m("expense", null, -5)), signedAmount(m("expense", null, null, "CLP", true))])
      .toEqual([-50, -50, -5, 0]);
  });
});

describe("the movements read from the table's cells", () => {
  it("Yes/No as written, typed TRUE/FALSE or real booleans; empty rows and rows left out skipped; no type said so; an unreadable amount is none", () => {
    const read = movementsOfCells({
      rowCount: 8,
      type: ["expense", " payment ", "", "", "expense", "fee", "expense", "expense"],
      amount: [10, 20, "", 5, 7, "n/a", Infinity, 3],
      currency: [" CLP ", "USD", "", "CLP", "CLP", "CLP", undefined as never, "CLP"],
      deposit: ["No", " yes ", "", "TRUE", true, "maybe", "", "false"],
      reconciled: ["Yes", "no", "", " True ", false, "FALSE", "?", undefined as never],
      leftOut: (row) => row === 4,
    });
    expect(read).toEqual({
      leftOut: 1,
      movements: [
        m("expense", true, 10, "CLP", false), m("payment", false, 20, "USD", true), m("(no type)", true, 5, "CLP", true),
        m("fee", false, null, "CLP", false), m("expense", null, null, "", false), m("expense", null, 3, "CLP", false),
      ],
    });
  });

  it("without a Reconciled column, the query's filter says; without one either, not shown", () => {
    const cells = { rowCount: 1, type: ["expense"], amount: [1], currency: ["CLP"], deposit: ["No"] };
    expect(movementsOfCells({ ...cells, reconciledByQuery: false }).movements[0].reconciled).toBe(false);
    expect(movementsOfCells({ ...cells, reconciledByQuery: true }).movements[0].reconciled).toBe(true);
    expect(movementsOfCells(cells).movements[0].reconciled).toBeNull();
    expect(movementsOfCells({ ...cells, rowCount: 3 })).toEqual({ leftOut: 0, movements: [m("expense", null, 1)] });
    expect(movementsOfCells({ ...cells, amount: [""] })).toEqual({ leftOut: 0, movements: [m("expense", null, null)] });
  });
});
