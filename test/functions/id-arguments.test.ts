/**
 * Every id argument of every function takes a UUID (8-4-4-4-12 hexadecimal digits, either case, trimmed, any
 * version) and refuses anything else with #VALUE! "not an id" before a request: most often the 8 characters
 * a table or sheet name shows, which the service would answer as a missing record (issue 24).
 */
import { Session, memoryStorage } from "../../src/api";
import { allowance, allowances, card, expense, expenses, movements } from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

installCustomFunctionsStub();

let f: SandboxFixture;
let requests: string[];

beforeAll(async () => {
  f = await withSandbox();
  useExcelProfile("office-2024");
});
afterAll(async () => {
  await f.sandbox.close();
  useExcelProfile(DEFAULT_PROFILE);
});
beforeEach(() => {
  requests = [];
  const session = new Session(memoryStorage(), { onRequest: (e) => requests.push(e.url), retry: { retries: 0 } });
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  useSession(session);
});

const shown = (p: Promise<unknown>) => p.then((value) => ({ value }), (e: FunctionError) => ({ error: e.code, message: e.message }));

/** Each function's call with `bad` in the one id argument named, every other argument valid. */
function callsWith(bad: unknown): [string, () => Promise<unknown>][] {
  const sub = f.enterprise.subsidiaries[0];
  const e = f.sandbox.store.expensesOf(sub)[0];
  const a = f.sandbox.store.allowancesOf(sub)[0];
  const c = f.enterprise.cards.find((x) => x.billing_periods.length > 0)!;
  const period = c.billing_periods[0];
  const i = invocation();
  return [
    ["subsidiary_id", () => expenses(bad, null, null, null, null, i)],
    ["subsidiary_id", () => allowances(bad, null, null, i)],
    ["card_id", () => movements(bad, period, null, null, i)],
    ["billing_period_id", () => movements(c.id, bad, null, null, i)],
    ["card_id", () => card(bad, "last_four_digits", i)],
    ["subsidiary_id", () => allowance(bad, a.id, "state", i)],
    ["allowance_id", () => allowance(sub, bad, "state", i)],
    ["subsidiary_id", () => expense(bad, e.id, "state", i)],
    ["expense_id", () => expense(sub, bad, "state", i)],
  ];
}

const notAnId = (name: string, quoted: string) => ({
  error: "#VALUE!",
  message: `${name} ${quoted} is not an id: an id is a UUID of 36 characters, like 3f2504e0-4f89-41d3-9a0c-0305e82c3301. ` +
    "Table and sheet names show only an id's first 8 characters: copy the whole id from an ID column or the taskpane.",
});

describe("an id argument that is not a UUID is #VALUE! \"not an id\", for every function, before any request", () => {
  it.each<[string, unknown, string]>([
    ["the 8 characters a table name shows", "1a2b3c4d", '"1a2b3c4d"'],
    ["a number", 12345678, '"12345678"'],
    ["32 hex digits without hyphens", "3f2504e04f8941d39a0c0305e82c3301", '"3f2504e04f8941d39a0c0305e82c3301"'],
    ["a UUID in braces", "{3f2504e0-4f89-41d3-9a0c-0305e82c3301}", '"{3f2504e0-4f89-41d3-9a0c-0305e82c3301}"'],
    ["a letter that is not hexadecimal", "3f2504e0-4f89-41d3-9a0c-0305e82c330g", '"3f2504e0-4f89-41d3-9a0c-0305e82c330g"'],
    ["a UUID with a line of text after it", "3f2504e0-4f89-41d3-9a0c-0305e82c3301 x", '"3f2504e0-4f89-41d3-9a0c-0305e82c3301 x"'],
    ["a long text, cut at 40 characters", "an id copied from the wrong column of the sheet", '"an id copied from the wrong column of t…"'],
  ])("%s", async (_what, bad, quoted) => {
    for (const [name, call] of callsWith(bad)) expect([name, await shown(call())]).toEqual([name, notAnId(name, quoted)]);
    expect(requests).toEqual([]);
  });

  it("the message never quotes the API key", async () => {
    for (const [name, call] of callsWith(f.enterprise.api_key)) {
      const result = await shown(call());
      expect(result).toEqual(notAnId(name, '"[redacted]"'));
      expect(JSON.stringify(result)).not.toContain(f.enterprise.api_key);
    }
    expect(requests).toEqual([]);
  });

  it("an empty id is still \"required\"", async () => {
    for (const [name, call] of callsWith("  ")) expect(await shown(call())).toEqual({ error: "#VALUE!", message: `${name} is required.` });
  });
});

describe("a UUID is taken in either case and with spaces around it, and sent as written (trimmed)", () => {
  it("upper case and spaces: each call reaches the service with the id as typed", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const e = f.sandbox.store.expensesOf(sub)[0];
    expect(await expense(`  ${sub} `, ` ${e.id}  `, "state", invocation())).toEqual([[e.state]]);
    expect(requests).toEqual([`/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${sub}/expenses/${e.id}/`]);
    // The sandbox's ids are lower case and it matches them exactly: an upper-case one is sent, and is not found.
    const upper = await shown(expense(sub, e.id.toUpperCase(), "state", invocation()));
    expect(upper).toEqual({ error: "#N/A", message: "Not found: no such record, subsidiary, card or billing period for this enterprise." });
    expect(requests[1]).toBe(`/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${sub}/expenses/${e.id.toUpperCase()}/`);
  });
});
