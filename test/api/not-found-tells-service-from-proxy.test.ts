// Rule: a 404 in the service's own JSON error body is about the ids and quotes the service; any other 404 body
// (another JSON shape, HTML, text, blank) comes from something else at the base URL and is named for what it was.
import { baseUrlExamples, BaseUrlError, NotFoundError, SpendClient, getExpense, listCards } from "../../src/api";
import { fakeTransport, type Reply } from "../support/fake-transport";

const BASE = "https://spend.example/api";
/** The requests as the messages name them: in words, never by their URL (issue 43). */
const EXPENSE = "The request for expense e1 of subsidiary s1";
const CARDS = "the request for page 1 of the corporate cards";

function client(reply: Reply) {
  const fake = fakeTransport(() => reply);
  return new SpendClient({ baseUrl: BASE, enterpriseId: "ent-1", apiKey: "sk_test_not_found_kinds", transport: fake.transport });
}

const readExpense = (reply: Reply) => getExpense(client(reply), "s1", "e1").then(() => { throw new Error("read"); }, (e: unknown) => e as Error);
const firstCards = (reply: Reply) => listCards(client(reply), {}, { pageSize: 1 }).pages().next().then(() => { throw new Error("read"); }, (e: unknown) => e as Error);

describe("the service's own 404 is about the ids", () => {
  it("quotes what the service said", async () => {
    const error = await readExpense({ status: 404, body: { status: 404, error: "Expense not found." } });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('Not found while reading expense e1 of subsidiary s1. The service said: "Expense not found."');
  });

  it("with an empty error, says only what was not found", async () => {
    const error = await readExpense({ status: 404, body: { status: 404, error: "" } });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("Not found while reading expense e1 of subsidiary s1.");
  });
});

describe("a 404 whose JSON is not the service's error body names the base URL, on any path", () => {
  it.each<[string, unknown]>([
    ["an error without a status", { error: "No such route" }],
    ["a status that is not the answer's", { status: 400, error: "No such route" }],
    ["a status without an error", { status: 404 }],
    ["an error that is not text", { status: 404, error: 5 }],
    ["another API's shape", { detail: "Not found." }],
  ])("%s", async (_what, body) => {
    const error = await readExpense({ status: 404, body });
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `The base URL looks wrong: nothing at ${BASE} answers as the Spend Sync service. ${EXPENSE} answered 404 Not Found, ` +
      `with JSON that is not the service's rather than the service's JSON error. ${baseUrlExamples()}`,
    );
  });
});

describe("what the 404 was, in the connection test's words", () => {
  it.each<[string, Reply]>([
    ["an empty answer", { status: 404, text: "  \r\n\t ", headers: { "content-type": "text/plain" } }],
    ["an HTML page", { status: 404, text: "Not Found", headers: { "content-type": "text/html; charset=utf-8" } }],
    ["an HTML page", { status: 404, text: "<h1>Not Found</h1>", headers: { "content-type": "text/plain" } }],
    ["plain text", { status: 404, text: "Not found: <", headers: { "content-type": "text/plain" } }],
  ])("%s", async (kind, reply) => {
    const error = await firstCards(reply);
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(error.message).toBe(
      `The base URL looks wrong: nothing at ${BASE} answers as the Spend Sync service. Every enterprise has a list of corporate cards, ` +
      `but ${CARDS} answered 404 Not Found, with ${kind} rather than the service's JSON error. ${baseUrlExamples()}`,
    );
  });
});
