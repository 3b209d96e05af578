/**
 * Each amount cell of a row takes its own currency's decimals (src/sheets/money-formats.ts, pure: plain calls, no
 * Excel): the currency from the row's currency cell, or the column's fixed code; widened where the amount has more;
 * an empty or text cell takes its currency's format, so a figure typed later shows right; with no known currency,
 * the amount's own decimals, or its kind's format for a cell with no number. What the load then says about amounts
 * is one sentence per finding, singular or plural as the counts are.
 */
import {
  AmountAudit, ISO_4217_PUBLISHED, amountNotesText, amountText, currencyCode, isoCurrencyCodes, rowFormatter, type AmountNotes,
} from "../../src/sheets/money-formats";
import type { CellValue } from "../../src/sheets/port/workbook";

const COLUMNS = [
  { key: "id", header: "Expense ID", kind: "id" as const },
  { key: "amount", header: "Amount", kind: "amount" as const, currencyKey: "currency" },
  { key: "currency", header: "Currency", kind: "text" as const },
  { key: "usd", header: "USD amount", kind: "amount" as const, currency: "USD", currencyKey: "currency" },
  { key: "fx", header: "Foreign amount", kind: "amount" as const, currencyKey: "no_such_column" },
  { key: "rate", header: "Tax rate %", kind: "percent" as const },
];
const formatsOf = (row: CellValue[]) => [...rowFormatter(COLUMNS)!(row)];

describe("a row's number formats", () => {
  it("each amount in its currency's minor units, the fixed-currency column in its own code, the rest in their kind's format", () => {
    expect(formatsOf(["e1", 1000, "CLP", 10.5, 3.14159, 19])).toEqual(["@", "#,##0", "@", "#,##0.00", "#,##0.00", "0.00"]);
    expect(formatsOf(["e2", 1.125, " kwd ", 7, 1, 19])).toEqual(["@", "#,##0.000", "@", "#,##0.00", "#,##0.00", "0.00"]);
  });

  it("an amount with more decimals than its currency is widened to its own: never rounded away", () => {
    expect(formatsOf(["e1", 10.005, "USD", 0.0016, 1, 0])).toEqual(["@", "#,##0.000", "@", "#,##0.0000", "#,##0.00", "0.00"]);
    expect(formatsOf(["e1", 1234.5, "CLP", 1, 1, 0])[1]).toBe("#,##0.0");
  });

  it("an amount with more decimals than a cell can show is shown with the most there are (15), never without a format", () => {
    expect(formatsOf(["e1", 0.12345678901234568, "USD", 1.5e-7, 1, 0]).slice(1, 4)).toEqual(["#,##0.000000000000000", "@", "#,##0.00000000"]);
  });

  it("a 17-digit amount the arithmetic cannot check still shows at least its currency's decimals (KWD three, USD two)", () => {
    expect(formatsOf(["e1", 123456789012345.67, "KWD", 123456789012345.67, 1, 0])).toEqual(["@", "#,##0.000", "@", "#,##0.00", "#,##0.00", "0.00"]);
  });

  it("a currency not in ISO 4217 (or none, or not text): exactly the decimals the amount has", () => {
    expect(formatsOf(["e1", 12.5, "XYZ", 1, 1, 0])[1]).toBe("#,##0.0");
    expect(formatsOf(["e1", 12, "", 1, 1, 0])[1]).toBe("#,##0");
    expect(formatsOf(["e1", 0.125, 36, 1, 1, 0])[1]).toBe("#,##0.000");
  });

  it("a cell with no number takes its currency's format; with no known currency, its kind's", () => {
    expect(formatsOf(["e1", "", "KWD", "", 1, 0])).toEqual(["@", "#,##0.000", "@", "#,##0.00", "#,##0.00", "0.00"]);
    expect(formatsOf(["e1", "n/a", "CLP", "", 1, 0])[1]).toBe("#,##0");
    expect(formatsOf(["e1", "", "XYZ", "", 1, 0])[1]).toBe("#,##0.00");
  });

  it("rows read one after another each get their own formats, whatever the rows before had", () => {
    const formatter = rowFormatter(COLUMNS)!;
    const rows: CellValue[][] = [["a", 1, "CLP", 1, 1, 0], ["b", 1, "KWD", 1, 1, 0], ["c", 1.5, "CLP", 1, 1, 0], ["d", 2, "CLP", 1, 1, 0], ["e", 2, "kwd", 1, 1, 0]];
    expect(rows.map((row) => formatter(row)[1])).toEqual(["#,##0", "#,##0.000", "#,##0.0", "#,##0", "#,##0.000"]);
  });

  it("the currency column may stand anywhere, first too", () => {
    const formatter = rowFormatter([{ key: "currency", header: "Currency", kind: "text" }, { key: "amount", header: "Amount", kind: "amount", currencyKey: "currency" }])!;
    expect([...formatter(["CLP", 5])]).toEqual(["@", "#,##0"]);
  });

  it("a layout without an amount in a currency has no per-row formats (every row takes its kind's)", () => {
    expect(rowFormatter([{ key: "id", header: "ID", kind: "id" }, { key: "a", header: "Amount", kind: "amount" }, { key: "b", header: "B", kind: "amount", currencyKey: "nope" }])).toBeUndefined();
  });
});

describe("amounts as text", () => {
  it("grouped, in the currency's decimals, widened where the amount has more, the code not added", () => {
    expect([amountText(1234.5, "USD"), amountText(12346, "CLP"), amountText(10.005, "usd"), amountText(-0.5, "XYZ"), amountText(1234567.125, "KWD")])
      .toEqual(["1,234.50", "12,346", "10.005", "-0.5", "1,234,567.125"]);
  });

  it("a currency cell's code: trimmed, upper case; not text is no code", () => {
    expect([currencyCode(" usd "), currencyCode(12), currencyCode(null)]).toEqual(["USD", "", ""]);
    expect(isoCurrencyCodes()).toEqual(expect.arrayContaining(["USD", "CLP", "KWD", "CLF"]));
  });
});

describe("what the load says about its amounts", () => {
  const NO_AMOUNT_NOTES: AmountNotes = { unknownCurrencies: [], finer: 0, firstFiner: null };
  const notes = (more: Partial<AmountNotes>): AmountNotes => ({ ...NO_AMOUNT_NOTES, ...more });

  it("nothing to say: no sentence", () => {
    expect(amountNotesText(NO_AMOUNT_NOTES)).toBe("");
    expect(amountNotesText(notes({ finer: 2, firstFiner: null }))).toBe("");
  });

  it("one finer amount: in the singular, naming the column, the amount as shown, its currency, its row and its decimals", () => {
    expect(amountNotesText(notes({ finer: 1, firstFiner: { header: "Amount", id: "e-1", amount: 10.005, currency: "USD", minorUnits: 2 } }))).toBe(
      "1 amount has more decimals than its currency has: shown in full, not rounded (Amount 10.005 USD on the row of e-1; USD has 2 decimals).");
  });

  it("many finer amounts: in the plural, grouped thousands; a row with no id is not named; one decimal in the singular", () => {
    expect(amountNotesText(notes({ finer: 1234, firstFiner: { header: "Net amount", id: "", amount: 1234.56, currency: "XAA", minorUnits: 1 } }))).toBe(
      "1,234 amounts have more decimals than their currency has: shown in full, not rounded (Net amount 1,234.56 XAA; XAA has 1 decimal).");
  });

  it("a currency with no decimals says so in the plural", () => {
    expect(amountNotesText(notes({ finer: 1, firstFiner: { header: "Amount", id: "e-2", amount: 1.5, currency: "CLP", minorUnits: 0 } }))).toBe(
      "1 amount has more decimals than its currency has: shown in full, not rounded (Amount 1.5 CLP on the row of e-2; CLP has 0 decimals).");
  });

  it("codes not in ISO 4217, and amounts with no code: one sentence each, singular or plural", () => {
    expect(amountNotesText(notes({ unknownCurrencies: [{ code: "", amounts: 2 }, { code: "BTC", amounts: 1 }] }))).toBe(
      "2 amounts have no currency code: shown with the decimals they have. " +
      `BTC is not an ISO 4217 currency code (list of ${ISO_4217_PUBLISHED}): its 1 amount is shown with the decimals it has.`);
    expect(amountNotesText(notes({ unknownCurrencies: [{ code: "", amounts: 1 }, { code: "XYZ", amounts: 3 }] }))).toBe(
      "1 amount has no currency code: shown with the decimals it has. " +
      `XYZ is not an ISO 4217 currency code (list of ${ISO_4217_PUBLISHED}): its 3 amounts are shown with the decimals they have.`);
  });

  it("the audit counts each amount once, names the first finer one with its row's id, and lists unknown codes in order", () => {
    const audit = new AmountAudit(COLUMNS);
    for (const row of [["e-1", 1.5, "CLP", 2, "", 0], ["", 2.5, "CLP", 1, "", 0], [7, 1, "zzz", 1, "", 0], ["e-4", 1, "AAA", 1, "", 0], ["e-5", "", "QQQ", "", "", 0]] as CellValue[][]) audit.check(row);
    expect(audit.notes()).toEqual({
      unknownCurrencies: [{ code: "AAA", amounts: 1 }, { code: "ZZZ", amounts: 1 }], finer: 2,
      firstFiner: { header: "Amount", id: "e-1", amount: 1.5, currency: "CLP", minorUnits: 0 },
    });
    const twice = new AmountAudit(COLUMNS);
    for (const row of [["a", 1, "AAA", 1, "", 0], ["b", 2, "aaa", 1, "", 0], ["c", 123456789012345.67, "USD", 123456789012345.67, "", 0]] as CellValue[][]) twice.check(row);
    expect(twice.notes()).toEqual({ unknownCurrencies: [{ code: "AAA", amounts: 2 }], finer: 0, firstFiner: null });
    const second = new AmountAudit(COLUMNS);
    second.check([undefined as unknown as CellValue, 0.001, "USD", 1, "", 0]);
    expect(second.notes().firstFiner).toEqual({ header: "Amount", id: "", amount: 0.001, currency: "USD", minorUnits: 2 });
  });
});
