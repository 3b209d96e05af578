// Rule (issue 43, part 6): the taskpane says which request failed in words, with its page ("while reading page 2 of
// the corporate cards"), never with its URL; the method and URL go to a details line of their own. A request this
// client never makes keeps its URL in the sentence. The key is never in either, whatever path carried it.
import {
  SpendClient, forgetSecret, getCard, type ServerError, getExpense, listCards, listExpenses, listMovements, registerSecret, shown, updateExpense,
} from "../../src/api";
import { requestInWords, wordsOf } from "../../src/api/request-words";
import { fakeTransport, pageOf, type Script } from "../support/fake-transport";

const SUB = "1a2b3c4d-0000-4000-8000-000000000001";
const EXPENSE = "9f8e7d6c-0000-4000-8000-000000000002";
const CARD = "5e5e5e5e-0000-4000-8000-000000000003";
const PERIOD = "7a7a7a7a-0000-4000-8000-000000000004";
const KEY = "sk_test_words_0123456789abcdef0123";
const ENT = "/public/v1/enterprises/ent-1";
const pageNo = (url: string) => Number(new URL(url).searchParams.get("page") ?? 1);

function client(script: Script, timeoutMs?: number) {
  const fake = fakeTransport((r, i) => (i >= 20 ? new Error("the client is looping") : script(r, i)));
  return new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport, retry: { retries: 0 }, timeoutMs });
}
const fail = (p: Promise<unknown>) => p.then(() => { throw new Error("it worked"); }, (e: unknown) => e);
/** Cards answer page 1; every later page gets `reply`. */
const onPage2 = (reply: ReturnType<Script>): Script => (r) => (pageNo(r.url) === 1 ? { body: pageOf(r.url, 5) } : reply);
const cardsPage2 = (reply: ReturnType<Script>, timeoutMs?: number) => fail(listCards(client(onPage2(reply), timeoutMs), {}, { pageSize: 2, concurrency: 1 }).all());
const CARDS_PAGE_2 = `GET ${ENT}/corporate-cards/?page=2&page_size=2`;

describe("each kind of failure on page 2 of a list: the sentence in words, the URL in the details", () => {
  it.each<[string, ReturnType<Script>, string]>([
    ["the service fails (504)", { status: 504, body: { status: 504, error: "Gateway timeout" } },
      'The service failed (HTTP 504) while reading page 2 of the corporate cards; try again later. The service said: "Gateway timeout"'],
    ["the service refuses, with its words", { status: 400, body: { status: 400, error: "Unsupported filter." } },
      "The service refused the request for page 2 of the corporate cards: Unsupported filter."],
    ["the service refuses, without", { status: 409, text: "" },
      "The service refused the request for page 2 of the corporate cards (HTTP 409)."],
    ["a redirect", { status: 307, headers: { location: "https://other.example/x" }, text: "" },
      "The service answered the request for page 2 of the corporate cards with a redirect to https://other.example (HTTP 307). Redirects are not followed, so that the API key goes nowhere else: check the base URL."],
    ["no answer at all", new TypeError("fetch failed"),
      "Could not reach the service at https://spend.example while reading page 2 of the corporate cards: fetch failed. Check the base URL, your network, or use the dev server's /proxy route for a service without CORS."],
  ])("%s", async (_what, reply, sentence) => {
    expect(shown(await cardsPage2(reply))).toMatchObject({ taskpane: sentence, details: CARDS_PAGE_2 });
  });

  it("no answer in time", async () => {
    const said = shown(await cardsPage2({ delayMs: 200, body: {} }, 20));
    expect(said).toMatchObject({
      taskpane: "The service did not answer within 20 ms while reading page 2 of the corporate cards. Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.",
      details: CARDS_PAGE_2,
    });
  });

  it("a rate limit names no request, so it has no details; a missing record keeps its own sentence", async () => {
    expect(shown(await cardsPage2({ status: 429, headers: { "retry-after": "3" }, text: "" }))).toEqual({
      taskpane: "The service is limiting requests (HTTP 429); try again in 3 s.",
      cell: { code: "notAvailable", message: "The service is limiting requests; try again in a moment (Refresh data)." },
    });
    const gone = shown(await fail(getExpense(client(() => ({ status: 404, body: { status: 404, error: "Expense not found." } })), SUB, EXPENSE)));
    expect(gone.taskpane).toBe('Not found: check the ids (subsidiary, card, billing period, record). The service said: "Expense not found."');
    expect(gone.details).toBeUndefined();
  });
});

describe("each resource and request in words, ids cut to 8 characters", () => {
  const failing = () => client(() => ({ status: 500, body: { status: 500, error: "Internal error" } }));
  it.each<[string, () => Promise<unknown>, string, string]>([
    ["an expense list by state", () => listExpenses(failing(), SUB, { state: "approved" }).all(),
      "reading page 1 of the approved expenses of subsidiary 1a2b3c4d", `GET ${ENT}/subsidiaries/${SUB}/expenses/?state=approved&page=1&page_size=1000`],
    ["an expense", () => getExpense(failing(), SUB, EXPENSE), "reading expense 9f8e7d6c of subsidiary 1a2b3c4d", `GET ${ENT}/subsidiaries/${SUB}/expenses/${EXPENSE}/`],
    ["an expense's update", () => updateExpense(failing(), SUB, EXPENSE, { state: "accounted" }),
      "updating expense 9f8e7d6c of subsidiary 1a2b3c4d", `PATCH ${ENT}/subsidiaries/${SUB}/expenses/${EXPENSE}/`],
    ["a card", () => getCard(failing(), CARD), "reading corporate card 5e5e5e5e", `GET ${ENT}/corporate-cards/${CARD}/`],
    ["a billing period's movements", () => listMovements(failing(), { cardId: CARD, billingPeriodId: PERIOD }).all(),
      "reading page 1 of the movements of billing period 7a7a7a7a of card 5e5e5e5e", `GET ${ENT}/corporate-cards/${CARD}/billing-periods/${PERIOD}/movements/?page=1&page_size=100`],
  ])("%s", async (_what, call, doing, details) => {
    expect(shown(await fail(call()))).toMatchObject({ taskpane: `The service failed (HTTP 500) while ${doing}; try again later. The service said: "Internal error"`, details });
  });

  it("behind a proxy's path too; a path the client never asks for is named by its method, its URL only in the details", () => {
    expect(requestInWords({ method: "GET", url: `/proxy${ENT}/subsidiaries/${SUB}/allowances/?page=3&page_size=1000` }))
      .toEqual({ doing: "reading page 3 of the allowances of subsidiary 1a2b3c4d", request: "the request for page 3 of the allowances of subsidiary 1a2b3c4d" });
    expect(requestInWords({ method: "GET", url: `${ENT}/people/` })).toBeNull();
    expect(requestInWords({ method: "GET", url: "/health" })).toBeNull();
    expect(wordsOf({ method: "GET", url: "/health" })).toEqual({ doing: "sending a GET request to the service", request: "a GET request" });
    const error = Object.assign(new Error("The service failed (HTTP 500) while sending a GET request to the service; try again later."), { name: "ServerError", request: { method: "GET", url: "/health" } });
    expect(shown(error)).toEqual({ taskpane: error.message, details: "GET /health", cell: { code: "notAvailable", message: `The service could not be reached: ${error.message}` } });
  });
});

describe("the key", () => {
  beforeAll(() => registerSecret(KEY));
  afterAll(() => forgetSecret(KEY));

  it("typed as an id, it is in neither the sentence nor the details", async () => {
    const said = shown(await fail(listExpenses(client(() => ({ status: 502, text: "" })), KEY).all()));
    expect(said.taskpane).toMatch(/^The service failed \(HTTP 502\) while reading page 1 of the expenses of subsidiary /);
    expect(`${said.taskpane} ${said.details}`).not.toContain(KEY);
    expect(`${said.taskpane} ${said.details}`).not.toContain(KEY.slice(0, 8));
  });

  it("typed as an id, it is in neither the error's message, its request, nor a cell's message", async () => {
    const error = (await fail(listExpenses(client(() => ({ status: 504, text: "" })), KEY).all())) as ServerError;
    const said = shown(error);
    for (const text of [error.message, error.stack ?? "", JSON.stringify(error.request), said.cell.message]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(0, 8));
    }
  });
});

describe("the error's own message: what logs, the sheet's status cells, the journal and =SPEND cells carry", () => {
  it("says the failed page in words and holds no URL; the URL is in the error's request alone", async () => {
    const error = (await cardsPage2({ status: 504, body: { status: 504, error: "Gateway timeout" } })) as ServerError;
    expect(error.message).toBe('The service failed (HTTP 504) while reading page 2 of the corporate cards; try again later. The service said: "Gateway timeout"');
    expect(error.request).toEqual({ method: "GET", url: `${ENT}/corporate-cards/?page=2&page_size=2` });
    expect(shown(error).cell).toEqual({ code: "notAvailable", message: `The service could not be reached: ${error.message}` });
  });

  it.each<[string, Promise<unknown>, string]>([
    ["a record's read", fail(getExpense(client(() => ({ status: 500, text: "" })), SUB, EXPENSE)),
      "The service failed (HTTP 500) while reading expense 9f8e7d6c of subsidiary 1a2b3c4d; try again later."],
    ["a record's update", fail(updateExpense(client(() => ({ status: 400, body: { status: 400, error: "Closed period." } })), SUB, EXPENSE, { state: "accounted" })),
      "The service refused the update of expense 9f8e7d6c of subsidiary 1a2b3c4d: Closed period."],
    ["a movement list", fail(listMovements(client(() => ({ status: 503, text: "" })), { cardId: CARD, billingPeriodId: PERIOD }).all()),
      "The service failed (HTTP 503) while reading page 1 of the movements of billing period 7a7a7a7a of card 5e5e5e5e; try again later."],
  ])("%s", async (_what, failure, sentence) => {
    const error = (await failure) as ServerError;
    expect(error.message).toBe(sentence);
    expect(error.message).not.toMatch(/\/public\/v1|page_size|\?/);
  });
});
