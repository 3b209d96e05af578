/**
 * What a request costs is counted without building it (excel/cells.ts), and formats are shared between rows
 * (money-formats.ts): the counts must be the bytes Office.js would send, the shared rows the formats each
 * row would have had on its own.
 */
import { NUMBER_FORMATS, rowFormatter, sourceOf, type CellValue, type LoadParams } from "../../src/sheets";
import { CELL_TEXT_LIMIT, jsonStringBytes, typedBytes, typedCell } from "../../src/sheets/port/cells";

const utf8 = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("jsonStringBytes: the UTF-8 bytes of a JSON-quoted text", () => {
  const ascii = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));
  const texts = [
    "", "plain text", "EXP-00042", "2026-11-24 10:30 UTC",
    ...ascii, // every ASCII character alone: printable ones take 1 byte, a quote, a backslash and controls are escaped
    ...ascii.map((c) => `abc${c}def`), // and inside plain text, where the fast path must not take them for plain
    "Café", "€ 12", "日本語", "😀 receipt", "a\u2028b", "\ud83d", "x\udc00y", "\ud83d\ud83d\ude00",
    // Each edge of UTF-8's widths and of the surrogate halves, alone, paired, and next to each other.
    ...["\u007f", "\u0080", "\u07ff", "\u0800", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\uffff"].flatMap((c) => [c, `a${c}`, `${c}a`]),
    "\ud800\udc00", "\udbff\udfff", "\ud800\udbff", "\udbff\ue000", "\ud800\ud7ff", "\udc00\ud800", "\udfff\udc00", "a\ud800\udfffb",
    "\ud7ff\udc00", "中\udc00", // a character just under the high halves, before a low half: no pair
  ];
  it("counts what JSON.stringify and UTF-8 make of every ASCII character, alone and inside text, and of non-ASCII text", () => {
    const wrong = texts.filter((text) => jsonStringBytes(text) !== utf8(text)).map((text) => JSON.stringify(text));
    expect(wrong).toEqual([]);
    expect(texts.length).toBeGreaterThan(256);
  });
});

describe("typedCell and typedBytes", () => {
  it("a text cell costs exactly its JSON plus a comma; a number or a boolean at most its allowance", () => {
    for (const value of ["x", "Café \"quoted\" \\ path", "=1+1", "😀".repeat(10)] as CellValue[]) {
      expect(typedBytes(value)).toBe(utf8(typedCell(value)) + 1);
    }
    for (const value of [0, -1.5e-300, Number.MAX_VALUE, 123456789.123456, true, false, ""] as CellValue[]) {
      expect(typedBytes(value)).toBeGreaterThanOrEqual(utf8(typedCell(value)) + 1);
    }
    const long = "é".repeat(CELL_TEXT_LIMIT + 10);
    expect(typedBytes(long)).toBe(utf8(typedCell(long)) + 1);
  });

  it("empty and boolean cells are shared frozen values that still say what they are", () => {
    expect(typedCell("")).toEqual({ type: "Empty", basicValue: "" });
    expect(typedCell(true)).toEqual({ type: "Boolean", basicValue: true });
    expect(typedCell(false)).toEqual({ type: "Boolean", basicValue: false });
    expect(typedCell("")).toBe(typedCell(""));
    expect(typedCell(true)).not.toBe(typedCell(false));
    for (const value of ["", true, false] as CellValue[]) expect(Object.isFrozen(typedCell(value))).toBe(true);
    // A text or a number is never shared: each is its own value.
    expect(typedCell("a")).toEqual({ type: "String", basicValue: "a" });
    expect(typedCell(2)).toEqual({ type: "Double", basicValue: 2 });
    expect(typedCell("a")).not.toBe(typedCell("a"));
    expect(typedCell(2)).not.toBe(typedCell(2));
  });
});

describe("rowFormatter shares one frozen row of formats between rows whose formats are the same", () => {
  const params: LoadParams = { resource: "expenses", enterpriseId: "e", subsidiaryId: "s" };
  const columns = sourceOf(params).columns;
  const formatsOf = rowFormatter(columns)!;
  const at = (key: string) => columns.findIndex((c) => c.key === key);
  const rowIn = (currency: string, subsidiaryCurrency: string): CellValue[] => {
    const row: CellValue[] = columns.map(() => "");
    row[at("currency")] = currency;
    row[at("subsidiary_currency")] = subsidiaryCurrency;
    return row;
  };
  /** The formats of a row worked out on their own, as the formatter did before it shared them. */
  const expected = (currency: string, subsidiaryCurrency: string) => columns.map((c) => {
    const code = c.currency ?? (c.currencyKey === "currency" ? currency : c.currencyKey === "subsidiary_currency" ? subsidiaryCurrency : null);
    if (code === null) return NUMBER_FORMATS[c.kind];
    if (!/^[A-Za-z]{3}$/.test(code.trim())) return NUMBER_FORMATS[c.kind];
    const decimals = { USD: 2, EUR: 2, CLP: 0, JPY: 0, KWD: 3, usd: 2, " clp ": 0 }[code] ?? 2;
    return decimals > 0 ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
  });

  it("each row gets its own currencies' decimals, whatever row came before", () => {
    const pairs: [string, string][] = [["USD", "CLP"], ["CLP", "USD"], ["JPY", "JPY"], ["KWD", "EUR"], ["usd", " clp "], ["", "USD"], ["US", "1$X"], ["USD", "CLP"]];
    for (const [currency, sub] of pairs) expect([...formatsOf(rowIn(currency, sub))]).toEqual(expected(currency, sub));
  });

  it("an amount finer than its currency gets a row of its own, widened; the next rows of that currency are as before", () => {
    const withAmount = (amount: number, currency: string) => {
      const row = rowIn(currency, "CLP");
      row[at("amount")] = amount;
      return row;
    };
    const usual = formatsOf(withAmount(10.5, "USD"));
    const finer = formatsOf(withAmount(10.005, "USD"));
    expect([usual[at("amount")], finer[at("amount")]]).toEqual(["#,##0.00", "#,##0.000"]);
    expect(finer).not.toBe(usual);
    expect(formatsOf(withAmount(7, "USD"))).toBe(usual);
    expect(formatsOf(withAmount(10.125, "USD"))).toBe(finer); // another with three decimals shares it
  });

  it("rows with the same decimals share an array (USD and EUR alike), others do not, and none can be changed", () => {
    const usd = formatsOf(rowIn("USD", "CLP"));
    expect(formatsOf(rowIn("EUR", "JPY"))).toBe(usd);
    expect(formatsOf(rowIn("USD", "USD"))).not.toBe(usd);
    expect(Object.isFrozen(usd)).toBe(true);
    expect(() => ((usd as (string | null)[])[0] = "General")).toThrow(TypeError);
  });
});
