/**
 * The matching rules, one by one, on small hand-made tables and lines: a reference first, else person + amount in
 * minor units + date window; only a unique match fills; a line fills one record (but one payment of several
 * allowances of one person summing exactly); a record holding another value is a conflict; reversals pay nothing.
 */
import { matchLines, personKey, type ImportLine, type ImportRecord, type LineProblem, type MatchOptions } from "../../../src/domain/import";
import { dayNumber } from "../../../src/domain/import/dates";

const ANA = [personKey("Ana Pérez"), personKey("ana.perez@example.com")];
const LUIS = [personKey("Luis Soto")];
let rows = 0;
function rec(number: number, over: Partial<ImportRecord> = {}): ImportRecord {
  return {
    row: rows++, id: `id-${number}`, label: `Expense ${number}`, number: String(number), persons: ANA, minor: 12050, currency: "USD",
    from: dayNumber("2026-10-01"), to: dayNumber("2026-10-01"), state: "approved", accounted_id: "", paid_id: "", paid_at: "", ...over,
  };
}
const alw = (number: number, over: Partial<ImportRecord> = {}) => rec(number, { label: `Allowance ${number}`, ...over });
function line(n: number, over: Partial<ImportLine> = {}): ImportLine {
  return { line: n, reference: "", amount: { units: 12050, scale: 2 }, currency: "USD", day: "2026-10-10", person: "PEREZ, ANA", value: `PAY-${n}`, ...over };
}
const OPTIONS: MatchOptions = { kind: "bank", records: "expense", fileName: "bank file", window: { before: 30, after: 60 }, decimals: (c) => (c === "CLP" ? 0 : 2) };
const match = (records: ImportRecord[], lines: ImportLine[], o: Partial<MatchOptions> = {}, unreadable: LineProblem[] = []) =>
  matchLines(records, { lines, unreadable }, { ...OPTIONS, ...o });
const outcome = (r: ReturnType<typeof match>, n: number) => r.outcomes.find((o) => o.line === n)!;

describe("a reference is matched first", () => {
  it("a line naming EXP-7 fills Expense 7, though another record of the person holds the same amount", () => {
    const records = [rec(7), rec(8)];
    const r = match(records, [line(2, { reference: "Reembolso EXP-000007" })]);
    expect(r.fills.map((f) => [f.id, f.values, f.source])).toEqual([["id-7", { state: "paid", paid_id: "PAY-2", paid_at: "2026-10-10T00:00:00Z" }, "bank file line 2"]]);
    expect(outcome(r, 2).why).toBe("Expense 7, by its reference");
  });

  it("a record's id names it too, in any case; a reference to a record this table does not hold fills nothing, and says so", () => {
    const records = [rec(7, { id: "0b6c0f7e-1d2a-4c3b-9e8f-123456789abc" }), rec(8, { persons: LUIS, minor: 999 })];
    const r = match(records, [line(2, { reference: "0B6C0F7E-1D2A-4C3B-9E8F-123456789ABC" }), line(3, { reference: "EXP-2044", person: "Luis Soto", amount: { units: 999, scale: 2 } })]);
    expect(r.fills.map((f) => f.id)).toEqual(["0b6c0f7e-1d2a-4c3b-9e8f-123456789abc"]);
    expect(outcome(r, 3)).toMatchObject({ kind: "unmatched", why: expect.stringContaining("EXP-2044, which this table does not hold") });
  });

  it("a reference whose amount differs by rounding (one minor unit) fills; by more, it fills nothing and says both amounts", () => {
    const r = match([rec(7), rec(9, { minor: 5000 })], [line(2, { reference: "EXP-7", amount: { units: 12051, scale: 2 } }), line(3, { reference: "EXP-9", amount: { units: 5500, scale: 2 } })]);
    expect(outcome(r, 2)).toMatchObject({ kind: "filled", why: "Expense 7, by its reference (the amount differs by 0.01: rounding)" });
    expect(outcome(r, 3)).toMatchObject({ kind: "unmatched", why: "it refers to Expense 9, of 50.00, not 55.00" });
  });

  it("a reference to a record of another person fills nothing", () => {
    const r = match([rec(7)], [line(2, { reference: "EXP-7", person: "Luis Soto" })]);
    expect(r.fills).toEqual([]);
    expect(outcome(r, 2)).toMatchObject({ kind: "unmatched", why: "it refers to Expense 7, whose person is not Luis Soto" });
  });
});

describe("else by person, amount in minor units and date window", () => {
  it("fills the one record of the person with that exact amount within the window, the person written any way", () => {
    for (const person of ["PEREZ, ANA", "Ana Perez", "ana.perez@example.com", "ANA  PÉREZ"]) {
      expect(match([rec(7)], [line(2, { person })]).fills.map((f) => f.id)).toEqual(["id-7"]);
    }
  });

  it("compares minor units, not floats: 0.1 + 0.2 of a record is the file's 0.30; 120.51 is not 120.50", () => {
    const r = match([rec(7, { minor: 30 }), rec(8)], [line(2, { amount: { units: 30, scale: 2 } }), line(3, { amount: { units: 12051, scale: 2 } })]);
    expect(outcome(r, 2).kind).toBe("filled");
    expect(outcome(r, 3)).toMatchObject({ kind: "unmatched", why: "no record of PEREZ, ANA holds this amount within 30 days before to 60 days after its dates" });
  });

  it("a payment outside the window, or in another currency, fills nothing", () => {
    const r = match([rec(7)], [line(2, { day: "2026-12-01" }), line(3, { currency: "EUR" })]);
    expect(r.fills).toEqual([]);
    expect([outcome(r, 2).kind, outcome(r, 3).kind]).toEqual(["unmatched", "unmatched"]);
    expect(match([rec(7)], [line(2, { day: "2026-11-30" })]).fills).toHaveLength(1); // the window's last day
  });
});

describe("only a unique match fills", () => {
  it("two records of the person with the amount in the window: the line is listed as ambiguous, naming both, and fills neither", () => {
    const r = match([rec(7), rec(8)], [line(2)]);
    expect(r.fills).toEqual([]);
    expect(outcome(r, 2)).toEqual({ line: 2, kind: "ambiguous", ids: ["id-7", "id-8"], why: "2 choices of PEREZ, ANA's records hold this amount within the dates: Expense 7; Expense 8" });
  });
});

describe("a line never fills two records", () => {
  it("two lines claiming one record fill it from neither: both listed as ambiguous", () => {
    const r = match([rec(7)], [line(2, { reference: "EXP-7" }), line(3, { reference: "EXP-7", value: "PAY-3" })]);
    expect(r.fills).toEqual([]);
    expect(outcome(r, 2)).toMatchObject({ kind: "ambiguous", why: "Expense 7 is also matched by line 3: a record is filled from one line only" });
    expect(outcome(r, 3).kind).toBe("ambiguous");
  });

  it("a reference claims its record before any line matched by person: that line may not take it", () => {
    const r = match([rec(7)], [line(2), line(3, { reference: "EXP-7", value: "PAY-3" })]);
    expect(r.fills.map((f) => [f.id, f.line])).toEqual([["id-7", 3]]);
    expect(outcome(r, 2).kind).toBe("unmatched");
  });

  it("but one payment of three allowances of one person, summing exactly, fills the three (by references or by the sum alone)", () => {
    const allowances = [alw(1, { minor: 10000 }), alw(2, { minor: 15000 }), alw(3, { minor: 5025 }), alw(4, { persons: LUIS, minor: 10000 })];
    const sum = { units: 30025, scale: 2 };
    for (const reference of ["ALW-1 ALW-2 ALW-3", "Viaticos octubre"]) {
      const r = match(allowances, [line(2, { amount: sum, reference })], { records: "allowance" });
      expect(r.fills.map((f) => [f.id, f.values.paid_id])).toEqual([["id-1", "PAY-2"], ["id-2", "PAY-2"], ["id-3", "PAY-2"]]);
    }
    const off = match(allowances, [line(2, { amount: { units: 30024, scale: 2 }, reference: "ALW-1 ALW-2 ALW-3" }), line(3, { amount: { units: 30024, scale: 2 } })], { records: "allowance" });
    expect(off.fills).toEqual([]);
    expect(outcome(off, 2)).toMatchObject({ kind: "ambiguous", why: "it refers to Allowance 1, Allowance 2, Allowance 3, whose amounts sum to 300.25, not 300.24" });
    // Expenses are never summed: only allowances are paid together.
    expect(match(allowances, [line(2, { amount: sum })]).fills).toEqual([]);
  });

  it("two sets of the person's allowances summing to the payment: ambiguous, nothing filled", () => {
    const allowances = [alw(1, { minor: 100 }), alw(2, { minor: 100 }), alw(3, { minor: 200 })];
    const r = match(allowances, [line(2, { amount: { units: 200, scale: 2 } })], { records: "allowance" });
    expect(r.fills).toEqual([]);
    expect(outcome(r, 2).kind).toBe("ambiguous");
  });
});

describe("a record already holding a different value is a conflict, not overwritten", () => {
  it("another Paid ID, paid without one, or not approved: listed as a conflict with why, nothing filled", () => {
    const r = match([rec(7, { state: "paid", paid_id: "PAY-OLD" }), rec(8, { state: "paid" }), rec(9, { state: "pending" })],
      [line(2, { reference: "EXP-7" }), line(3, { reference: "EXP-8" }), line(4, { reference: "EXP-9" })]);
    expect(r.fills).toEqual([]);
    expect(r.outcomes.map((o) => [o.kind, o.why])).toEqual([
      ["conflict", "Expense 7 already holds Paid ID PAY-OLD: not overwritten"],
      ["conflict", "Expense 8 is already paid (without a Paid ID): not overwritten"],
      ["conflict", "Expense 9 is pending: only approved or accounted records can be paid: not overwritten"],
    ]);
  });

  it("the same value already held is no conflict and no fill; an ERP's Accounted ID follows the same rule", () => {
    expect(match([rec(7, { state: "paid", paid_id: "PAY-2" })], [line(2, { reference: "EXP-7" })]).outcomes[0].kind).toBe("already");
    const erp = match([rec(7, { state: "accounted", accounted_id: "JE-1" }), rec(8)], [line(2, { reference: "EXP-7", value: "JE-9" }), line(3, { reference: "EXP-8", value: "JE-3" })], { kind: "erp" });
    expect(erp.outcomes.map((o) => o.kind)).toEqual(["conflict", "filled"]);
    expect(erp.fills[0].values).toEqual({ state: "accounted", accounted_id: "JE-3" });
  });
});

describe("lines that pay nothing are listed with why", () => {
  it("a payment and its reversal (same payment id, opposite amount) fill nothing; a lone negative line neither", () => {
    const r = match([rec(7), rec(8, { minor: 777 })], [line(2, { reference: "EXP-7" }), line(3, { reference: "EXP-7", amount: { units: -12050, scale: 2 }, value: "PAY-2" }), line(4, { amount: { units: -777, scale: 2 } })]);
    expect(r.fills).toEqual([]);
    expect(r.outcomes.map((o) => o.why)).toEqual([
      "payment PAY-2 was reversed by line 3",
      "it reverses line 2 (payment PAY-2): neither pays anything",
      "its amount is negative (a reversal or a refund): it pays nothing",
    ]);
  });

  it("unreadable lines are listed in line order among the others", () => {
    const r = match([rec(7)], [line(3, { reference: "EXP-7" })], {}, [{ line: 2, why: 'Amount "abc" is not an amount written with a decimal point' }]);
    expect(r.outcomes.map((o) => [o.line, o.kind])).toEqual([[2, "unreadable"], [3, "filled"]]);
    expect(r.counts).toMatchObject({ filled: 1, unreadable: 1 });
  });
});
