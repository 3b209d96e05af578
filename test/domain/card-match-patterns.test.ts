/** The card-close matcher, one hard pattern at a time: what a person closing the card would see for each. */
import { matchCard, type CardExpense, type CardMovement, type MatchInput } from "../../src/domain/card-match";

const HOLDER = "holder";
const DEC: Record<string, number> = { CLP: 0, USD: 2, EUR: 2, KWD: 3 };

let n = 0;
function mv(over: Partial<CardMovement>): CardMovement {
  return {
    id: `m${++n}`, amount: 10000, currency: "CLP", foreign: null, date: "2026-10-10", description: "STARBUCKS COSTANERA",
    type: "expense", deposit: false, installment: { current: 1, total: 1 }, reconciledExpenseId: null, ...over,
  };
}
function ex(over: Partial<CardExpense>): CardExpense {
  return {
    id: `e${++n}`, userId: HOLDER, amount: 10000, currency: "CLP", converted: null, date: "2026-10-10", provider: "Starbucks",
    description: "Coffee with supplier", paymentMethod: "corporate_card", category: "Meals", active: true, ...over,
  };
}
function run(movements: CardMovement[], expenses: CardExpense[]) {
  const input: MatchInput = { holderId: HOLDER, periodStart: "2026-10-01", periodEnd: "2026-10-31", movements, expenses, decimals: (c) => DEC[c] ?? 2 };
  const result = matchCard(input);
  return { ...result, of: (m: CardMovement) => result.outcomes.find((o) => o.movementId === m.id)! };
}

describe("posting 0-7 days after the expense", () => {
  it("proposes the expense posted 7 days later, and none 8 days later", () => {
    const late = mv({ date: "2026-10-17" });
    const tooLate = mv({ date: "2026-10-18", amount: 20000 });
    const r = run([late, tooLate], [ex({}), ex({ amount: 20000 })]);
    expect(r.of(late)).toMatchObject({ kind: "proposed", reasons: expect.arrayContaining(["posted 7 days after the expense"]) });
    expect(r.of(tooLate).kind).toBe("none");
    expect(r.of(tooLate).reasons[0]).toMatch(/No expense of the cardholder for this amount/);
  });

  it("prefers the expense of the same day and merchant over another of the same amount a week earlier", () => {
    const m = mv({});
    const right = ex({});
    const r = run([m], [ex({ date: "2026-10-03", provider: "Copec", description: "Fuel" }), right]);
    expect(r.of(m)).toMatchObject({ kind: "proposed", expenseIds: [right.id], confidence: "High" });
  });
});

describe("foreign purchases", () => {
  it("match on the foreign amount as filed, the card's rate 3% off the service's conversion named", () => {
    const e = ex({ amount: 120.5, currency: "USD", converted: 114475, provider: "Hilton Garden Inn", description: "Hotel" });
    const m = mv({ amount: 117909, foreign: { amount: 120.5, currency: "USD" }, description: "HILTON GARDEN INN MIAMI" });
    const r = run([m], [e]);
    expect(r.of(m)).toMatchObject({ kind: "proposed", expenseIds: [e.id] });
    expect(r.of(m).reasons).toEqual(expect.arrayContaining(["foreign amount 120.5 USD as filed", "card rate +3% from the service's conversion"]));
  });

  it("within 5% of the foreign amount only with a shared word; 6% off is no match", () => {
    const e = ex({ amount: 100, currency: "USD", converted: 95000, provider: "Iberia" });
    const near = mv({ amount: 99000, foreign: { amount: 104, currency: "USD" }, description: "IBERIA.COM MADRID" });
    expect(run([near], [e]).of(near)).toMatchObject({ kind: "proposed", confidence: expect.any(String) });
    const unnamed = mv({ amount: 99000, foreign: { amount: 104, currency: "USD" }, description: "WEB PURCHASE" });
    expect(run([unnamed], [e]).of(unnamed).kind).toBe("none");
    const far = mv({ amount: 99000, foreign: { amount: 106, currency: "USD" }, description: "IBERIA.COM MADRID" });
    expect(run([far], [e]).of(far).kind).toBe("none");
  });
});

describe("tips", () => {
  it("a meal charged 15% above its receipt is proposed with the tip named; fuel 15% above is not", () => {
    const meal = ex({ amount: 40000, provider: "Restaurant Liguria" });
    const m = mv({ amount: 46000, description: "LIGURIA PROVIDENCIA", date: "2026-10-11" });
    expect(run([m], [meal]).of(m)).toMatchObject({ kind: "proposed", expenseIds: [meal.id], reasons: expect.arrayContaining(["+15% above the receipt (a tip)"]) });
    const fuel = ex({ amount: 40000, provider: "Copec", category: "Fuel" });
    const f = mv({ amount: 46000, description: "COPEC APP 4471" });
    expect(run([f], [fuel]).of(f).kind).toBe("none");
  });

  it("a charge below the receipt, or 30% above it, is no tip", () => {
    const meal = ex({ amount: 40000, provider: "Restaurant Liguria" });
    for (const amount of [39000, 52000]) {
      const m = mv({ amount, description: "LIGURIA PROVIDENCIA" });
      expect(run([m], [meal]).of(m).kind).toBe("none");
    }
  });
});

describe("two charges of the same amount in one period", () => {
  it("are both ambiguous, each listing both expenses, and neither expense is chased as uncharged", () => {
    const [m1, m2] = [mv({}), mv({})];
    const [e1, e2] = [ex({}), ex({})];
    const r = run([m1, m2], [e1, e2]);
    for (const m of [m1, m2]) {
      expect(r.of(m)).toMatchObject({ kind: "ambiguous", expenseIds: [] });
      expect(r.of(m).alternatives.flat().sort()).toEqual([e1.id, e2.id].sort());
      expect(r.of(m).reasons[0]).toMatch(/fit alike.*none chosen/);
    }
    expect(r.uncharged).toEqual([]);
  });

  it("one charge and two expenses alike: ambiguous, never the first one", () => {
    const m = mv({});
    const r = run([m], [ex({}), ex({ date: "2026-10-09" })]);
    expect(r.of(m).kind).toBe("ambiguous");
    expect(r.of(m).alternatives).toHaveLength(2);
  });

  it("one expense wanted alike by two charges: both ambiguous", () => {
    const [m1, m2] = [mv({}), mv({})];
    const r = run([m1, m2], [ex({})]);
    expect([r.of(m1).kind, r.of(m2).kind]).toEqual(["ambiguous", "ambiguous"]);
    expect(r.of(m1).reasons[0]).toMatch(/other movement.*alike/);
  });
});

describe("one charge split over several expenses", () => {
  it("is proposed as the exact sum of the room and the dinner", () => {
    const room = ex({ amount: 180000, provider: "Hotel Plaza San Francisco", description: "Hotel, 2 nights", category: "Lodging" });
    const dinner = ex({ amount: 42500, provider: "Hotel Plaza San Francisco", description: "Hotel restaurant" });
    const m = mv({ amount: 222500, description: "HOTEL PLAZA SAN FRANCISCO" });
    const r = run([m], [room, dinner, ex({ amount: 30000, provider: "Hotel Plaza San Francisco" })]);
    expect(r.of(m)).toMatchObject({ kind: "split", reasons: expect.arrayContaining(["the exact sum of 2 expenses"]) });
    expect([...r.of(m).expenseIds].sort()).toEqual([room.id, dinner.id].sort());
  });

  it("two sets adding up alike are ambiguous; a sum one peso off is none", () => {
    const hotel = { provider: "NH Collection" };
    const m = mv({ amount: 100000, description: "NH COLLECTION PLAZA" });
    const r = run([m], [ex({ ...hotel, amount: 60000 }), ex({ ...hotel, amount: 40000 }), ex({ ...hotel, amount: 70000 }), ex({ ...hotel, amount: 30000 })]);
    expect(r.of(m)).toMatchObject({ kind: "ambiguous" });
    expect(r.of(m).alternatives).toHaveLength(2);
    const off = mv({ amount: 100001, description: "NH COLLECTION PLAZA" });
    expect(run([off], [ex({ ...hotel, amount: 60000 }), ex({ ...hotel, amount: 40000 })]).of(off).kind).toBe("none");
  });
});

describe("refunds", () => {
  it("a deposit is traced to the purchase it gives back, which its own charge keeps", () => {
    const bought = ex({ amount: 55000, provider: "Sodimac", date: "2026-10-02" });
    const charge = mv({ amount: 55000, description: "SODIMAC HOMECENTER", date: "2026-10-03" });
    const refund = mv({ amount: 55000, description: "REFUND SODIMAC HOMECENTER", date: "2026-10-20", deposit: true });
    const r = run([charge, refund], [bought]);
    expect(r.of(charge)).toMatchObject({ kind: "proposed", expenseIds: [bought.id] });
    expect(r.of(refund)).toMatchObject({ kind: "refund", expenseIds: [bought.id], reasons: expect.arrayContaining(["gives back the purchase of 2026-10-02"]) });
  });

  it("a refund with no purchase of its amount says so", () => {
    const refund = mv({ amount: 55000, deposit: true });
    expect(run([refund], []).of(refund)).toMatchObject({ kind: "none", reasons: [expect.stringMatching(/^A refund, but/)] });
  });
});

describe("fees, payments and the service's own links", () => {
  it("explains fees and payments with no expense, and keeps the service's link", () => {
    const fee = mv({ type: "associated_fee", description: "INTEREST CHARGE" });
    const other = mv({ type: "other_fee", description: "FOREIGN TRANSACTION FEE" });
    const pay = mv({ type: "payment", deposit: true, description: "PAYMENT - THANK YOU", amount: 500000 });
    const linked = ex({});
    const service = mv({ reconciledExpenseId: linked.id });
    const r = run([fee, other, pay, service, mv({})], [linked, ex({ amount: 1 })]);
    expect(r.of(fee)).toMatchObject({ kind: "fee", expenseIds: [], reasons: ["a bank fee (associated fee): no expense is filed for it"] });
    expect(r.of(other).kind).toBe("fee");
    expect(r.of(pay).kind).toBe("payment");
    expect(r.of(service)).toMatchObject({ kind: "service", expenseIds: [linked.id] });
    // The last charge is for the same amount: the service's expense is not proposed for it again.
    expect(r.outcomes[4]).toMatchObject({ kind: "none", reasons: ["Its candidates match other movements better."] });
  });
});

describe("installments", () => {
  it("installment 2 of 6 is matched to the purchase six times its amount, dated on the purchase", () => {
    const chair = ex({ amount: 540000, provider: "Office Depot", date: "2026-09-08", category: "Office supplies" });
    const m = mv({ amount: 90000, installment: { current: 2, total: 6 }, date: "2026-09-08", description: "OFFICE DEPOT CUOTAS" });
    const r = run([m], [chair, ex({ amount: 90000, provider: "Office Depot", date: "2026-09-08" })]);
    expect(r.of(m)).toMatchObject({ kind: "proposed", expenseIds: [chair.id], reasons: expect.arrayContaining(["installment 2 of 6 of 540000 CLP"]) });
  });
});

describe("whose expenses count, and what is chased", () => {
  it("a colleague's expense of the same amount is never proposed; a rejected one neither", () => {
    const m = mv({});
    const r = run([m], [ex({ userId: "colleague" }), ex({ active: false })]);
    expect(r.of(m).kind).toBe("none");
  });

  it("lists the holder's card expenses of the period that no charge accounts for, not those paid otherwise", () => {
    const never = ex({ amount: 7777, date: "2026-10-05" });
    const early = ex({ amount: 8888, date: "2026-09-20" });
    const cash = ex({ amount: 9999, paymentMethod: "cash" });
    const m = mv({});
    const r = run([m], [ex({}), never, early, cash]);
    expect(r.of(m).kind).toBe("proposed");
    expect(r.uncharged).toEqual([never.id]);
  });

  it("a cash expense of the exact amount is proposed with that said, never by a tolerant rule", () => {
    const m = mv({});
    const cash = ex({ paymentMethod: "personal_card" });
    expect(run([m], [cash]).of(m)).toMatchObject({ kind: "proposed", reasons: expect.arrayContaining(["filed as paid by personal card"]) });
    const tip = mv({ amount: 11000 });
    expect(run([tip], [cash]).of(tip).kind).toBe("none");
  });
});
