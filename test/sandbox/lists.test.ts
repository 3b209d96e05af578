import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let sub: string;
let cardId: string;
let period: string;
beforeAll(async () => {
  f = await withSandbox();
  sub = f.enterprise.subsidiaries[0];
  cardId = f.enterprise.cards[0].id;
  period = f.enterprise.cards[0].billing_periods[0];
});
afterAll(() => f.sandbox.close());

const paths = () => ({
  cards: `${f.prefix}/corporate-cards/`,
  movements: `${f.prefix}/corporate-cards/${cardId}/billing-periods/${period}/movements/`,
  allowances: `${f.prefix}/subsidiaries/${sub}/allowances/`,
  expenses: `${f.prefix}/subsidiaries/${sub}/expenses/`,
});

/** Follows `next` from the first page; returns every result and the pages seen. */
async function walk(first: string) {
  const results: { id: string }[] = [];
  let url: string | null = first;
  let pages = 0;
  while (url) {
    const res = await f.call("GET", url);
    expect(res.status).toBe(200);
    results.push(...res.json.results);
    url = res.json.next;
    pages++;
  }
  return { results, pages };
}

describe("envelopes (spec 1)", () => {
  it("the card list has count/next/previous/results and no status/error", async () => {
    const res = await f.call("GET", paths().cards);
    expect(Object.keys(res.json).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(res.json.results[0]).not.toHaveProperty("status");
  });

  it.each(["movements", "allowances", "expenses"] as const)("the %s list also carries status 200 and an empty error", async (name) => {
    const res = await f.call("GET", paths()[name]);
    expect(Object.keys(res.json).sort()).toEqual(["count", "error", "next", "previous", "results", "status"]);
    expect(res.json).toMatchObject({ status: 200, error: "" });
  });

  it("single resources carry status and error", async () => {
    const res = await f.call("GET", `${f.prefix}/corporate-cards/${cardId}/`);
    expect(res.json).toMatchObject({ id: cardId, status: 200, error: "" });
  });
});

describe("pagination (spec 4, 8)", () => {
  it.each([
    ["cards", 20, 100],
    ["movements", 20, 100],
    ["allowances", 100, 1000],
    ["expenses", 100, 1000],
  ] as const)("%s: default page_size %i, maximum %i, 400 above it", async (name, def, max) => {
    const first = await f.call("GET", paths()[name]);
    expect(first.json.results.length).toBe(Math.min(def, first.json.count));
    const atMax = await f.call("GET", `${paths()[name]}?page_size=${max}`);
    expect(atMax.status).toBe(200);
    const above = await f.call("GET", `${paths()[name]}?page_size=${max + 1}`);
    expect(above.status).toBe(400);
    expect(above.json).toEqual({ status: 400, error: `page_size must be at most ${max}; got ${max + 1}.` });
  });

  it.each(["movements", "allowances", "expenses"] as const)("walking %s by next yields count distinct records in a stable order", async (name) => {
    const { results, pages } = await walk(`${paths()[name]}?page_size=7`);
    const first = await f.call("GET", paths()[name]);
    expect(results.length).toBe(first.json.count);
    expect(new Set(results.map((r) => r.id)).size).toBe(first.json.count);
    expect(pages).toBe(Math.ceil(first.json.count / 7));
    const again = await walk(`${paths()[name]}?page_size=7`);
    expect(again.results.map((r) => r.id)).toEqual(results.map((r) => r.id));
  });

  it("next and previous are absolute and keep the other parameters", async () => {
    const res = await f.call("GET", `${paths().expenses}?state=approved&page_size=5&page=2&expand=user`);
    const next = new URL(res.json.next);
    const previous = new URL(res.json.previous);
    expect(next.origin).toBe(f.sandbox.baseUrl);
    expect(Object.fromEntries(next.searchParams)).toEqual({ state: "approved", page_size: "5", page: "3", expand: "user" });
    expect(Object.fromEntries(previous.searchParams)).toEqual({ state: "approved", page_size: "5", page: "1", expand: "user" });
    const last = await f.call("GET", `${paths().expenses}?page_size=1000`);
    expect(last.json).toMatchObject({ next: null, previous: null });
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "99999999999999999999", ""])("page=%s is a clear 400 (or the default), never a 5xx", async (page) => {
    const res = await f.call("GET", `${paths().allowances}?page=${encodeURIComponent(page)}`);
    if (page === "") expect(res.status).toBe(200);
    else {
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/^page must be a whole number from 1 up/);
    }
  });

  it("a page past the last one is a 404 that says which page is last", async () => {
    const res = await f.call("GET", `${paths().allowances}?page=50`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: 404, error: "Invalid page: page 50 is past the last page, 2." });
  });
});

describe("filters", () => {
  it("allowances by state", async () => {
    for (const state of ["pending", "approved", "accounted", "paid", "rejected"]) {
      const { results } = await walk(`${paths().allowances}?state=${state}&page_size=1000`);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => (r as unknown as { state: string }).state === state)).toBe(true);
    }
    const bad = await f.call("GET", `${paths().allowances}?state=draft`);
    expect(bad.json).toEqual({ status: 400, error: "state must be one of pending, approved, accounted, paid, rejected; got 'draft'." });
  });

  it("expenses by state and inclusive created_at range", async () => {
    const all = (await walk(`${paths().expenses}?page_size=1000`)).results as unknown as { created_at: string; state: string }[];
    const days = all.map((e) => e.created_at.slice(0, 10)).sort();
    const from = days[50];
    const to = days[150];
    const expected = all.filter((e) => e.state === "approved" && e.created_at.slice(0, 10) >= from && e.created_at.slice(0, 10) <= to);
    const res = await f.call("GET", `${paths().expenses}?state=approved&created_at_from=${from}&created_at_to=${to}&page_size=1000`);
    expect(res.json.count).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    // Inclusive at both ends: records created on the boundary days are in.
    const onEdge = await f.call("GET", `${paths().expenses}?created_at_from=${days[0]}&created_at_to=${days[0]}`);
    expect(onEdge.json.count).toBe(days.filter((d) => d === days[0]).length);
  });

  it.each([
    ["created_at_from=2026-13-01", "created_at_from must be a date written YYYY-MM-DD; got '2026-13-01'."],
    ["created_at_to=31/01/2026", "created_at_to must be a date written YYYY-MM-DD; got '31/01/2026'."],
    ["created_at_from=2026-05-02&created_at_to=2026-05-01", "created_at_from (2026-05-02) is after created_at_to (2026-05-01)."],
    ["state=archived", "state must be one of draft, pending, approved, accounted, paid, rejected; got 'archived'."],
    ["expand=owner", "expand accepts cost_center, category, user, approved_by, fund, fare; got 'owner'."],
  ])("expenses with %s -> 400", async (query, message) => {
    const res = await f.call("GET", `${paths().expenses}?${query}`);
    expect(res.json).toEqual({ status: 400, error: message });
  });

  it("movements by type and reconciled", async () => {
    for (const type of ["payment", "expense", "associated_fee", "other_fee"]) {
      const res = await f.call("GET", `${paths().movements}?type=${type}&page_size=100`);
      expect(res.json.count).toBeGreaterThan(0);
      expect(res.json.results.every((m: { type: string }) => m.type === type)).toBe(true);
    }
    const all = await f.call("GET", `${paths().movements}?page_size=100&expand=renconciliation`);
    const yes = await f.call("GET", `${paths().movements}?reconciled=true&page_size=100&expand=renconciliation`);
    const no = await f.call("GET", `${paths().movements}?reconciled=false&page_size=100`);
    expect(yes.json.count).toBeGreaterThan(0);
    expect(no.json.count).toBeGreaterThan(0);
    expect(yes.json.count + no.json.count).toBe(all.json.count);
    expect(yes.json.results.every((m: { reconciliation: unknown }) => m.reconciliation !== null)).toBe(true);
    const bad = await f.call("GET", `${paths().movements}?reconciled=yes`);
    expect(bad.json).toEqual({ status: 400, error: "reconciled must be true or false; got 'yes'." });
  });
});

describe("expand", () => {
  it("cards: user replaces user_id, bank is added beside bank_id", async () => {
    const plain = (await f.call("GET", paths().cards)).json.results[0];
    expect(plain).toHaveProperty("user_id");
    expect(plain).not.toHaveProperty("user");
    expect(plain).not.toHaveProperty("bank");
    const card = (await f.call("GET", `${paths().cards}?expand=user,bank`)).json.results[0];
    expect(card).not.toHaveProperty("user_id");
    expect(Object.keys(card.user).sort()).toEqual(["email", "first_name", "government_id", "id", "internal_id", "last_name", "phone"]);
    expect(card.user.id).toBe(plain.user_id);
    expect(card.bank_id).toBe(plain.bank_id);
    expect(card.bank.id).toBe(plain.bank_id);
  });

  it("allowances: beneficiary replaces beneficiary_id; segments and signed documents appear only when asked", async () => {
    const plain = (await f.call("GET", paths().allowances)).json.results;
    expect(plain[0]).not.toHaveProperty("allowance_segments");
    expect(plain[0]).not.toHaveProperty("documents");
    const res = await f.call("GET", `${paths().allowances}?expand=beneficiary,allowance_segments,documents`);
    const a = res.json.results[0];
    expect(a).not.toHaveProperty("beneficiary_id");
    expect(a.beneficiary.id).toBe(plain[0].beneficiary_id);
    expect(a.allowance_segments[0]).toEqual({
      id: expect.any(String), start_date: expect.any(String), end_date: expect.any(String), fare_id: expect.any(String),
      fare_name: expect.any(String), days: expect.any(Number), amount: { amount: expect.any(Number), currency: expect.any(String) },
      converted_amount: { amount: expect.any(Number), currency: expect.any(String) },
    });
    const withDocs = res.json.results.find((x: { documents: unknown[] }) => x.documents.length > 0);
    expect(withDocs.documents[0].url).toMatch(/^https:\/\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
  });

  it("expenses: each expand replaces its _id field; approved_by and fare are added", async () => {
    const plain = (await f.call("GET", `${paths().expenses}?state=paid`)).json.results[0];
    const res = await f.call("GET", `${paths().expenses}?state=paid&expand=cost_center,category,user,approved_by,fund,fare`);
    const e = res.json.results[0];
    for (const field of ["cost_center", "category", "user", "fund"]) expect(e).not.toHaveProperty(`${field}_id`);
    expect(e.cost_center).toEqual({ id: plain.cost_center_id, name: expect.any(String), internal_id: expect.any(String) });
    expect(e.category).toEqual({ id: plain.category_id, name: expect.any(String), internal_id: expect.any(String) });
    expect(e.user.id).toBe(plain.user_id);
    expect(e.approved_by.length).toBeGreaterThan(0);
    expect(e).toHaveProperty("fare");
    const mileage = (await walk(`${paths().expenses}?page_size=1000&expand=fare`)).results.find(
      (x) => (x as unknown as { expense_type: string }).expense_type === "mileage",
    ) as unknown as { fare: { name: string } };
    expect(mileage.fare.name).toMatch(/Mileage/);
  });

  it("movements: renconciliation (and the alias reconciliation) adds the reconciliation object", async () => {
    const plain = (await f.call("GET", paths().movements)).json.results[0];
    expect(plain).not.toHaveProperty("reconciliation");
    for (const spelling of ["renconciliation", "reconciliation"]) {
      const res = await f.call("GET", `${paths().movements}?reconciled=true&expand=${spelling}`);
      expect(res.json.results[0].reconciliation).toEqual({
        id: expect.any(String),
        expense: {
          id: expect.any(String), description: expect.any(String), expense_number: expect.any(Number), date: expect.stringMatching(/T/),
          amount: { amount: expect.any(Number), currency: expect.any(String) }, usd_amount: expect.anything(),
          cost_center: { id: expect.any(String), name: expect.any(String) }, state: expect.any(String),
        },
      });
    }
  });

  it("movements are served under billing_periods too, and one movement by id (4.10)", async () => {
    const list = await f.call("GET", paths().movements.replace("billing-periods", "billing_periods"));
    expect(list.status).toBe(200);
    const id = list.json.results[0].id;
    const one = await f.call("GET", `${paths().movements}${id}/?expand=renconciliation`);
    expect(one.json).toMatchObject({ id, status: 200, error: "" });
    expect(one.json).toHaveProperty("reconciliation");
  });

  it("expense detail adds additional_questions; additional_file_url depends on the enterprise's add-on", async () => {
    const listItem = (await f.call("GET", paths().expenses)).json.results[0];
    expect(listItem).not.toHaveProperty("additional_questions");
    expect(listItem.additional_file_url).toMatch(/^https:/);
    const detail = await f.call("GET", `${paths().expenses}${listItem.id}/`);
    expect(detail.json.additional_questions.length).toBeGreaterThan(0);
    const otherSub = f.other.subsidiaries[0];
    const other = await f.call("GET", `/public/v1/enterprises/${f.other.id}/subsidiaries/${otherSub}/expenses/`, { key: f.other.api_key });
    expect(other.json.results[0]).not.toHaveProperty("additional_file_url");
  });
});

describe("field types (spec 2)", () => {
  it("expense fields have the spec's JSON types", async () => {
    const { results } = await walk(`${paths().expenses}?page_size=1000`);
    for (const e of results as unknown as Record<string, unknown>[]) {
      expect(typeof e.amount).toBe("number");
      expect(e.usd_amount === null || typeof e.usd_amount === "number").toBe(true);
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      expect(Number.isInteger(e.expense_number)).toBe(true);
      expect(e.paid_at === null || /Z$/.test(String(e.paid_at))).toBe(true);
      expect(typeof e.is_active).toBe("boolean");
    }
  });
});

describe("reconciliation.expense.usd_amount is money, never null (spec 2.4)", () => {
  const money = { amount: expect.any(Number), currency: "USD" };

  it("on every reconciled movement of every card and billing period", async () => {
    let seen = 0;
    for (const card of f.enterprise.cards) {
      for (const p of card.billing_periods) {
        const base = `${f.prefix}/corporate-cards/${card.id}/billing-periods/${p}/movements/`;
        const { results } = await walk(`${base}?reconciled=true&expand=renconciliation&page_size=100`);
        for (const m of results as unknown as { reconciliation: { expense: { usd_amount: unknown } } }[]) {
          expect(m.reconciliation.expense.usd_amount).toEqual(money);
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it("even when the reconciled expense itself has no usd_amount (spec 2.3 allows null there)", async () => {
    const movement = f.sandbox.store.movementsOf(period).find((m) => m.reconciliation)!;
    const expense = f.sandbox.store.expenseById(movement.reconciliation!.expense_id)!;
    const saved = expense.usd_amount;
    expense.usd_amount = null;
    try {
      const res = await f.call("GET", `${paths().movements}${movement.id}/?expand=renconciliation`);
      expect(res.json.reconciliation.expense.usd_amount).toEqual(money);
      const own = await f.call("GET", `${paths().expenses}${expense.id}/`.replace(sub, expense.subsidiary_id));
      expect(own.json.usd_amount).toBeNull();
    } finally {
      expense.usd_amount = saved;
    }
  });
});
