import type { AllowanceRec, ExpenseRec } from "../../src/sandbox/model";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let sub: string;
beforeAll(async () => {
  f = await withSandbox();
  sub = f.enterprise.subsidiaries[0];
});
afterAll(() => f.sandbox.close());

/** Takes a fresh record in the given state, so each test starts from a known place. */
const used = new Set<string>();
function take<T extends AllowanceRec | ExpenseRec>(list: T[], state: string): T {
  const record = list.find((r) => r.state === state && !used.has(r.id));
  if (!record) throw new Error(`no unused ${state} record left`);
  used.add(record.id);
  return record;
}
const allowance = (state: string) => take(f.sandbox.store.allowancesOf(sub), state);
const expense = (state: string) => take(f.sandbox.store.expensesOf(sub), state);
const allowancePath = (id: string) => `${f.prefix}/subsidiaries/${sub}/allowances/${id}/`;
const expensePath = (id: string) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`;

describe("allowance PATCH (spec 4.5)", () => {
  it("approved -> accounted stores accounted_id and answers the 4.5 fields", async () => {
    const a = allowance("approved");
    const res = await f.call("PATCH", allowancePath(a.id), { body: { state: "accounted", accounted_id: "ACC-9" } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      ["accounted_id", "converted_amount", "error", "id", "paid_at", "paid_id", "state", "status", "updated_at"].sort(),
    );
    expect(res.json).toMatchObject({ id: a.id, state: "accounted", accounted_id: "ACC-9", paid_id: null, status: 200, error: "" });
    const after = await f.call("GET", allowancePath(a.id));
    expect(after.json).toMatchObject({ state: "accounted", accounted_id: "ACC-9", updated_at: res.json.updated_at });
  });

  it("approved -> paid and accounted -> paid store the payment fields, paid_at in UTC", async () => {
    for (const from of ["approved", "accounted"]) {
      const a = allowance(from);
      const res = await f.call("PATCH", allowancePath(a.id), {
        body: { state: "paid", paid_id: "PAY-1", paid_at: "2026-10-31T21:00:00-03:00", accounted_id: "ACC-1" },
      });
      expect(res.json).toMatchObject({ state: "paid", paid_id: "PAY-1", paid_at: "2026-11-01T00:00:00Z", accounted_id: "ACC-1" });
    }
  });

  it.each([
    ["approved", { state: "accounted", paid_id: "P" }, "paid_id and paid_at must not be sent when state is 'accounted'."],
    ["approved", { state: "accounted", paid_at: "2026-01-01T00:00:00Z" }, "paid_id and paid_at must not be sent when state is 'accounted'."],
    ["accounted", { state: "accounted" }, "Allowance is already in accounted state"],
    ["paid", { state: "paid" }, "Allowance is already in paid state"],
    ["paid", { state: "accounted" }, "Invalid state transition from 'paid' to 'accounted'."],
    ["pending", { state: "paid" }, "Invalid state transition from 'pending' to 'paid'."],
    ["rejected", { state: "accounted" }, "Invalid state transition from 'rejected' to 'accounted'."],
    ["approved", {}, "state is required: send 'accounted' or 'paid'."],
    ["approved", { state: "approved" }, `state must be 'accounted' or 'paid'; got "approved".`],
  ])("from %s with %j -> 400 %s", async (from, body, message) => {
    const a = allowance(from);
    const res = await f.call("PATCH", allowancePath(a.id), { body });
    expect(res.json).toEqual({ status: 400, error: message });
    expect(f.sandbox.store.transitionsOf(a.id)).toEqual([]);
  });
});

describe("expense PATCH (spec 4.8)", () => {
  it("approved -> accounted, approved -> paid, accounted -> paid answer the updated expense", async () => {
    const e1 = expense("approved");
    const r1 = await f.call("PATCH", expensePath(e1.id), { body: { state: "accounted", accounted_id: "A-1" } });
    expect(r1.json).toMatchObject({ id: e1.id, state: "accounted", accounted_id: "A-1", expense_number: e1.expense_number, status: 200 });
    for (const from of ["approved", "accounted"]) {
      const e = expense(from);
      const r = await f.call("PATCH", expensePath(e.id), { body: { state: "paid", paid_id: "P-2", paid_at: "2026-11-02T10:00:00Z" } });
      expect(r.json).toMatchObject({ state: "paid", paid_id: "P-2", paid_at: "2026-11-02T10:00:00Z" });
    }
  });

  it.each([
    ["accounted", { state: "accounted" }, "Expense is already in accounted state"],
    ["paid", { state: "paid" }, "Expense is already in paid state"],
    ["approved", { state: "accounted", paid_at: "2026-01-01T00:00:00Z" }, "paid_id and paid_at must not be sent when state is 'accounted'."],
  ])("from %s with %j -> 400 with the exact message", async (from, body, message) => {
    const e = expense(from);
    const res = await f.call("PATCH", expensePath(e.id), { body });
    expect(res.json).toEqual({ status: 400, error: message });
  });

  it.each(["draft", "pending", "rejected", "paid"])("from %s to accounted -> 400 Cannot change state from '%s'…", async (from) => {
    const e = expense(from);
    const res = await f.call("PATCH", expensePath(e.id), { body: { state: "accounted" } });
    expect(res.status).toBe(400);
    expect(res.json.error.startsWith(`Cannot change state from '${from}'`)).toBe(true);
  });
});

describe("concurrency", () => {
  it.each(["allowance", "expense"] as const)("of 20 concurrent PATCHes to one approved %s exactly one succeeds", async (kind) => {
    const record = kind === "allowance" ? allowance("approved") : expense("approved");
    const path = kind === "allowance" ? allowancePath(record.id) : expensePath(record.id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => f.call("PATCH", path, { body: { state: "paid", paid_id: `P-${i}` } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    const title = kind === "allowance" ? "Allowance" : "Expense";
    for (const r of results.filter((x) => x.status === 400)) expect(r.json.error).toBe(`${title} is already in paid state`);
    expect(f.sandbox.store.transitionsOf(record.id)).toHaveLength(1);
  });
});

describe("bad requests are clear 4xx, never 5xx", () => {
  it("a record of another subsidiary, an unknown id and a malformed id are 404", async () => {
    const otherSub = f.enterprise.subsidiaries[1];
    const a = f.sandbox.store.allowancesOf(sub)[0];
    const wrongSub = await f.call("GET", `${f.prefix}/subsidiaries/${otherSub}/allowances/${a.id}/`);
    expect(wrongSub.json).toEqual({ status: 404, error: `Allowance ${a.id} not found.` });
    const unknown = await f.call("GET", expensePath("00000000-0000-4000-8000-000000000000"));
    expect(unknown.status).toBe(404);
    const malformed = await f.call("PATCH", expensePath("not-a-uuid"), { body: { state: "paid" } });
    expect(malformed.json).toEqual({ status: 404, error: "Expense not-a-uuid not found." });
    const foreignSub = await f.call("GET", `${f.prefix}/subsidiaries/${f.other.subsidiaries[0]}/expenses/`);
    expect(foreignSub.status).toBe(404);
  });

  it("a body that is not JSON, a wrong content type, and a body over 1 MB", async () => {
    const e = expense("approved");
    const notJson = await f.call("PATCH", expensePath(e.id), { body: "{state: paid" });
    expect(notJson.json).toEqual({ status: 400, error: "The request body is not valid JSON." });
    const text = await f.call("PATCH", expensePath(e.id), { body: "state=paid", headers: { "Content-Type": "text/plain" } });
    // Spec section 7: an invalid payload is a 400 (docs/sandbox.md), not 415.
    expect(text.json).toEqual({ status: 400, error: "Content-Type must be application/json; got 'text/plain'." });
    const huge = await f.call("PATCH", expensePath(e.id), { body: { state: "paid", paid_id: "x".repeat(1024 * 1024 + 10) } });
    expect(huge.json).toEqual({ status: 413, error: "The request body is larger than 1048576 bytes." });
    expect(f.sandbox.store.transitionsOf(e.id)).toEqual([]);
  });

  it("an unknown path is a JSON 404", async () => {
    const res = await f.call("GET", `${f.prefix}/corporate-cards/${f.enterprise.cards[0].id}/billing-periods/`);
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/^No endpoint for GET/);
  });
});
