/**
 * Every call names its resource in what the user reads when the service's answer cannot be used: "The
 * service's answer for allowance update was an HTML page", never an answer "for " nothing or for another
 * resource. One call per resource and kind (list, list read as GETs, one record, a state change), each test
 * named for its call (two tests of one name would be one test to a mutation run).
 */
import {
  SpendClient, getAllowance, getCard, getExpense, getMovement, listAllowances, listAllowancesAsGot, listCards, listCardsAsGot,
  listExpenses, listExpensesAsGot, listMovements, updateAllowance, updateExpense,
} from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

const client = () => new SpendClient({
  baseUrl: "https://api.example.com/public/v1", enterpriseId: "ent-1", apiKey: "k".repeat(32),
  transport: fakeTransport(() => ({ text: "<html>Sign in</html>" })).transport,
});
const period = { cardId: "card-1", billingPeriodId: "bp-1" };
const patch = { state: "accounted" as const, accounted_id: "ACC-1" };

it.each([
  ["listCards", "corporate cards (page 1)", () => listCards(client()).all()],
  ["listCardsAsGot", "corporate cards (page 1)", () => listCardsAsGot(client()).all()],
  ["getCard", "corporate card", () => getCard(client(), "card-1")],
  ["listMovements", "movements (page 1)", () => listMovements(client(), period).all()],
  ["getMovement", "movement", () => getMovement(client(), period, "mov-1")],
  ["listAllowances", "allowances (page 1)", () => listAllowances(client(), "sub-1").all()],
  ["listAllowancesAsGot", "allowances (page 1)", () => listAllowancesAsGot(client(), "sub-1").all()],
  ["getAllowance", "allowance", () => getAllowance(client(), "sub-1", "al-1")],
  ["updateAllowance", "allowance update", () => updateAllowance(client(), "sub-1", "al-1", patch)],
  ["listExpenses", "expenses (page 1)", () => listExpenses(client(), "sub-1").all()],
  ["listExpensesAsGot", "expenses (page 1)", () => listExpensesAsGot(client(), "sub-1").all()],
  ["getExpense", "expense", () => getExpense(client(), "sub-1", "ex-1")],
  ["updateExpense", "expense update", () => updateExpense(client(), "sub-1", "ex-1", patch)],
])("%s: an HTML page for %s is refused in words naming it", async (_call, resource, call) => {
  await expect(call()).rejects.toThrow(
    `The service's answer for ${resource} was an HTML page, not JSON: "<html>Sign in</html>". Is the base URL the service's?`,
  );
});
