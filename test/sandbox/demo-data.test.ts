import { generateDemoData } from "../../src/sandbox/demo-data";
import { HOSTILE_DESCRIPTIONS } from "../../src/sandbox/demo-tables";
import { decimalsOf, minorUnits } from "../../src/sheets";
import { Store } from "../../src/sandbox/store";
import { ANCHOR } from "../support/sandbox";

describe("demo data", () => {
  const data = generateDemoData({ seed: 1, scale: 1, anchor: ANCHOR });
  const store = new Store(data);
  const [first, second] = data.enterprises;
  const subs = store.subsidiariesOf(first.id);

  it("is the same for the same seed and different for another", () => {
    expect(generateDemoData({ seed: 1, scale: 1, anchor: ANCHOR })).toEqual(data);
    const other = generateDemoData({ seed: 2, scale: 1, anchor: ANCHOR });
    expect(other.expenses[0].id).not.toBe(data.expenses[0].id);
  });

  it("has what the start-up contract promises at scale 1", () => {
    expect(data.enterprises.length).toBeGreaterThanOrEqual(2);
    expect(second.id).not.toBe(first.id);
    expect(subs.length).toBeGreaterThanOrEqual(2);
    const expenses = store.expensesOf(subs[0].id);
    const allowances = store.allowancesOf(subs[0].id);
    expect(expenses.length).toBeGreaterThanOrEqual(250);
    expect(allowances.length).toBeGreaterThanOrEqual(150);
    for (const state of ["pending", "approved", "accounted", "paid", "rejected"]) {
      expect(allowances.filter((a) => a.state === state).length).toBeGreaterThan(0);
    }
    for (const state of ["draft", "pending", "approved", "accounted", "paid", "rejected"]) {
      expect(expenses.filter((e) => e.state === state).length).toBeGreaterThan(0);
    }
    expect(expenses.filter((e) => e.state === "approved").length).toBeGreaterThanOrEqual(5);
    expect(allowances.filter((a) => a.state === "approved").length).toBeGreaterThanOrEqual(5);
    const cards = store.cardsOf(first.id);
    expect(cards.length).toBeGreaterThanOrEqual(3);
    const movements = store.movementsOf(store.billingPeriodsOf(cards[0].id)[0].id);
    expect(movements.length).toBeGreaterThanOrEqual(120);
    expect(new Set(movements.map((m) => m.type))).toEqual(new Set(["payment", "expense", "associated_fee", "other_fee"]));
    expect(movements.some((m) => m.reconciliation)).toBe(true);
    expect(movements.some((m) => m.type === "expense" && !m.reconciliation)).toBe(true);
  });

  it("is realistic: currencies, tax, dates before the anchor, consistent tracking fields", () => {
    const currencies = new Set(data.expenses.map((e) => e.currency));
    for (const currency of ["CLP", "USD", "EUR", "COP", "KWD", "PEN"]) expect(currencies.has(currency)).toBe(true);
    for (const e of data.expenses) {
      expect(e.date < ANCHOR).toBe(true);
      expect(Math.abs(e.net_amount + e.tax_amount - e.amount)).toBeLessThan(0.02);
      expect(e.paid_id !== null).toBe(e.state === "paid");
      expect(e.accounted_id !== null).toBe(e.state === "paid" || e.state === "accounted");
    }
    expect(store.expensesOf(subs[0].id).slice(3, 3 + HOSTILE_DESCRIPTIONS.length).map((e) => e.description)).toEqual(HOSTILE_DESCRIPTIONS);
  });

  it("has subsidiaries and cards in COP and KWD, whose amounts use the decimals ISO 4217 gives them (2 and 3), as the first enterprise's", () => {
    for (const [currency, decimals] of [["COP", 2], ["KWD", 3]] as const) {
      const sub = subs.find((s) => s.currency === currency)!;
      expect(sub).toBeDefined();
      const own = store.expensesOf(sub.id).filter((e) => e.currency === currency);
      expect(own.length).toBeGreaterThan(10);
      // Figures that need every decimal: a two-decimal (COP: a whole-peso) display would round them.
      expect(own.filter((e) => decimalsOf(e.amount) === decimals).length).toBeGreaterThan(own.length / 2);
      expect(store.allowancesOf(sub.id).length).toBeGreaterThan(5);
      const card = store.cardsOf(first.id).find((c) => c.national_balance_currency === currency)!;
      const movements = store.movementsOf(store.billingPeriodsOf(card.id)[0].id);
      expect(movements.length).toBeGreaterThan(20);
      expect(movements.every((m) => m.amount.currency === currency)).toBe(true);
      expect(movements.some((m) => m.reconciliation)).toBe(true);
    }
  });

  it("no amount is finer than its currency's ISO minor units (the service's rounding), in any record", () => {
    const finer: string[] = [];
    const check = (what: string, amount: number, currency: string) => {
      if (decimalsOf(amount) > (minorUnits(currency) ?? -1)) finer.push(`${what}: ${amount} ${currency}`);
    };
    for (const e of data.expenses) {
      for (const amount of [e.amount, e.net_amount, e.tax_amount]) check(`expense ${e.expense_number}`, amount, e.currency);
      if (e.usd_amount !== null) check(`expense ${e.expense_number}`, e.usd_amount, "USD");
      check(`expense ${e.expense_number}`, e.subsidiary_expense_amount, e.subsidiary_currency);
    }
    for (const a of data.allowances) {
      check(`allowance ${a.allowance_number}`, a.amount.amount, a.amount.currency);
      for (const s of a.allowance_segments) {
        check(`allowance ${a.allowance_number}`, s.amount.amount, s.amount.currency);
        check(`allowance ${a.allowance_number}`, s.converted_amount.amount, s.converted_amount.currency);
      }
      check(`allowance ${a.allowance_number}`, a.converted_amount, a.allowance_segments[0].converted_amount.currency);
    }
    for (const m of data.movements) {
      check(`movement ${m.id}`, m.amount.amount, m.amount.currency);
      if (m.foreign_amount) check(`movement ${m.id}`, m.foreign_amount.amount, m.foreign_amount.currency);
    }
    expect(finer).toEqual([]);
  });

  it("--scale multiplies the counts", () => {
    const big = generateDemoData({ seed: 1, scale: 10, anchor: ANCHOR });
    const bigStore = new Store(big);
    expect(bigStore.expensesOf(big.subsidiaries[0].id).length).toBe(10 * store.expensesOf(subs[0].id).length);
    expect(big.allowances.length).toBe(10 * data.allowances.length);
  });
});

describe("reconciliations", () => {
  it("link only expenses that have a USD amount of their own, for any seed", () => {
    for (let seed = 1; seed <= 8; seed++) {
      const d = generateDemoData({ seed, scale: 1, anchor: ANCHOR });
      const expenses = new Map(d.expenses.map((e) => [e.id, e]));
      const linked = d.movements.filter((m) => m.reconciliation).map((m) => expenses.get(m.reconciliation!.expense_id)!);
      expect(linked.length).toBeGreaterThan(50);
      expect(linked.filter((e) => e.usd_amount === null)).toEqual([]);
    }
  });
});
