import { generateDemoData, HOSTILE_DESCRIPTIONS } from "../../src/sandbox/demo-data";
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
    for (const currency of ["CLP", "USD", "EUR"]) expect(currencies.has(currency)).toBe(true);
    for (const e of data.expenses) {
      expect(e.date < ANCHOR).toBe(true);
      expect(Math.abs(e.net_amount + e.tax_amount - e.amount)).toBeLessThan(0.02);
      expect(e.paid_id !== null).toBe(e.state === "paid");
      expect(e.accounted_id !== null).toBe(e.state === "paid" || e.state === "accounted");
    }
    expect(store.expensesOf(subs[0].id).slice(3, 3 + HOSTILE_DESCRIPTIONS.length).map((e) => e.description)).toEqual(HOSTILE_DESCRIPTIONS);
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
