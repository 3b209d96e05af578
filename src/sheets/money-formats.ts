/**
 * Amounts as the books show them: each in its currency's ISO 4217 minor units (CLP and JPY none; USD, COP,
 * IDR and HUF two; KWD and IQD three; CLF four), read from ISO's own list as the `currency-codes` package
 * ships it (list one; its publication date is ISO_4217_PUBLISHED). Intl is never asked: its data gives the
 * digits used in cash (COP, IDR, HUF 0, IQD 0), which are not the books' (docs/money.md).
 *
 * Nothing is ever shown rounded away:
 * - an amount with more decimals than its currency has (10.005 USD) shows all of them: its cell's format is
 *   widened to the amount's own decimals, so the sheet shows the figure the service holds and a column's
 *   visible figures add up to its total; the load names it (AmountNotes), since a widened cell alone is easy
 *   to miss;
 * - a code that is not in the list (or no code at all) shows the amount with exactly the decimals it has
 *   (padding would invent precision, fewer would hide some), and the load names the code.
 * A column says where its currency is: another column of the row (`currencyKey`) or a fixed code (`currency`).
 */
import { data as ISO_4217, publishDate } from "currency-codes";
import { NUMBER_FORMATS, type Column } from "./columns";
import type { CellValue } from "./port/workbook";

/**
 * The publication date of the ISO 4217 list the minor units come from (YYYY-MM-DD).
 * @internal iso-4217.test.ts checks the package against the ISO list of this date.
 */
export const ISO_4217_PUBLISHED: string = publishDate;

/**
 * At most this many decimals are shown: Excel keeps 15 significant digits, so more than 15 decimals of an
 * amount are not in the workbook anyway.
 * @internal iso-4217.test.ts checks the cap.
 */
export const MAX_DECIMALS = 15;

/**
 * ISO's minor units by code. ISO writes "N.A." for codes with no minor unit (gold, SDR, test codes), and the
 * package gives them 0: an amount in one with decimals is widened like any other (test/sheets/iso-4217.test.ts
 * checks the package against the ISO list it ships).
 */
const MINOR_UNITS: ReadonlyMap<string, number> = new Map(ISO_4217.map((c) => [c.code, c.digits]));

const POWERS = Array.from({ length: MAX_DECIMALS + 1 }, (_, i) => 10 ** i);
const FORMATS = POWERS.map((_, i) => (i > 0 ? `#,##0.${"0".repeat(i)}` : "#,##0"));

/**
 * The normalised code of a currency cell ("usd " is USD); "" for no code.
 * @internal amount-cells test checks the code's normalisation directly.
 */
export const currencyCode = (code: unknown): string => (typeof code === "string" ? code.trim().toUpperCase() : "");

/** ISO 4217 minor units of a code (case and surrounding spaces ignored); undefined for a code not in the list. */
export function minorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(currencyCode(code));
}

/**
 * Every code of the ISO 4217 list the minor units come from.
 * @internal iso-4217 and amount-cells tests walk every code.
 */
export const isoCurrencyCodes = (): string[] => [...MINOR_UNITS.keys()];

/**
 * The decimals a number has as written (its shortest round-trip form, as JSON gave it): 10.005 → 3,
 * 12 → 0, 1.5e-7 → 8; at most MAX_DECIMALS.
 * @internal iso-4217 and sandbox data tests check decimals as written directly.
 */
export function decimalsOf(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
  const text = String(Math.abs(value));
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Math.min(MAX_DECIMALS, Math.max(0, fraction - exponent));
}

/**
 * Whether `value` has at most `decimals` decimals. Arithmetic, not text (a load asks this of every amount):
 * 12345.67 * 100 may be 1234567.0000000002, but rounding it and dividing back gives exactly the double
 * 12345.67 was read as, while 10.005 comes back as 10.01 or 10, never itself.
 */
function fits(value: number, decimals: number): boolean {
  if (Number.isInteger(value)) return true;
  const f = POWERS[decimals];
  return Math.round(value * f) / f === value;
}

/** The decimals shown for `amount` in a currency of `units` minor units (undefined: not an ISO code). */
function shownDecimals(amount: number, units: number | undefined): number {
  if (units === undefined) return decimalsOf(amount);
  return fits(amount, units) ? units : Math.max(units, decimalsOf(amount));
}

/** Whether `amount` needs more decimals than `units` (the rare case: the text is read only when arithmetic says so). */
const finer = (amount: number, units: number) => !fits(amount, units) && decimalsOf(amount) > units;

/**
 * The format of any amount in an ISO 4217 code ("#,##0" for CLP, "#,##0.000" for KWD); undefined for a code not in the list.
 * @internal load, money and function tests expect each currency's format by it.
 */
export function currencyFormat(code: string): string | undefined {
  const units = minorUnits(code);
  return units === undefined ? undefined : FORMATS[units];
}

/**
 * The decimals `amount` is shown with in `code`: the code's minor units, or the amount's own where it has
 * more (10.005 USD: 3); for a code not in ISO 4217 (or ""), exactly the amount's own.
 */
const amountDecimals = (amount: number, code: string): number => shownDecimals(amount, minorUnits(code));

/**
 * The Excel number format of `amount` in `code` (see amountDecimals).
 * @internal iso-4217.test.ts checks the format per amount and code directly.
 */
export const amountFormat = (amount: number, code: string): string => FORMATS[amountDecimals(amount, code)];

/** An amount as text, by the same rule ("1,234.50" in USD, "12,346" in CLP, "10.005" in USD); the code is not added. */
export function amountText(amount: number, code: string): string {
  const decimals = amountDecimals(amount, code);
  return amount.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

type AmountColumnsOf = readonly Pick<Column<unknown>, "key" | "header" | "kind" | "currency" | "currencyKey">[];

/** An amount column: where it is, and where its currency is (a fixed code, or the column `from`). */
interface AmountColumn {
  at: number;
  header: string;
  fixed: string;
  from: number;
}

function amountColumns(columns: AmountColumnsOf): AmountColumn[] {
  return columns.flatMap((c, i) => {
    if (c.currency) return [{ at: i, header: c.header, fixed: c.currency, from: -1 }];
    const from = c.currencyKey ? columns.findIndex((other) => other.key === c.currencyKey) : -1;
    return from >= 0 ? [{ at: i, header: c.header, fixed: "", from }] : [];
  });
}

/** Minor units by the cell's own text, so that a load normalises each distinct text once, not every cell. */
function unitsByText(): (code: CellValue | undefined) => number | undefined {
  const unitsByCode = new Map<string, number | null>();
  return (code) => {
    if (typeof code !== "string") return undefined;
    let units = unitsByCode.get(code);
    if (units === undefined) {
      units = minorUnits(code) ?? null;
      unitsByCode.set(code, units);
    }
    return units ?? undefined;
  };
}

/**
 * A row's number formats, for layouts with amounts in a currency: each amount column takes its currency's
 * decimals (from the row's currency cell, or its fixed code), widened where the amount has more; the rest
 * keep their kind's format. Undefined when the layout has no such column (every row then has the same formats).
 *
 * Rows with the same formats share one frozen array (a formatter knows a few: an amount's format follows its
 * currency's decimals, 0 to 4, and rarely its own), so 50,000 rows make a handful of arrays, not one per row.
 */
export function rowFormatter(columns: AmountColumnsOf): ((row: CellValue[]) => readonly (string | null)[]) | undefined {
  const base = columns.map((c) => NUMBER_FORMATS[c.kind]);
  const amounts = amountColumns(columns);
  if (amounts.length === 0) return undefined;
  const unitsOf = unitsByText();
  const shared = new Map<string, readonly (string | null)[]>();
  const amountFormats: string[] = new Array(amounts.length);
  return (row) => {
    for (let k = 0; k < amounts.length; k++) {
      const a = amounts[k];
      const units = unitsOf(a.fixed || row[a.from]);
      const value = row[a.at];
      // A cell with no number (empty, or the service's text kept as text) takes its currency's format, so a
      // figure typed into it later shows the right way; with no known currency, its kind's.
      amountFormats[k] = typeof value === "number" ? FORMATS[shownDecimals(value, units)] : units === undefined ? base[a.at] : FORMATS[units];
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

/** What a load has to say about its amounts' decimals (nothing, mostly). */
export interface AmountNotes {
  /** Codes not in ISO 4217 ("" for an amount with no code), with how many amounts each: shown with the decimals they have. */
  unknownCurrencies: { code: string; amounts: number }[];
  /** How many amounts have more decimals than their currency has: shown with all of them (their format widened). */
  finer: number;
  /** The first of those, to name it: the column, the row's first cell (its id), the amount and its currency. */
  firstFiner: { header: string; id: string; amount: number; currency: string; minorUnits: number } | null;
}

/**
 * Goes over rows as they are written and keeps what AmountNotes says. Separate from the formatter, which may
 * be asked about a row more than once (the adapter plans a held row again), so that each row counts once.
 */
export class AmountAudit {
  private readonly amounts: AmountColumn[];
  private readonly unitsOf = unitsByText();
  private readonly unknown = new Map<string, number>();
  private finer = 0;
  private firstFiner: AmountNotes["firstFiner"] = null;

  constructor(columns: AmountColumnsOf) {
    this.amounts = amountColumns(columns);
  }

  check(row: readonly CellValue[]): void {
    for (const a of this.amounts) {
      const value = row[a.at];
      if (typeof value !== "number") continue;
      const code = a.fixed || row[a.from];
      const units = this.unitsOf(code);
      if (units === undefined) {
        const named = currencyCode(code);
        this.unknown.set(named, (this.unknown.get(named) ?? 0) + 1);
      } else if (finer(value, units)) {
        this.finer++;
        this.firstFiner ??= { header: a.header, id: String(row[0] ?? ""), amount: value, currency: currencyCode(code), minorUnits: units };
      }
    }
  }

  notes(): AmountNotes {
    return {
      unknownCurrencies: [...this.unknown].map(([code, amounts]) => ({ code, amounts })).sort((a, b) => a.code.localeCompare(b.code)),
      finer: this.finer,
      firstFiner: this.firstFiner,
    };
  }
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** AmountNotes as sentences for the person who loaded the table; "" when there is nothing to say. */
export function amountNotesText(notes: AmountNotes): string {
  const parts: string[] = [];
  const f = notes.firstFiner;
  if (notes.finer > 0 && f) {
    parts.push(
      `${plural(notes.finer, "amount has", "amounts have")} more decimals than ${notes.finer === 1 ? "its currency has" : "their currency has"}: ` +
        `shown in full, not rounded (${f.header} ${amountText(f.amount, f.currency)} ${f.currency}${f.id ? ` on the row of ${f.id}` : ""}; ` +
        `${f.currency} has ${plural(f.minorUnits, "decimal", "decimals")}).`,
    );
  }
  for (const { code, amounts } of notes.unknownCurrencies) {
    parts.push(code === ""
      ? `${plural(amounts, "amount has", "amounts have")} no currency code: shown with the decimals ${amounts === 1 ? "it has" : "they have"}.`
      : `${code} is not an ISO 4217 currency code (list of ${ISO_4217_PUBLISHED}): its ${plural(amounts, "amount is", "amounts are")} shown with the decimals ${amounts === 1 ? "it has" : "they have"}.`);
  }
  return parts.join(" ");
}
