/**
 * A custom function's result with data types (src/sheets/spill/types.ts, pure: plain calls, no Excel): the header
 * row stays text; a date, timestamp or amount is a number that carries the format it shows with (an amount its
 * currency's decimals), as a Double with numberFormat (ExcelApi 1.19) or a FormattedNumber (1.16); a record is an
 * entity shown by its number (expense #, allowance #), a card by its last four digits, else its id, with every
 * field that has a value as a property.
 */
import type { Spill } from "../../src/sheets/spill/spill";
import { recordEntity, typedGrid, typedValue } from "../../src/sheets/spill/types";

const EXPENSE: Spill = {
  columns: [
    { key: "id", header: "Expense ID", kind: "id" }, { key: "expense_number", header: "Expense #", kind: "integer" },
    { key: "date", header: "Date", kind: "date" }, { key: "amount", header: "Amount", kind: "amount", currencyKey: "currency" },
    { key: "currency", header: "Currency", kind: "text" }, { key: "is_active", header: "Active", kind: "boolean" },
    { key: "created_at", header: "Created (UTC)", kind: "timestamp" }, { key: "tax_rate", header: "Tax rate %", kind: "percent" },
    { key: "ref", header: "Reference", kind: "id" }, { key: "note", header: "Note", kind: "text" }, { key: "rate", header: "Rate", kind: "number" },
  ],
  rows: [["exp_1", 42, 46112, 12000, "CLP", "Yes", 46112.5, 19, 777, "", 1.5], ["exp_2", 43, "", 10.005, "USD", true, "n/a", "", "", "x", 2]],
};

describe("a list with data types", () => {
  it("the header row as text; numbers of dated, counted and money columns with their formats; the rest as they are", () => {
    const d = (basicValue: number, numberFormat: string) => ({ type: "Double", basicValue, numberFormat });
    expect(typedGrid(EXPENSE, "double")).toEqual([
      ["Expense ID", "Expense #", "Date", "Amount", "Currency", "Active", "Created (UTC)", "Tax rate %", "Reference", "Note", "Rate"],
      ["exp_1", d(42, "0"), d(46112, "yyyy-mm-dd"), d(12000, "#,##0"), "CLP", "Yes", d(46112.5, "yyyy-mm-dd hh:mm:ss"), d(19, "0.00"), 777, "", d(1.5, "0.00")],
      ["exp_2", d(43, "0"), "", d(10.005, "#,##0.000"), "USD", true, "n/a", "", "", "x", d(2, "0.00")],
    ]);
  });

  it("in an Excel before ExcelApi 1.19, the same as FormattedNumber", () => {
    expect(typedGrid(EXPENSE, "formatted-number")[1][3]).toEqual({ type: "FormattedNumber", basicValue: 12000, numberFormat: "#,##0" });
  });

  it("a layout with no amount in a currency: each number in its kind's format", () => {
    const spill: Spill = { columns: [{ key: "n", header: "N", kind: "amount" }, { key: "d", header: "D", kind: "date" }], rows: [[5, 46112]] };
    expect(typedGrid(spill, "double")).toEqual([["N", "D"], [{ type: "Double", basicValue: 5, numberFormat: "#,##0.00" }, { type: "Double", basicValue: 46112, numberFormat: "yyyy-mm-dd" }]]);
  });

  it("one value: a format given is used (null or none: its kind's); text and numbers of other kinds as they are", () => {
    expect(typedValue("amount", 5, "double", "#,##0.000")).toEqual({ type: "Double", basicValue: 5, numberFormat: "#,##0.000" });
    expect(typedValue("amount", 5, "double", null)).toEqual({ type: "Double", basicValue: 5, numberFormat: "#,##0.00" });
    expect([typedValue("text", 5, "double"), typedValue("amount", "5", "double"), typedValue("boolean", true, "double")]).toEqual([5, "5", true]);
  });
});

describe("a record as an entity", () => {
  it("an expense: shown by its number; every field with a value a property, typed", () => {
    expect(recordEntity("expense", EXPENSE, "double")).toEqual({
      type: "Entity", text: "Expense 42",
      properties: {
        "Expense ID": { type: "String", basicValue: "exp_1" }, "Expense #": { type: "Double", basicValue: 42, numberFormat: "0" },
        Date: { type: "Double", basicValue: 46112, numberFormat: "yyyy-mm-dd" }, Amount: { type: "Double", basicValue: 12000, numberFormat: "#,##0" },
        Currency: { type: "String", basicValue: "CLP" }, Active: { type: "String", basicValue: "Yes" },
        "Created (UTC)": { type: "Double", basicValue: 46112.5, numberFormat: "yyyy-mm-dd hh:mm:ss" }, "Tax rate %": { type: "Double", basicValue: 19, numberFormat: "0.00" },
        Reference: { type: "Double", basicValue: 777 }, Rate: { type: "Double", basicValue: 1.5, numberFormat: "0.00" },
      },
    });
  });

  it("a boolean field is a Boolean property; FormattedNumber where the Excel needs it", () => {
    const spill: Spill = { columns: [{ key: "id", header: "Allowance ID", kind: "id" }, { key: "allowance_number", header: "Allowance #", kind: "integer" }, { key: "ok", header: "OK", kind: "boolean" }], rows: [["al_1", 7, false]] };
    expect(recordEntity("allowance", spill, "formatted-number")).toEqual({
      type: "Entity", text: "Allowance 7",
      properties: { "Allowance ID": { type: "String", basicValue: "al_1" }, "Allowance #": { type: "FormattedNumber", basicValue: 7, numberFormat: "0" }, OK: { type: "Boolean", basicValue: false } },
    });
  });

  it("a card: shown by its last four digits; a record with no number column: by its id", () => {
    const card: Spill = { columns: [{ key: "id", header: "Card ID", kind: "id" }, { key: "last_four_digits", header: "Last four digits", kind: "id" }], rows: [["card_1", "4242"]] };
    expect(recordEntity("card", card, "double").text).toBe("Card 4242");
    const bare: Spill = { columns: [{ key: "id", header: "Expense ID", kind: "id" }], rows: [["exp_9"]] };
    expect(recordEntity("expense", bare, "double").text).toBe("Expense exp_9");
    expect(recordEntity("card", { columns: card.columns.slice(0, 1), rows: [["card_2"]] }, "double").text).toBe("Card card_2");
  });
});
