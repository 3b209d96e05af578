/**
 * Cancel means stop now: a call whose signal is already aborted sends nothing; one aborted while its request is
 * in flight is "Cancelled." (not a network failure, and not retried); a wait between retries ends the moment
 * the signal aborts. Each wait takes its listener off the caller's signal when it ends, however it ends.
 */
import { getEventListeners } from "node:events";
import { CancelledError, SpendClient, getCard, sleep, updateExpense } from "../../src/api";
import { fakeTransport, type Script } from "../support/fake-transport";

const KEY = "sk_live_cancel_0123456789";

function client(script: Script, retries = 0) {
  const fake = fakeTransport(script);
  const c = new SpendClient({
    baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport,
    retry: { retries, baseDelayMs: 1, maxDelayMs: 1 },
  });
  return { c, fake };
}

describe("a call", () => {
  it("whose signal is already aborted sends nothing: a GET or a state change", async () => {
    const { c, fake } = client(() => ({ body: {} }));
    const controller = new AbortController();
    controller.abort();
    await expect(getCard(c, "c-1", {}, { signal: controller.signal })).rejects.toThrow(new CancelledError("Cancelled."));
    await expect(updateExpense(c, "sub-1", "ex-1", { state: "accounted", accounted_id: "A-1" }, { signal: controller.signal }))
      .rejects.toThrow(new CancelledError("Cancelled."));
    expect(fake.requests).toHaveLength(0);
  });

  it("aborted in flight is Cancelled., not a failure to reach the service, and is not sent again", async () => {
    const controller = new AbortController();
    // The request is under way (its signal listened to) when the user cancels.
    const { c, fake } = client((request) => new Promise((_resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
      controller.abort();
    }), 3);
    const error = await getCard(c, "c-1", {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe("Cancelled.");
    expect(fake.requests).toHaveLength(1);
    expect(c.stats).toEqual({ requests: 1, retries: 0 });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("sleep, the wait between retries", () => {
  afterEach(() => jest.useRealTimers());

  it("with an aborted signal does not wait at all", async () => {
    jest.useFakeTimers();
    const controller = new AbortController();
    controller.abort();
    let outcome: unknown = "pending";
    void sleep(1000, controller.signal).then(() => (outcome = "waited"), (e: unknown) => (outcome = e));
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome).toEqual(new CancelledError("Cancelled."));
    expect((outcome as Error).message).toBe("Cancelled.");
    expect(jest.getTimerCount()).toBe(0);
  });

  it("ends when the signal aborts, its timer cleared, its listener gone", async () => {
    jest.useFakeTimers();
    const controller = new AbortController();
    let outcome: unknown = "pending";
    void sleep(1000, controller.signal).then(() => (outcome = "waited"), (e: unknown) => (outcome = e));
    await jest.advanceTimersByTimeAsync(400);
    expect(outcome).toBe("pending");
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome).toEqual(new CancelledError("Cancelled."));
    expect((outcome as Error).message).toBe("Cancelled.");
    expect(jest.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("that runs its course leaves no listener behind: a hundred waits on one signal leave none", async () => {
    jest.useFakeTimers();
    const controller = new AbortController();
    for (let i = 0; i < 100; i++) {
      const waited = sleep(10, controller.signal);
      await jest.advanceTimersByTimeAsync(10);
      await waited;
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
