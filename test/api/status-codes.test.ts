/**
 * Statuses the client can meet (a proxy, a load balancer, a browser's opaque redirect) though the sandbox never
 * sends them: what each becomes, in the words the user reads, and how many requests it costs. The policy is the
 * default one (4 retries of a GET on 429, 500, 502, 503, 504; backoff 300 ms doubled; Retry-After up to 60 s),
 * with no jitter; waits are recorded, never slept.
 */
import {
  AuthError, HttpError, RateLimitError, RedirectError, RejectedError, SchemaError, ServerError, SpendClient, getCard, updateExpense,
} from "../../src/api";
import { card, fakeTransport, type Reply } from "../support/fake-transport";

const NOW = Date.parse("2026-11-21T10:00:00Z");
const CARD = "/api/public/v1/enterprises/ent-1/corporate-cards/c1/";
const BACKOFF = [300, 600, 1200, 2400];

function client(reply: (index: number) => Reply, sleep?: (ms: number) => Promise<void>) {
  const fake = fakeTransport((_request, index) => reply(index));
  const waits: number[] = [];
  const c = new SpendClient({
    baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_status_codes", transport: fake.transport,
    random: () => 0, now: () => NOW, sleep: sleep ?? (async (ms) => void waits.push(ms)),
  });
  return { c, fake, waits };
}

/** What the user and the log see of one failed GET: the error, the requests sent and the waits between them. */
async function failedGet(reply: (index: number) => Reply) {
  const { c, fake, waits } = client(reply);
  const error = await getCard(c, "c1").then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  const e = error as HttpError;
  expect(fake.requests.every((r) => r.method === "GET" && r.url === `https://spend.example${CARD}`)).toBe(true);
  expect(e.request).toEqual({ method: "GET", url: CARD });
  return { error: e, name: e.name, status: e.status, message: e.message, server: e.serverMessage, requests: fake.requests.length, waits, stats: c.stats };
}

// (Issue 43: the request in words; its URL is the error's request field, for the details line.)
const refused = (status: number) => `The service refused the request for corporate card c1 (HTTP ${status}).`;
const failed = (status: number) => `The service failed (HTTP ${status}) while reading corporate card c1; try again later.`;
const AUTH = "The API key was refused for enterprise ent-1. Check the key and the enterprise id in the connection settings.";

describe("a status that is not retried costs one request", () => {
  it.each([
    [400, RejectedError, refused(400)],
    [401, AuthError, AUTH],
    [402, RejectedError, refused(402)],
    [405, RejectedError, refused(405)],
    [408, RejectedError, refused(408)],
    [409, RejectedError, refused(409)],
    [410, RejectedError, refused(410)],
    [413, RejectedError, refused(413)],
    [415, RejectedError, refused(415)],
    [418, RejectedError, refused(418)],
    [422, RejectedError, refused(422)],
    [423, RejectedError, refused(423)],
    [425, RejectedError, refused(425)],
    [451, RejectedError, refused(451)],
    [499, RejectedError, refused(499)],
    [501, ServerError, failed(501)],
    [505, ServerError, failed(505)],
    [599, ServerError, failed(599)],
    [100, RejectedError, refused(100)],
    [101, RejectedError, refused(101)],
    [199, RejectedError, refused(199)],
  ])("%i with a body that is not the service's: %p", async (status, kind, message) => {
    const got = await failedGet(() => ({ status, text: "<html>proxy says no</html>", headers: { "Retry-After": "1" } }));
    expect(got.error).toBeInstanceOf(kind);
    expect([got.name, got.status, got.message, got.server]).toEqual([kind.name, status, message, ""]);
    expect([got.requests, got.waits, got.stats]).toEqual([1, [], { requests: 1, retries: 0 }]);
  });

  it.each([
    [401, AuthError, `${AUTH} The service said: "Token expired."`],
    [409, RejectedError, `The service refused the request for corporate card c1: Token expired.`],
    [422, RejectedError, `The service refused the request for corporate card c1: Token expired.`],
    [501, ServerError, `${failed(501)} The service said: "Token expired."`],
  ])("%i with the service's JSON error quotes it", async (status, kind, message) => {
    const got = await failedGet(() => ({ status, body: { status, error: "Token expired." } }));
    expect([got.name, got.message, got.server, got.requests]).toEqual([kind.name, message, "Token expired.", 1]);
  });
});

describe("5xx worth another try: 4 retries with doubling backoff, then the last answer's error", () => {
  it.each([500, 502, 503, 504])("%i", async (status) => {
    const got = await failedGet((i) => ({ status, body: { status, error: `down ${i + 1}` } }));
    expect(got.error).toBeInstanceOf(ServerError);
    expect([got.status, got.message, got.server]).toEqual([status, `${failed(status)} The service said: "down 5"`, "down 5"]);
    expect([got.requests, got.waits, got.stats]).toEqual([5, BACKOFF, { requests: 5, retries: 4 }]);
  });

  it("a 503 that recovers returns the record after one wait", async () => {
    const { c, fake, waits } = client((i) => (i === 0 ? { status: 503, text: "" } : { body: { ...card("c1"), status: 200 } }));
    expect((await getCard(c, "c1")).id).toBe("c1");
    expect([fake.requests.length, waits]).toEqual([2, [300]]);
  });

  it.each([
    ["2", [2000, 2000, 2000, 2000]],
    ["60", [60000, 60000, 60000, 60000]],
    ["Sat, 21 Nov 2026 10:00:09 GMT", [9000, 9000, 9000, 9000]],
    ["Sat, 21 Nov 2026 09:00:00 GMT", [0, 0, 0, 0]],
    ["later", BACKOFF],
  ])("a 503 with Retry-After %p waits %p", async (retryAfter, waits) => {
    const got = await failedGet(() => ({ status: 503, body: {}, headers: { "Retry-After": retryAfter } }));
    expect([got.name, got.message, got.requests, got.waits]).toEqual(["ServerError", failed(503), 5, waits]);
  });

  it("a 503 asking for more than 60 s is given to the caller at once", async () => {
    const got = await failedGet(() => ({ status: 503, body: {}, headers: { "Retry-After": "61" } }));
    expect([got.name, got.message, got.requests, got.waits]).toEqual(["ServerError", failed(503), 1, []]);
  });
});

describe("429: retried like a 5xx, waiting what the service asks for", () => {
  const limited = (wait: string) => `The service is limiting requests (HTTP 429); try again ${wait}.`;
  it.each([
    [undefined, null, limited("in a moment"), 5, BACKOFF],
    ["7", 7000, limited("in 7 s"), 5, [7000, 7000, 7000, 7000]],
    [" 7 ", 7000, limited("in 7 s"), 5, [7000, 7000, 7000, 7000]],
    ["0", 0, limited("in 0 s"), 5, [0, 0, 0, 0]],
    ["60", 60000, limited("in 60 s"), 5, [60000, 60000, 60000, 60000]],
    ["61", 61000, limited("in 61 s"), 1, []],
    ["3600", 3600000, limited("in 3600 s"), 1, []],
    ["Sat, 21 Nov 2026 10:00:12 GMT", 12000, limited("in 12 s"), 5, [12000, 12000, 12000, 12000]],
    ["Saturday, 21-Nov-26 10:00:12 GMT", 12000, limited("in 12 s"), 5, [12000, 12000, 12000, 12000]],
    ["Sat, 21 Nov 2026 10:00:00 GMT", 0, limited("in 0 s"), 5, [0, 0, 0, 0]],
    ["Sat, 21 Nov 2026 10:02:00 GMT", 120000, limited("in 120 s"), 1, []],
    ["soon", null, limited("in a moment"), 5, BACKOFF],
    ["1.5", null, limited("in a moment"), 5, BACKOFF],
    ["-5", null, limited("in a moment"), 5, BACKOFF],
  ])("Retry-After %p", async (retryAfter, retryAfterMs, message, requests, waits) => {
    const got = await failedGet(() => ({ status: 429, body: {}, headers: retryAfter === undefined ? {} : { "Retry-After": retryAfter } as Record<string, string> }));
    expect(got.error).toBeInstanceOf(RateLimitError);
    expect([got.status, got.message, (got.error as RateLimitError).retryAfterMs]).toEqual([429, message, retryAfterMs]);
    expect([got.requests, got.waits]).toEqual([requests, waits]);
  });

  it("the service's message follows the wait", async () => {
    const got = await failedGet((i) => ({ status: 429, body: { status: 429, error: `slow down ${i + 1}` }, headers: { "Retry-After": "1" } }));
    expect([got.message, got.server]).toEqual(['The service is limiting requests (HTTP 429); try again in 1 s. The service said: "slow down 5"', "slow down 5"]);
  });

  it("with the real timer, nothing is sent again until Retry-After has passed", async () => {
    jest.useFakeTimers({ now: NOW });
    try {
      const fake = fakeTransport((_r, i) => (i === 0 ? { status: 429, body: {}, headers: { "Retry-After": "3" } } : { body: { ...card("c1"), status: 200 } }));
      const c = new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_status_codes", transport: fake.transport });
      const got = getCard(c, "c1");
      await jest.advanceTimersByTimeAsync(2999);
      expect(fake.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect((await got).id).toBe("c1");
      expect(fake.requests).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("redirects are never followed: one request, RedirectError naming where it led", () => {
  const redirect = (to: string, status: number | null) =>
    `The service answered the request for corporate card c1 with a redirect${to}${status === null ? "" : ` (HTTP ${status})`}. Redirects are not followed, so that the API key goes nowhere else: check the base URL.`;
  it.each([
    [301, "https://login.example/sso?next=/x", redirect(" to https://login.example", 301)],
    [302, "/login", redirect(" to https://spend.example", 302)],
    [303, "https://spend.example:8443/y", redirect(" to https://spend.example:8443", 303)],
    [307, "http://[oops", redirect(" to an address that is not a URL", 307)],
    [308, null, redirect("", 308)],
    [300, null, redirect("", 300)],
    [304, null, redirect("", 304)],
    [399, null, redirect("", 399)],
    [0, null, redirect("", null)],
  ])("%i to %p", async (status, location, message) => {
    const got = await failedGet(() => ({ status, text: "", headers: location === null ? {} : { Location: location } as Record<string, string> }));
    expect(got.error).toBeInstanceOf(RedirectError);
    expect([got.status, got.message, got.requests, got.waits]).toEqual([status, message, 1, []]);
  });
});

describe("2xx oddities", () => {
  it.each([204, 205])("%i with no body is a SchemaError, not retried", async (status) => {
    const { c, fake, waits } = client(() => ({ status, text: "" }));
    const error = await getCard(c, "c1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toBe(`The service's answer for corporate card was empty: "". Is the base URL the service's?`);
    expect([fake.requests.length, waits]).toEqual([1, []]);
  });

  it.each([201, 203, 206, 299])("%i with a record is a success", async (status) => {
    const { c, fake } = client(() => ({ status, body: { ...card("c1"), status: 200 } }));
    expect((await getCard(c, "c1")).last_four_digits).toBe("1234");
    expect(fake.requests).toHaveLength(1);
  });
});

describe("a PATCH is sent once, whatever comes back", () => {
  it.each([
    [429, { "Retry-After": "0" }, "RateLimitError", "The service is limiting requests (HTTP 429); try again in 0 s."],
    [500, {}, "ServerError", `The service failed (HTTP 500) while updating expense e1 of subsidiary s1; try again later.`],
    [502, {}, "ServerError", `The service failed (HTTP 502) while updating expense e1 of subsidiary s1; try again later.`],
    [503, { "Retry-After": "1" }, "ServerError", `The service failed (HTTP 503) while updating expense e1 of subsidiary s1; try again later.`],
    [504, {}, "ServerError", `The service failed (HTTP 504) while updating expense e1 of subsidiary s1; try again later.`],
    [409, {}, "RejectedError", `The service refused the update of expense e1 of subsidiary s1 (HTTP 409).`],
    [307, { Location: "https://other.example/e1/" }, "RedirectError",
      `The service answered the update of expense e1 of subsidiary s1 with a redirect to https://other.example (HTTP 307). Redirects are not followed, so that the API key goes nowhere else: check the base URL.`],
  ])("%i", async (status, headers, name, message) => {
    const { c, fake, waits } = client(() => ({ status, text: "", headers }));
    const error = (await updateExpense(c, "s1", "e1", { state: "paid", paid_id: "P-1" }).catch((e: unknown) => e)) as HttpError;
    expect([error.name, error.status, error.message]).toEqual([name, status, message]);
    expect([fake.requests.map((r) => r.method), waits, c.stats]).toEqual([["PATCH"], [], { requests: 1, retries: 0 }]);
  });
});
