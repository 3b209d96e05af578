// Rule: Cancel stops a list at once: nothing is sent when the signal is already aborted, the page in flight is aborted
// (with or without a count), the list ends with "Cancelled." even if the service answers an error as the user
// cancels, and a list leaves no listener behind on the caller's signal, however it ends.
import { getEventListeners } from "node:events";
import { CancelledError, SpendClient, listCards } from "../../src/api";
import { fakeTransport, pageOf, type Script } from "../support/fake-transport";

const LIST = "https://spend.example/public/v1/enterprises/ent-1/corporate-cards/";

function client(script: Script) {
  const fake = fakeTransport(script);
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_cancel_list", transport: fake.transport, retry: { retries: 0 } });
  return { c, fake };
}

const outcome = (p: Promise<unknown>) => p.then(() => "loaded", (e: unknown) => e as Error);

/** A page in flight when the user cancels: it fails as a fetch does when its signal aborts, or answers if it was not aborted. */
function cancelledInFlight(controller: AbortController, body: unknown, seen: boolean[]) {
  return (request: { signal: AbortSignal }) => {
    controller.abort();
    seen.push(request.signal.aborted);
    return request.signal.aborted ? new DOMException("The operation was aborted.", "AbortError") : { body };
  };
}

it("with the signal already aborted: Cancelled., and nothing is sent", async () => {
  const { c, fake } = client((r) => ({ body: pageOf(r.url, 3) }));
  const controller = new AbortController();
  controller.abort();
  const error = await outcome(listCards(c, {}, { signal: controller.signal }).all());
  expect(error).toBeInstanceOf(CancelledError);
  expect((error as Error).message).toBe("Cancelled.");
  expect(fake.requests).toHaveLength(0);
});

it("the first page in flight is aborted the moment the user cancels", async () => {
  const controller = new AbortController();
  const seen: boolean[] = [];
  const { c, fake } = client((r) => cancelledInFlight(controller, pageOf(r.url, 3), seen)(r));
  const error = await outcome(listCards(c, {}, { signal: controller.signal }).all());
  expect(seen).toEqual([true]);
  expect(error).toBeInstanceOf(CancelledError);
  expect((error as Error).message).toBe("Cancelled.");
  expect(fake.requests).toHaveLength(1);
});

it("a page reached by a next link (no count) is aborted the moment the user cancels", async () => {
  const controller = new AbortController();
  const seen: boolean[] = [];
  const { c, fake } = client((r, i) => i === 0
    ? { body: { count: null, next: `${LIST}?page=2&page_size=2`, previous: null, results: pageOf(r.url, 4).results } }
    : cancelledInFlight(controller, { count: null, next: null, previous: null, results: [] }, seen)(r));
  const error = await outcome(listCards(c, {}, { pageSize: 2, signal: controller.signal }).all());
  expect(seen).toEqual([true]);
  expect(error).toBeInstanceOf(CancelledError);
  expect((error as Error).message).toBe("Cancelled.");
  expect(fake.requests).toHaveLength(2);
});

it("an error the service answers as the user cancels is not shown: Cancelled. is", async () => {
  const controller = new AbortController();
  // A transport that does not listen to the signal: the answer, a 500, arrives after the user cancelled.
  const { c } = client(() => {
    controller.abort();
    return { status: 500, body: { status: 500, error: "Internal error" } };
  });
  const error = await outcome(listCards(c, {}, { signal: controller.signal }).all());
  expect(error).toBeInstanceOf(CancelledError);
  expect((error as Error).message).toBe("Cancelled.");
});

describe("no listener is left on the caller's signal", () => {
  it.each<[string, Script, number]>([
    ["a list read to its end", (r) => ({ body: pageOf(r.url, 5) }), 2],
    ["a list that failed", (r, i) => (i === 0 ? { body: pageOf(r.url, 5) } : { status: 503, body: { status: 503, error: "busy" } }), 2],
  ])("%s", async (_what, script, pageSize) => {
    const { c } = client(script);
    const controller = new AbortController();
    await outcome(listCards(c, {}, { pageSize, concurrency: 1, signal: controller.signal }).all());
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a list the consumer left early", async () => {
    const { c } = client((r) => ({ body: pageOf(r.url, 5) }));
    const controller = new AbortController();
    for await (const record of listCards(c, {}, { pageSize: 2, concurrency: 1, signal: controller.signal })) {
      if (record.id === "r1") break;
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
