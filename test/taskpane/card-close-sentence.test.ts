/** The Card close section's reading of a typed statement total, and its one paragraph on the close. */
import type { CardCloseReport } from "../../src/sheets";
import { closeSentence, readStatementTotal } from "../../src/taskpane/card-close-section";

describe("a statement total as a person types it", () => {
  it.each([
    ["1.234.567", 0, 1234567], ["1.234,5", 0, "invalid"], ["1,234,567.50", 2, 1234567.5], ["1.234.567,5", 2, 1234567.5], ["12.5", 2, 12.5],
    ["-3,20", 2, -3.2], ["1.234", 2, 1234], ["10.500", 3, 10.5], [" 98 765 ", 0, 98765], ["", 2, null], ["abc", 2, "invalid"], ["12..", 2, "invalid"],
  ])("%j in a currency of %i decimals reads as %j", (typed, decimals, read) => {
    expect(readStatementTotal(typed, decimals)).toBe(read);
  });
});

describe("the close's paragraph", () => {
  const report: CardCloseReport = {
    sheets: ["Close 4242 2026-10-31"], holder: "Ana Pérez", lastFour: "4242", periodStart: "2026-10-01", periodEnd: "2026-10-31",
    outcomes: { service: 10, proposed: 30, split: 2, refund: 1, ambiguous: 2, fee: 4, payment: 1, none: 3 },
    ties: [{ currency: "CLP", total: 1234567, statement: 1234567, difference: 0 }], chase: 3, uncharged: 1, keptRows: 2, carriedRows: 1,
  };

  it("says whether the period ties out, in the currency's decimals, and counts each outcome", () => {
    expect(closeSentence(report)).toBe("Card •••• 4242 (Ana Pérez), 2026-10-01 to 2026-10-31: ties out at CLP 1,234,567. 10 reconciled by the service, "
      + "33 matched here, 2 ambiguous, 5 fees and payments, 3 to chase, 1 expense with no charge. Sheet \"Close 4242 2026-10-31\". Your notes were kept on 3 rows.");
    const off = closeSentence({ ...report, ties: [{ currency: "KWD", total: 10.5, statement: 10, difference: 0.5 }], keptRows: 0, carriedRows: 0 });
    expect(off).toContain("differs from the statement by KWD 0.500.");
    expect(off).not.toContain("notes");
  });
});
