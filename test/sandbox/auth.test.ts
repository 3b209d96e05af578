import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
beforeAll(async () => {
  f = await withSandbox();
});
afterAll(() => f.sandbox.close());

/** Every route of spec section 4, with real ids of the first enterprise. */
function routes(): [string, string, unknown?][] {
  const { store } = f.sandbox;
  const sub = f.enterprise.subsidiaries[0];
  const card = f.enterprise.cards[0];
  const period = card.billing_periods[0];
  const allowance = store.allowancesOf(sub).find((a) => a.state === "approved")!.id;
  const expense = store.expensesOf(sub).find((e) => e.state === "approved")!.id;
  const movement = store.movementsOf(period)[0].id;
  return [
    ["GET", `${f.prefix}/corporate-cards/${card.id}/`],
    ["GET", `${f.prefix}/corporate-cards/`],
    ["GET", `${f.prefix}/subsidiaries/${sub}/allowances/`],
    ["GET", `${f.prefix}/subsidiaries/${sub}/allowances/${allowance}/`],
    ["PATCH", `${f.prefix}/subsidiaries/${sub}/allowances/${allowance}/`, { state: "accounted" }],
    ["GET", `${f.prefix}/subsidiaries/${sub}/expenses/`],
    ["GET", `${f.prefix}/subsidiaries/${sub}/expenses/${expense}/`],
    ["PATCH", `${f.prefix}/subsidiaries/${sub}/expenses/${expense}/`, { state: "accounted" }],
    ["GET", `${f.prefix}/corporate-cards/${card.id}/billing-periods/${period}/movements/`],
    ["GET", `${f.prefix}/corporate-cards/${card.id}/billing-periods/${period}/movements/${movement}/`],
  ];
}

describe("authentication (spec 5) on every route", () => {
  it("answers 403 without a key, with another scheme, with an unknown key, and with another enterprise's key", async () => {
    for (const [method, path, body] of routes()) {
      const cases: [Record<string, string>, RegExp][] = [
        [{}, /credentials were not provided/],
        [{ Authorization: `Bearer ${f.enterprise.api_key}` }, /Unsupported authorization scheme/],
        [{ Authorization: "Api-Key sk_sandbox_not_a_real_key" }, /^Invalid API key\.$/],
        [{ Authorization: `Api-Key ${f.other.api_key}` }, new RegExp(`does not belong to enterprise ${f.enterprise.id}`)],
      ];
      for (const [headers, message] of cases) {
        const res = await f.call(method, path, { key: null, headers, body });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
        expect(res.json).toEqual({ status: 403, error: expect.stringMatching(message) });
        expect(res.text).not.toContain(f.enterprise.api_key);
        expect(res.text).not.toContain(f.other.api_key);
        expect(res.text).not.toContain("sk_sandbox_not_a_real_key");
      }
    }
    // None of the refused PATCHes changed anything.
    expect(f.sandbox.store.data.transitions).toEqual([]);
  });

  it("serves every route with the right key", async () => {
    for (const [method, path, body] of routes()) {
      const res = await f.call(method, path, { body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 200 });
    }
  });
});

describe("authentication comes before any lookup", () => {
  const unknown = "00000000-0000-4000-8000-000000000000";
  it.each([
    ["an unknown enterprise", () => `/public/v1/enterprises/${unknown}/corporate-cards/`],
    ["a malformed enterprise id", () => "/public/v1/enterprises/not-an-id/corporate-cards/"],
    ["an unknown path under an unknown enterprise", () => `/public/v1/enterprises/${unknown}/no/such/path/`],
    ["an unknown subsidiary", () => `${f.prefix}/subsidiaries/${unknown}/expenses/`],
    ["an unknown expense", () => `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/expenses/${unknown}/`],
    ["an unknown card", () => `${f.prefix}/corporate-cards/${unknown}/`],
    ["an unknown path under the enterprise", () => `${f.prefix}/no/such/path/`],
    ["the enterprise path itself", () => f.prefix],
  ])("%s without a valid key is 403, not 404", async (_what, path) => {
    for (const key of [null, "sk_sandbox_not_a_real_key", f.other.api_key]) {
      const res = await f.call("GET", path(), { key });
      expect({ key, status: res.status }).toEqual({ key, status: 403 });
      expect(res.json).toEqual({ status: 403, error: expect.any(String) });
    }
  });

  it("a key on another (unknown) enterprise's path is 403, not 404", async () => {
    const res = await f.call("GET", `/public/v1/enterprises/${unknown}/corporate-cards/`);
    expect(res.json).toEqual({ status: 403, error: `This API key does not belong to enterprise ${unknown}.` });
  });
});
