/**
 * What the add-in asks for is what the service is asked: every list (read as a list or as GETs) and every GET
 * sends its filters and expand values in the URL, a state in lower case; a filter written as text that the
 * service would refuse is refused by the api's one check of it (stateFilter, isoDateOf: the lists take typed
 * filters), in words naming it and the values it takes, before anything is sent.
 */
import {
  InvalidRequestError,
  SpendClient, isoDateOf, stateFilter, getAllowance, getCard, getExpense, getMovement, listAllowances, listAllowancesAsGot, listCards, listCardsAsGot,
  listExpenses, listExpensesAsGot, listMovements,
} from "../../src/api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../../src/domain";
import { fakeTransport, type FakeTransport } from "../support/fake-transport";

const E = "https://api.example.com/public/v1/enterprises/ent-1";
const period = { cardId: "card-1", billingPeriodId: "bp-1" };

/** A client whose every answer is an empty last page (or `{}` for a GET, which its schema then refuses). */
function recorded(): { client: SpendClient; fake: FakeTransport } {
  const fake = fakeTransport((r) => ({ body: new URL(r.url).searchParams.has("page") ? { count: 0, next: null, previous: null, results: [] } : {} }));
  return { client: new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: "ent-1", apiKey: "k".repeat(32), transport: fake.transport }), fake };
}

describe("lists send their filters and expand values", () => {
  it.each<[string, (c: SpendClient) => Promise<unknown>, string]>([
    ["listCards", (c) => listCards(c, { expand: ["bank", "user"] }).all(), `${E}/corporate-cards/?expand=bank%2Cuser&page=1&page_size=100`],
    ["listCardsAsGot", (c) => listCardsAsGot(c, { expand: ["bank", "user"] }).all(), `${E}/corporate-cards/?expand=bank%2Cuser&page=1&page_size=100`],
    ["listMovements", (c) => listMovements(c, period, { type: "payment", reconciled: false, reconciliation: true }).all(),
      `${E}/corporate-cards/card-1/billing-periods/bp-1/movements/?type=payment&reconciled=false&expand=renconciliation&page=1&page_size=100`],
    ["listAllowances", (c) => listAllowances(c, "sub-1", { state: stateFilter(ALLOWANCE_STATES, " Approved "), expand: ["beneficiary", "allowance_segments"] }).all(),
      `${E}/subsidiaries/sub-1/allowances/?state=approved&expand=beneficiary%2Callowance_segments&page=1&page_size=1000`],
    ["listAllowancesAsGot", (c) => listAllowancesAsGot(c, "sub-1", { expand: ["beneficiary", "documents"] }).all(),
      `${E}/subsidiaries/sub-1/allowances/?expand=beneficiary%2Cdocuments&page=1&page_size=1000`],
    ["listExpenses", (c) => listExpenses(c, "sub-1", {
      state: stateFilter(EXPENSE_STATES, "PAID"), createdFrom: isoDateOf("createdFrom", "2026-01-01"), createdTo: isoDateOf("createdTo", "2026-03-31"), expand: ["fund", "fare"] }).all(),
      `${E}/subsidiaries/sub-1/expenses/?state=paid&created_at_from=2026-01-01&created_at_to=2026-03-31&expand=fund%2Cfare&page=1&page_size=1000`],
    ["listExpensesAsGot", (c) => listExpensesAsGot(c, "sub-1", { expand: ["cost_center", "category"] }).all(),
      `${E}/subsidiaries/sub-1/expenses/?expand=cost_center%2Ccategory&page=1&page_size=1000`],
  ])("%s", async (_call, load, url) => {
    const { client, fake } = recorded();
    await load(client);
    expect(fake.requests.map((r) => r.url)).toEqual([url]);
  });
});

describe("GETs send their expand values", () => {
  it.each<[string, (c: SpendClient) => Promise<unknown>, string]>([
    ["getCard", (c) => getCard(c, "card 1", { expand: ["user"] }), `${E}/corporate-cards/card%201/?expand=user`],
    ["getMovement", (c) => getMovement(c, period, "mov-1", { reconciliation: true }), `${E}/corporate-cards/card-1/billing-periods/bp-1/movements/mov-1/?expand=renconciliation`],
    ["getAllowance", (c) => getAllowance(c, "sub-1", "al-1", { expand: ["allowance_segments"] }), `${E}/subsidiaries/sub-1/allowances/al-1/?expand=allowance_segments`],
    ["getExpense", (c) => getExpense(c, "sub-1", "ex-1", { expand: ["approved_by"] }), `${E}/subsidiaries/sub-1/expenses/ex-1/?expand=approved_by`],
  ])("%s", async (_call, load, url) => {
    const { client, fake } = recorded();
    await load(client).catch(() => undefined);
    expect(fake.requests.map((r) => r.url)).toEqual([url]);
  });
});

describe("a filter written as text that the service would refuse is refused before anything is sent", () => {
  // The list calls take typed filters; text goes through stateFilter and isoDateOf first, the api's one check of it.
  it("allowances", () => {
    const { client, fake } = recorded();
    expect(() => listAllowances(client, "sub-1", { state: stateFilter(ALLOWANCE_STATES, "draft") })).toThrow(
      new InvalidRequestError("state must be one of pending, approved, accounted, paid, rejected; got 'draft'."),
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("expenses", () => {
    const { client, fake } = recorded();
    expect(() => listExpenses(client, "sub-1", { state: stateFilter(EXPENSE_STATES, " approvd ") })).toThrow(
      new InvalidRequestError("state must be one of draft, pending, approved, accounted, paid, rejected; got ' approvd '."),
    );
    expect(() => listExpenses(client, "sub-1", { createdTo: isoDateOf("createdTo", "2026-02-30") })).toThrow(
      new InvalidRequestError("createdTo must be a date written YYYY-MM-DD; got '2026-02-30'."),
    );
    expect(fake.requests).toHaveLength(0);
  });
});
