/**
 * A request that gets no answer is said in words a user can act on: a timeout in milliseconds under a second
 * and in seconds (one decimal) from a second on; a failure to reach the service with the reason the network
 * layer gave (its message, and the code or message of its cause), whatever shape that failure came in.
 */
import { NetworkError, SpendClient, TimeoutError, getCard } from "../../src/api";
import type { Transport } from "../../src/api/transport";
import { fakeTransport } from "../support/fake-transport";

const KEY = "sk_live_failures_0123456789";
/** The request in words: its URL is in the error's `request` (the details line), never in its message (issue 43). */
const WHERE = "while reading corporate card c-1";

function client(transport: Transport, timeoutMs?: number): SpendClient {
  return new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: KEY, transport, timeoutMs, retry: { retries: 0 } });
}

describe("a timeout is said in the unit a person reads it in", () => {
  afterEach(() => jest.useRealTimers());

  it.each([
    [999, "999 ms"],
    [1000, "1 s"],
    [2500, "2.5 s"],
    [30_000, "30 s"],
    [12_345, "12.3 s"],
  ])("%i ms: %s", async (timeoutMs, said) => {
    jest.useFakeTimers();
    const fake = fakeTransport(() => ({ body: {}, delayMs: 10 * timeoutMs }));
    const answer = getCard(client(fake.transport, timeoutMs), "c-1").catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(timeoutMs);
    const error = await answer;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(`The service did not answer within ${said} ${WHERE}.`);
  });
});

describe("a failure to reach the service says what the network layer said", () => {
  it.each<[string, unknown, string]>([
    ["an Error", new TypeError("fetch failed"), "fetch failed"],
    ["an Error with a cause's code", Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET", message: "read ECONNRESET" } }), "fetch failed (ECONNRESET)"],
    ["an Error with a cause's message only", Object.assign(new TypeError("fetch failed"), { cause: { message: "other side closed" } }), "fetch failed (other side closed)"],
    ["a cause without a message around it", { cause: { code: "ENOTFOUND" } }, "failed (ENOTFOUND)"],
    ["a bare string", "socket hang up", "socket hang up"],
    ["nothing at all", undefined, "undefined"],
    ["null", null, "null"],
  ])("%s", async (_what, thrown, said) => {
    const transport: Transport = () => new Promise((_resolve, reject) => reject(thrown));
    const error = await getCard(client(transport), "c-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).request).toEqual({ method: "GET", url: "/api/public/v1/enterprises/ent-1/corporate-cards/c-1/" });
    expect((error as Error).message).toBe(`Could not reach the service at https://spend.example ${WHERE}: ${said}.`);
  });
});
