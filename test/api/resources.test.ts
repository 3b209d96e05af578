import {
  SpendClient, getAllowance, getCard, getExpense, getMovement, listAllowances, listCards, listExpenses, listMovements,
  isoDateOf, updateAllowance, updateExpense, InvalidRequestError, NotFoundError, RejectedError,
} from "../../src/api";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let client: SpendClient;
let sub: string;
let scope: { cardId: string; billingPeriodId: string };
beforeAll(async () => {
  f = await withSandbox();
  client = new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  sub = f.enterprise.subsidiaries[0];
  scope = { cardId: f.enterprise.cards[0].id, billingPeriodId: f.enterprise.cards[0].billing_periods[0] };
});
afterAll(() => f.sandbox.close());

describe("cards", () => {
  it("lists every card, with and without expand, and gets one", async () => {
    const cards = await listCards(client).all();
    expect(cards.map((c) => c.id)).toEqual(f.enterprise.cards.map((c) => c.id));
    expect(cards[0].user).toBeUndefined();
    const expanded = await listCards(client, { expand: ["user", "bank"] }).all();
    expect(expanded[0].user?.email).toMatch(/@/);
    expect(expanded[0].bank?.name).toEqual(expect.any(String));
    const one = await getCard(client, cards[1].id, { expand: ["bank"] });
    expect(one).toMatchObject({ id: cards[1].id, bank: { id: cards[1].bank_id } });
  });

  it("asks for the maximum page size and never more", async () => {
    const urls: string[] = [];
    const counting = new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key, onRequest: (e) => urls.push(e.url) });
    await listCards(counting).all();
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0], f.sandbox.baseUrl).searchParams.get("page_size")).toBe("100");
    expect(() => listCards(counting, {}, { pageSize: 101 })).toThrow("pageSize for corporate cards must be a whole number from 1 to 100; got 101.");
  });
});

describe("movements", () => {
  it("lists with type, reconciled and the reconciliation expand; gets one", async () => {
    const all = await listMovements(client, scope).all();
    expect(all.length).toBe(f.sandbox.store.movementsOf(scope.billingPeriodId).length);
    const fees = await listMovements(client, scope, { type: "associated_fee" }).all();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.every((m) => m.type === "associated_fee")).toBe(true);
    const reconciled = await listMovements(client, scope, { reconciled: true, reconciliation: true }).all();
    expect(reconciled.every((m) => m.reconciliation?.expense.expense_number)).toBe(true);
    const unreconciled = await listMovements(client, scope, { reconciled: false }).all();
    expect(reconciled.length + unreconciled.length).toBe(all.length);
    const one = await getMovement(client, scope, reconciled[0].id, { reconciliation: true });
    expect(one.reconciliation?.id).toBe(reconciled[0].reconciliation?.id);
  });
});

describe("allowances", () => {
  it("lists every allowance across pages, filters by state, expands, gets one", async () => {
    const all = await listAllowances(client, sub, {}, { pageSize: 50 }).all();
    expect(all.length).toBe(f.sandbox.store.allowancesOf(sub).length);
    const approved = await listAllowances(client, sub, { state: "approved", expand: ["beneficiary", "allowance_segments", "documents"] }).all();
    expect(approved.every((a) => a.state === "approved" && a.beneficiary && a.allowance_segments)).toBe(true);
    const one = await getAllowance(client, sub, approved[0].id, { expand: ["documents"] });
    expect(one.documents).toBeDefined();
  });

  it("updates a state and gets the 4.5 answer; refuses locally what the service would refuse", async () => {
    const target = f.sandbox.store.allowancesOf(sub).find((a) => a.state === "approved" && f.sandbox.store.transitionsOf(a.id).length === 0)!;
    const answer = await updateAllowance(client, sub, target.id, { state: "paid", paid_id: "PAY-77", paid_at: "2026-11-03T12:00:00+01:00" });
    expect(answer).toMatchObject({ id: target.id, state: "paid", paid_id: "PAY-77", paid_at: "2026-11-03T11:00:00Z" });
    const again = await updateAllowance(client, sub, target.id, { state: "paid" }).catch((e) => e);
    expect(again).toBeInstanceOf(RejectedError);
    expect(again.serverMessage).toBe("Allowance is already in paid state");
    const before = f.sandbox.store.data.transitions.length;
    await expect(updateAllowance(client, sub, target.id, { state: "accounted", paid_id: "X" })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(f.sandbox.store.data.transitions.length).toBe(before);
  });
});

describe("expenses", () => {
  it("lists with state and created_at filters and every expand; gets one with its detail fields", async () => {
    const all = await listExpenses(client, sub).all();
    expect(all.length).toBe(f.sandbox.store.expensesOf(sub).length);
    const days = all.map((e) => e.created_at.slice(0, 10)).sort();
    const filtered = await listExpenses(client, sub, { state: "approved", createdFrom: isoDateOf("createdFrom", days[10]), createdTo: isoDateOf("createdTo", days[200]) }).all();
    const expected = all.filter((e) => e.state === "approved" && e.created_at.slice(0, 10) >= days[10] && e.created_at.slice(0, 10) <= days[200]);
    expect(filtered.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    const expanded = await listExpenses(client, sub, { expand: ["cost_center", "category", "user", "approved_by", "fund", "fare"] }, { pageSize: 100 }).all();
    expect(expanded.every((e) => e.cost_center && e.category && e.user !== undefined && Array.isArray(e.approved_by))).toBe(true);
    const one = await getExpense(client, sub, all[0].id);
    expect(one.additional_questions?.length).toBeGreaterThan(0);
    // A date written as text is checked once, by isoDateOf, before the list takes it (api/list-filters.ts).
    expect(() => isoDateOf("createdFrom", "2026-13-01")).toThrow("createdFrom must be a date written YYYY-MM-DD; got '2026-13-01'.");
  });

  it("updates a state; an unknown expense is a NotFoundError", async () => {
    const target = f.sandbox.store.expensesOf(sub).find((e) => e.state === "approved" && f.sandbox.store.transitionsOf(e.id).length === 0)!;
    const answer = await updateExpense(client, sub, target.id, { state: "accounted", accounted_id: "ACC-5" });
    expect(answer).toMatchObject({ id: target.id, state: "accounted", accounted_id: "ACC-5" });
    const missing = await getExpense(client, sub, "00000000-0000-4000-8000-000000000000").catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.status).toBe(404);
  });
});
