import { inspect } from "node:util";
import {
  AuthError, CancelledError, CrossOriginError, DEFAULT_RETRY, DataMovedError, NetworkError, RateLimitError, ServerError,
  SpendClient, TimeoutError, backoffDelay, getCard, listCards, parseRetryAfter, updateExpense,
} from "../../src/api";
import { createServer } from "node:net";
import * as pageDecode from "../../src/api/page-decode";
import { card, fakeTransport, pageOf, type Script } from "../support/fake-transport";

const KEY = "sk_live_0123456789abcdef";
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

function client(script: Script, extra: Partial<ConstructorParameters<typeof SpendClient>[0]> = {}) {
  const fake = fakeTransport(script);
  const c = new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport, retry: fast, ...extra });
  return { c, fake };
}

/** A client whose waits are recorded instead of slept: delays are asserted as numbers, never as elapsed time. */
function recordingClient(script: Script, extra: Partial<ConstructorParameters<typeof SpendClient>[0]> = {}) {
  const waits: number[] = [];
  const made = client(script, { sleep: async (ms) => void waits.push(ms), ...extra });
  return { ...made, waits };
}

describe("requests", () => {
  it("carry the key in the Authorization header, under the base URL's path", async () => {
    const { c, fake } = client((r) => ({ body: pageOf(r.url, 1) }));
    await listCards(c).all();
    expect(fake.requests[0].headers.Authorization).toBe(`Api-Key ${KEY}`);
    expect(fake.requests[0].url).toBe("https://spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=1&page_size=100");
  });
});

describe("retry policy", () => {
  it("is typed data with explicit defaults", () => {
    expect(DEFAULT_RETRY).toEqual({ retries: 4, baseDelayMs: 300, maxDelayMs: 10000, jitter: 0.5, statuses: [429, 500, 502, 503, 504], maxRetryAfterMs: 60000 });
    expect(Object.isFrozen(DEFAULT_RETRY)).toBe(true);
  });

  it("backs off exponentially, capped, with jitter", () => {
    const policy = { ...DEFAULT_RETRY };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(policy, n, () => 0))).toEqual([300, 600, 1200, 2400, 4800, 9600]);
    expect(backoffDelay(policy, 10, () => 0)).toBe(10000);
    expect(backoffDelay(policy, 1, () => 1)).toBe(150);
  });

  it("reads Retry-After in seconds and as an HTTP date", () => {
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("retries a GET after 5xx, network errors and 429, honouring Retry-After in both forms", async () => {
    const now = Date.parse("2026-11-21T10:00:00Z");
    const replies = [
      { status: 503, body: { status: 503, error: "busy" } },
      new TypeError("fetch failed"),
      { status: 429, headers: { "Retry-After": "Sat, 21 Nov 2026 10:00:03 GMT" }, body: { status: 429, error: "slow" } },
      { status: 502, headers: { "Retry-After": "7" }, body: { status: 502, error: "gateway" } },
      { body: { ...card("r1"), status: 200, error: "" } },
    ];
    const { c, fake, waits } = recordingClient((_r, i) => replies[i], { now: () => now, random: () => 0 });
    const result = await getCard(c, "r1");
    expect(result.id).toBe("r1");
    expect(fake.requests).toHaveLength(5);
    expect(c.stats).toEqual({ requests: 5, retries: 4 });
    // Backoff (base 1 ms, doubled) where the service said nothing; its own delay where it did, a 5xx included.
    expect(waits).toEqual([1, 2, 3000, 7000]);
  });

  it("waits before each retry, never after the last attempt, and sends nothing while it waits", async () => {
    const events: string[] = [];
    const fake = fakeTransport(() => {
      events.push("request");
      return { status: 503, headers: { "Retry-After": "2" }, body: { status: 503, error: "busy" } };
    });
    const c = new SpendClient({
      baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport, retry: { ...fast, retries: 2 },
      sleep: async (ms) => void events.push(`wait ${ms}`),
    });
    await expect(getCard(c, "x")).rejects.toBeInstanceOf(ServerError);
    expect(events).toEqual(["request", "wait 2000", "request", "wait 2000", "request"]);
  });

  it("gives up after the policy's retries with the last error", async () => {
    const { c, fake } = client(() => ({ status: 500, body: { status: 500, error: "boom" } }), { retry: { ...fast, retries: 2 } });
    const error = await getCard(c, "x").catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('The service failed (HTTP 500) while reading corporate card x; try again later. The service said: "boom"');
    expect(fake.requests).toHaveLength(3);
  });

  it("does not wait for a Retry-After longer than the policy allows", async () => {
    const { c, fake } = client(() => ({ status: 429, headers: { "Retry-After": "3600" }, body: { status: 429, error: "later" } }));
    const error = await getCard(c, "x").catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(fake.requests).toHaveLength(1);
  });

  it("never retries a PATCH, whatever the failure", async () => {
    for (const reply of [{ status: 500, body: {} }, new TypeError("fetch failed"), { status: 429, headers: { "Retry-After": "0" }, body: {} }]) {
      const { c, fake } = client(() => reply);
      await expect(updateExpense(c, "s", "e", { state: "paid" })).rejects.toBeInstanceOf(Error);
      expect(fake.requests).toHaveLength(1);
    }
  });
});

describe("errors", () => {
  it("403 is an AuthError written for a finance user, with the server's message", async () => {
    const { c } = client(() => ({ status: 403, body: { status: 403, error: "Invalid API key." } }));
    const error = await getCard(c, "x").catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.name).toBe("AuthError");
    expect(error.status).toBe(403);
    expect(error.message).toBe(
      'The API key was refused for enterprise ent-1. Check the key and the enterprise id in the connection settings. The service said: "Invalid API key."',
    );
  });

  it("never carries the key: not in messages, not in properties, not when inspected or serialised", async () => {
    const echo = `Key ${KEY} is not valid`;
    const cases: Script[] = [
      () => ({ status: 403, body: { status: 403, error: echo } }),
      () => ({ status: 400, body: { status: 400, error: echo } }),
      () => ({ status: 500, text: `<html>${KEY}</html>` }),
      () => Object.assign(new TypeError("fetch failed"), { cause: { message: `socket for ${KEY} closed` } }),
    ];
    for (const script of cases) {
      const { c } = client(script, { retry: { retries: 0 } });
      const error = await getCard(c, "x").catch((e) => e);
      expect(error).toBeInstanceOf(Error);
      for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), error.stack]) {
        expect(text).not.toContain(KEY);
      }
    }
    const { c } = client(() => ({ body: {} }));
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(c)).not.toContain(KEY);
  });
});

describe("security: the key goes only to the configured origin", () => {
  it("refuses a next link to another origin, without sending anything there", async () => {
    const { c, fake } = client((r) =>
      r.url.includes("evil")
        ? { body: pageOf(r.url, 4) }
        : { body: { count: null, next: "https://evil.example/public/v1/enterprises/ent-1/corporate-cards/?page=2", previous: null, results: pageOf(r.url, 4).results } },
    );
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect(error.message).toBe("Refused to follow a link to https://evil.example: the API key is only sent to https://spend.example.");
    expect(fake.requests.map((r) => new URL(r.url).origin)).toEqual(["https://spend.example"]);
  });

  it("follows next on the same origin when the count is missing", async () => {
    const { c, fake } = client((r) => ({ body: { ...pageOf(r.url, 5), count: undefined } }));
    const all = await listCards(c, {}, { pageSize: 2 }).all();
    expect(all.map((x) => x.id)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(fake.requests).toHaveLength(3);
  });
});

describe("pagination", () => {
  it("fetches the remaining pages concurrently, bounded, and yields them in order with progress", async () => {
    const { c, fake } = client((r) => ({ body: pageOf(r.url, 95), delayMs: 30 - (Number(new URL(r.url).searchParams.get("page")) % 5) * 5 }));
    const progress: [number, number | null][] = [];
    const pages: number[] = [];
    const ids: string[] = [];
    for await (const page of listCards(c, {}, { pageSize: 10, concurrency: 3, onProgress: (l, t) => progress.push([l, t]) }).pages()) {
      pages.push(page.page);
      ids.push(...page.results.map((r) => r.id));
    }
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ids).toEqual(Array.from({ length: 95 }, (_, i) => `r${i + 1}`));
    expect(fake.maxInFlight()).toBe(3);
    expect(progress[0]).toEqual([10, 95]);
    expect(progress.at(-1)).toEqual([95, 95]);
  });

  it("says clearly when the data moved while paging", async () => {
    const { c } = client((r, i) => ({ body: pageOf(r.url, i === 0 ? 30 : 29) }));
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(DataMovedError);
    expect(error.message).toBe("The corporate cards changed on the server while loading (the total changed between pages; expected 30 records). Load again.");
  });

  it("detects duplicates across pages when the total stays the same", async () => {
    const { c } = client((r) => {
      const body = pageOf(r.url, 20) as { results: { id: string }[] };
      if (r.url.includes("page=2")) body.results[0].id = "r1";
      return { body };
    });
    await expect(listCards(c, {}, { pageSize: 10 }).all()).rejects.toBeInstanceOf(DataMovedError);
  });

  it("stops the pages still in flight when the consumer leaves early, and asks for none after", async () => {
    // Every page after the first is held until the test lets it go: what is in flight is decided here, not by timing.
    const held = new Map<number, () => void>();
    const { c, fake } = client(async (r) => {
      const page = Number(new URL(r.url).searchParams.get("page"));
      if (page > 1) await new Promise<void>((resolve) => held.set(page, resolve));
      return { body: pageOf(r.url, 100) };
    });
    const pages = () => fake.requests.map((r) => new URL(r.url).searchParams.get("page"));
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const item of listCards(c, {}, { pageSize: 10, concurrency: 4 })) {
        seen.push(item.id);
        if (item.id === "r15") break;
      }
    })();
    await settled();
    // Page 1 read; pages 2 to 5 in flight (four at a time).
    expect(pages()).toEqual(["1", "2", "3", "4", "5"]);
    held.get(2)!();
    await consumer;
    // Page 2 arrived and gave its place on the network to page 6; the consumer left at r15, in page 2.
    expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => `r${i + 1}`));
    expect(pages()).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(fake.requests.map((r) => r.signal.aborted)).toEqual([false, false, true, true, true, true]);
    for (const release of held.values()) release();
    await settled();
    expect(pages()).toHaveLength(6);
  });
});

describe("pagination: the network is never idle while a page is parsed", () => {
  /** Answers are held until the test lets them go, in any order; every step is logged. */
  const originalDecode = pageDecode.decodePage;
  afterEach(() => jest.restoreAllMocks());

  function heldClient(total: number, concurrency: number) {
    const log: string[] = [];
    const held = new Map<number, () => void>();
    const { c, fake } = client(async (r) => {
      const page = Number(new URL(r.url).searchParams.get("page"));
      log.push(`ask ${page}`);
      if (page > 1) await new Promise<void>((resolve) => held.set(page, resolve));
      log.push(`text ${page}`);
      return { body: pageOf(r.url, total) };
    }, { concurrency });
    const decode = originalDecode;
    jest.spyOn(pageDecode, "decodePage").mockImplementation((text, request) => {
      log.push(`parse ${request.page}`);
      return decode(text, request);
    });
    const release = async (page: number) => {
      held.get(page)!();
      held.delete(page);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    return { c, fake, log, held, release };
  }

  it("a page's place goes to the next page as soon as its text is in hand, before that text is parsed", async () => {
    const { c, log, held, release } = heldClient(200, 3);
    const pages = listCards(c, {}, { pageSize: 10 }).pages();
    expect((await pages.next()).value.page).toBe(1);
    const second = pages.next(); // the consumer asks for page 2: pages 2 to 4 go out (3 at once)
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([...held.keys()]).toEqual([2, 3, 4]);
    await release(3); // page 3 answers first: page 5 is asked for before page 3 is parsed
    expect(log.slice(log.indexOf("text 3"))).toEqual(["text 3", "ask 5", "parse 3"]);
    await release(2);
    expect(log.slice(log.indexOf("text 2"))).toEqual(["text 2", "ask 6", "parse 2"]);
    expect((await second).value.page).toBe(2);
    await pages.return(undefined);
  });

  it("a slow consumer holds at most 2 x concurrency pages beyond the one it has; never more than concurrency on the network", async () => {
    const { c, fake, held, release } = heldClient(500, 3);
    const pages = listCards(c, {}, { pageSize: 10 }).pages();
    await pages.next();
    const second = pages.next();
    // Every answer is let go as soon as it is asked for; the consumer keeps page 2 and asks for nothing more.
    for (let round = 0; round < 20 && held.size > 0; round++) for (const page of [...held.keys()]) await release(page);
    expect((await second).value.page).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = fake.requests.map((r) => Number(new URL(r.url).searchParams.get("page")));
    expect(asked).toEqual([1, 2, 3, 4, 5, 6, 7, 8]); // page 1, page 2 (held by the consumer), then 2 x 3
    expect(fake.maxInFlight()).toBe(3);
    // The consumer takes one page: exactly one more is asked for.
    expect((await pages.next()).value.page).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const page of [...held.keys()]) await release(page);
    expect(fake.requests.map((r) => Number(new URL(r.url).searchParams.get("page")))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await pages.return(undefined);
  });

  it("after a page fails, nothing more is asked for, and the failure ends the list at its turn", async () => {
    const { c, fake } = client((r) => {
      const page = Number(new URL(r.url).searchParams.get("page"));
      return page === 2 ? { status: 404, body: { status: 404, error: "gone" } } : { body: pageOf(r.url, 200), delayMs: page === 1 ? 0 : 30 };
    }, { concurrency: 3 });
    const error = await listCards(c, {}, { pageSize: 10 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(DataMovedError);
    expect(error.message).toBe("The corporate cards changed on the server while loading (page 2 no longer exists; expected 200 records). Load again.");
    // Pages 2 to 4 went out at once; page 2's failure gave its place to no one, and 3 and 4 were stopped.
    expect(fake.requests.map((r) => Number(new URL(r.url).searchParams.get("page")))).toEqual([1, 2, 3, 4]);
    expect(fake.requests.map((r) => r.signal.aborted)).toEqual([false, false, true, true]);
  });
});

describe("cancellation and timeouts", () => {
  it("an AbortSignal cancels a list in flight with CancelledError", async () => {
    const { c } = client((r) => ({ body: pageOf(r.url, 100), delayMs: 50 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 80);
    const error = await listCards(c, {}, { pageSize: 10, signal: controller.signal }).all().catch((e) => e);
    expect(error).toBeInstanceOf(CancelledError);
  });

  it("an already aborted signal sends nothing", async () => {
    const { c, fake } = client((r) => ({ body: pageOf(r.url, 1) }));
    const controller = new AbortController();
    controller.abort();
    await expect(listCards(c, {}, { signal: controller.signal }).all()).rejects.toBeInstanceOf(CancelledError);
    expect(fake.requests).toHaveLength(0);
  });

  it("a request that takes longer than the timeout is a TimeoutError, after the retries", async () => {
    const { c, fake } = client((r) => ({ body: pageOf(r.url, 1), delayMs: 1000 }), { timeoutMs: 40, retry: { ...fast, retries: 1 } });
    const error = await getCard(c, "x").catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("The service did not answer within 40 ms while reading corporate card x.");
    expect(fake.requests).toHaveLength(2);
  });

  it("a refused connection is a NetworkError naming the service", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const c = new SpendClient({ baseUrl: `http://127.0.0.1:${port}`, enterpriseId: "e", apiKey: KEY, retry: { retries: 0 } });
    const error = await getCard(c, "x").catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`Could not reach the service at http://127.0.0.1:${port} while reading corporate card x: fetch failed (ECONNREFUSED).`);
  });
});
