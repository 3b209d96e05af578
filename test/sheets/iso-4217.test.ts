/**
 * Every ISO 4217 code shows its amounts with exactly its minor units, from ISO's list (the package ships the
 * list itself beside its data, and both are read here), never from Intl, whose data gives cash digits. An
 * amount with more decimals than its currency has is widened, never rounded; a code not in the list shows
 * exactly the decimals its amount has.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  AmountAudit, ISO_4217_PUBLISHED, MAX_DECIMALS, amountFormat, amountNotesText, amountText, currencyFormat, decimalsOf, isoCurrencyCodes,
  minorUnits, rowFormatter, sourceOf, type CellValue, type LoadParams,
} from "../../src/sheets";
import { display } from "../../src/workbench/display";

/** ISO's list one as the package ships it: each code's minor units ("N.A." for none), and its publication date. */
function isoList(): { published: string; units: Map<string, string> } {
  const xml = readFileSync(join(require.resolve("currency-codes"), "..", "iso-4217-list-one.xml"), "utf8");
  const units = new Map<string, string>();
  for (const [, entry] of xml.matchAll(/<CcyNtry>([\s\S]*?)<\/CcyNtry>/g)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry)?.[1];
    const minor = /<CcyMnrUnts>([^<]*)<\/CcyMnrUnts>/.exec(entry)?.[1];
    if (!code) continue; // an entity with no universal currency (Antarctica)
    if (units.has(code)) expect([code, units.get(code)]).toEqual([code, minor]); // a code of several countries agrees with itself
    units.set(code, minor!);
  }
  return { published: /Pblshd="([0-9-]+)"/.exec(xml)![1], units };
}

/** The decimals a format shows: the zeros after its point. */
const decimalsIn = (format: string) => /\.(0+)$/.exec(format)?.[1].length ?? 0;

/** What the grid shows for an amount, and how many decimals that text has. */
const shownDecimals = (text: string) => /\.(\d+)$/.exec(text)?.[1].length ?? 0;

describe("the minor units are ISO's list", () => {
  const iso = isoList();

  it("the package's data is the ISO list it ships: the same codes, each with ISO's minor units (N.A. as 0)", () => {
    expect(ISO_4217_PUBLISHED).toBe(iso.published);
    expect(iso.units.size).toBeGreaterThan(170);
    expect(isoCurrencyCodes().sort()).toEqual([...iso.units.keys()].sort());
    const disagree = [...iso.units].filter(([code, units]) => minorUnits(code) !== (units === "N.A." ? 0 : Number(units)));
    expect(disagree).toEqual([]);
  });

  it("over every code of the list, an amount's format and text show exactly its minor units, in a table row and as text", () => {
    const params: LoadParams = { resource: "expenses", enterpriseId: "e", subsidiaryId: "s" };
    const columns = sourceOf(params).columns;
    const formatsOf = rowFormatter(columns)!;
    const at = (key: string) => columns.findIndex((c) => c.key === key);
    const wrong: string[] = [];
    for (const [code, listed] of iso.units) {
      const units = listed === "N.A." ? 0 : Number(listed);
      // An amount with all of its currency's decimals, one with none, and one with fewer: each shows exactly `units`.
      const amounts = [12345 + Number((0.6789).toFixed(units)), 12345, 12345.5].filter((n) => decimalsOf(n) <= units);
      for (const amount of amounts) {
        const row: CellValue[] = columns.map(() => "");
        row[at("amount")] = amount;
        row[at("currency")] = code;
        const format = formatsOf(row)[at("amount")]!;
        const shown = display(amount, format);
        const seen = [decimalsIn(format), decimalsIn(currencyFormat(code)!), decimalsIn(amountFormat(amount, code)), shownDecimals(shown), shownDecimals(amountText(amount, code))];
        if (seen.some((d) => d !== units)) wrong.push(`${code} ${amount}: ${seen.join("/")} (${shown}), ISO ${units}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("names the ones a browser's Intl gets wrong for the books: COP 2, IDR 2, HUF 2, IQD 3; and KWD 3, CLP 0, JPY 0, CLF 4", () => {
    const named = { COP: 2, IDR: 2, HUF: 2, IQD: 3, KWD: 3, CLP: 0, JPY: 0, CLF: 4 };
    expect(Object.fromEntries(Object.keys(named).map((code) => [code, minorUnits(code)]))).toEqual(named);
    expect(Object.keys(named).map((code) => currencyFormat(code))).toEqual(["#,##0.00", "#,##0.00", "#,##0.00", "#,##0.000", "#,##0.000", "#,##0", "#,##0", "#,##0.0000"]);
    // The figures a user reads: a COP expense keeps its cents, an IQD one its fils.
    expect(display(12345.67, amountFormat(12345.67, "COP"))).toBe("12,345.67");
    expect(display(12345, amountFormat(12345, "COP"))).toBe("12,345.00");
    expect(display(250.5, amountFormat(250.5, "IQD"))).toBe("250.500");
    expect(display(1234.5, amountFormat(1234.5, "CLF"))).toBe("1,234.5000");
    expect(display(12346, amountFormat(12346, "CLP"))).toBe("12,346");
    // Intl would have said otherwise for the first four (its data is the cash digits): the list is not Intl's.
    const intl = (code: string) => new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits;
    expect(["COP", "IDR", "HUF", "IQD"].filter((code) => intl(code) !== minorUnits(code))).toEqual(["COP", "IDR", "HUF", "IQD"]);
  });

  it("a code is read whatever its case and surrounding spaces", () => {
    expect(["kwd", " clp ", "Usd"].map((code) => minorUnits(code))).toEqual([3, 0, 2]);
    expect(amountFormat(1.5, " kwd")).toBe("#,##0.000");
  });
});

describe("no amount is shown rounded away", () => {
  it("an amount with more decimals than its currency has is widened to its own: 10.005 USD shows 10.005, never 10.01", () => {
    expect(amountFormat(10.005, "USD")).toBe("#,##0.000");
    expect(display(10.005, amountFormat(10.005, "USD"))).toBe("10.005");
    expect(amountText(10.005, "USD")).toBe("10.005");
    expect(display(1234.5, amountFormat(1234.5, "CLP"))).toBe("1,234.5");
    expect(display(0.0001, amountFormat(0.0001, "KWD"))).toBe("0.0001");
    // The arithmetic check is not fooled by binary fractions (0.29 * 100 is 28.999999999999996): these have
    // exactly their currency's decimals, and 1.005 (100.49999999999999 cents) has one more.
    expect(amountFormat(1.005, "USD")).toBe("#,##0.000");
    for (const [amount, code] of [[12345.67, "COP"], [0.29, "USD"], [1418804.12, "COP"], [169.814, "KWD"], [-2.35, "EUR"], [123456789012.34, "USD"]] as const) {
      expect([amount, amountFormat(amount, code)]).toEqual([amount, currencyFormat(code)]);
    }
  });

  it("a code not in ISO 4217, or none, shows exactly the decimals the amount has", () => {
    expect(["XYZ", "", "BTC", "HRK"].map((code) => minorUnits(code))).toEqual([undefined, undefined, undefined, undefined]);
    expect(currencyFormat("XYZ")).toBeUndefined();
    expect([12, 12.5, 0.125, 1.23456789].map((n) => display(n, amountFormat(n, "XYZ")))).toEqual(["12", "12.5", "0.125", "1.23456789"]);
    expect(display(1234.56, amountFormat(1234.56, ""))).toBe("1,234.56");
  });

  it("decimalsOf reads the number as JSON gave it, exponent forms too, up to Excel's 15 digits", () => {
    expect([0, 12, -3, 10.005, 0.1, 1.5e-7, 1e-7, 123456.7, 1e21, -0.25].map(decimalsOf)).toEqual([0, 0, 0, 3, 1, 8, 7, 1, 0, 2]);
    expect(decimalsOf(1e-30)).toBe(MAX_DECIMALS);
    expect(decimalsOf(0.1 + 0.2)).toBe(MAX_DECIMALS); // 0.30000000000000004: shown to 15 decimals, and named below
  });
});

describe("AmountAudit and its note: what the load says about amounts", () => {
  const columns = sourceOf({ resource: "expenses", enterpriseId: "e", subsidiaryId: "s" }).columns;
  const at = (key: string) => columns.findIndex((c) => c.key === key);
  const row = (id: string, amount: number | string, currency: string, usd: number | string = ""): CellValue[] => {
    const cells: CellValue[] = columns.map(() => "");
    cells[at("id")] = id;
    cells[at("amount")] = amount;
    cells[at("currency")] = currency;
    cells[at("usd_amount")] = usd;
    return cells;
  };

  it("counts amounts finer than their currency and names the first; counts codes not in the list; says nothing otherwise", () => {
    const audit = new AmountAudit(columns);
    for (const r of [row("a", 12345.67, "COP"), row("b", 10.5, "USD", 10.5), row("c", "", "XYZ"), row("d", "n/a", "XYZ")]) audit.check(r);
    expect(audit.notes()).toEqual({ unknownCurrencies: [], finer: 0, firstFiner: null });
    expect(amountNotesText(audit.notes())).toBe("");

    for (const r of [row("e-1", 10.005, "USD"), row("e-2", 1.5, "CLP", 0.0016), row("e-3", 12.5, "XYZ"), row("e-4", 3, "xyz "), row("e-5", 4.25, "")]) audit.check(r);
    const notes = audit.notes();
    expect(notes).toEqual({
      unknownCurrencies: [{ code: "", amounts: 1 }, { code: "XYZ", amounts: 2 }],
      finer: 3, // 10.005 USD, 1.5 CLP, and the USD amount 0.0016
      firstFiner: { header: "Amount", id: "e-1", amount: 10.005, currency: "USD", minorUnits: 2 },
    });
    expect(amountNotesText(notes)).toBe(
      "3 amounts have more decimals than their currency has: shown in full, not rounded (Amount 10.005 USD on the row of e-1; USD has 2 decimals). " +
      "1 amount has no currency code: shown with the decimals it has. " +
      `XYZ is not an ISO 4217 currency code (list of ${ISO_4217_PUBLISHED}): its 2 amounts are shown with the decimals they have.`,
    );
  });
});
