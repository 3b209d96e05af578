// Rule: Retry-After is read in its two forms only, seconds or an HTTP-date, which always starts with a day name; a date
// written without one ("21 Nov 2026 …", "Fr, …") is not waited for: the usual backoff applies and the message says
// "in a moment".
import { RateLimitError, SpendClient, getCard } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

const NOW = Date.parse("2026-11-21T10:00:00Z");
const BACKOFF = [300, 600, 1200, 2400];

async function limitedGet(retryAfter: string) {
  const fake = fakeTransport(() => ({ status: 429, body: {}, headers: { "Retry-After": retryAfter } }));
  const waits: number[] = [];
  const c = new SpendClient({
    baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_retry_after_day", transport: fake.transport,
    random: () => 0, now: () => NOW, sleep: async (ms) => void waits.push(ms),
  });
  const error = await getCard(c, "c1").then((): never => { throw new Error("no error"); }, (e: unknown) => e as RateLimitError);
  expect(error).toBeInstanceOf(RateLimitError);
  return { message: error.message, retryAfterMs: error.retryAfterMs, requests: fake.requests.length, waits };
}

it.each([
  ["21 Nov 2026 10:00:12 GMT"],
  ["Fr, 21 Nov 2026 10:00:12 GMT"],
])("Retry-After %p is not waited for", async (retryAfter) => {
  expect(await limitedGet(retryAfter)).toEqual({
    message: "The service is limiting requests (HTTP 429); try again in a moment.", retryAfterMs: null, requests: 5, waits: BACKOFF,
  });
});

it("the same date with its day name is", async () => {
  expect(await limitedGet("Sat, 21 Nov 2026 10:00:12 GMT")).toEqual({
    message: "The service is limiting requests (HTTP 429); try again in 12 s.", retryAfterMs: 12000, requests: 5, waits: [12000, 12000, 12000, 12000],
  });
});
