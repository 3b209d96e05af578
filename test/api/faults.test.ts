import { SpendClient, TimeoutError, listExpenses, listMovements } from "../../src/api";
import type { SandboxOptions } from "../../src/sandbox/server";
import { withSandbox } from "../support/sandbox";

/** Loads every expense of the first subsidiary through a faulty sandbox and checks nothing is lost or doubled. */
async function loadThrough(options: SandboxOptions, pageSize = 25) {
  const f = await withSandbox(options);
  try {
    const sub = f.enterprise.subsidiaries[0];
    const client = new SpendClient({
      baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key,
      retry: { baseDelayMs: 5, maxDelayMs: 50, retries: 8 }, timeoutMs: 5000,
    });
    const expenses = await listExpenses(client, sub, {}, { pageSize }).all();
    const expected = f.sandbox.store.expensesOf(sub).map((e) => e.id);
    return { ids: expenses.map((e) => e.id), expected, client, stats: { ...f.sandbox.faults.stats } };
  } finally {
    await f.sandbox.close();
  }
}

describe("loads through every fault of the sandbox return exactly count distinct records", () => {
  it("--latency", async () => {
    const r = await loadThrough({ faults: { latencyMs: 40 } });
    expect(r.ids).toEqual(r.expected);
  });

  it("--error-rate 0.3 (500s are retried)", async () => {
    const r = await loadThrough({ seed: 11, faults: { errorRate: 0.3 } });
    expect(r.ids).toEqual(r.expected);
    expect(r.stats.errors).toBeGreaterThan(0);
    expect(r.client.stats.retries).toBe(r.stats.errors);
  });

  it("--drop-rate 0.2 (dropped connections are retried)", async () => {
    const r = await loadThrough({ seed: 12, faults: { dropRate: 0.2 } });
    expect(r.ids).toEqual(r.expected);
    expect(r.stats.drops).toBeGreaterThan(0);
  });

  it("--rate-limit 5 (429 bursts wait for Retry-After)", async () => {
    const r = await loadThrough({ faults: { rateLimit: 5 } }, 25);
    expect(r.ids).toEqual(r.expected);
    expect(r.stats.rateLimited).toBeGreaterThan(0);
  });

  it("all of them at once, on movements too", async () => {
    const f = await withSandbox({ seed: 13, faults: { latencyMs: 10, errorRate: 0.15, dropRate: 0.1 } });
    try {
      const client = new SpendClient({
        baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key,
        retry: { baseDelayMs: 5, maxDelayMs: 50, retries: 8 },
      });
      const [card] = f.enterprise.cards;
      const movements = await listMovements(client, { cardId: card.id, billingPeriodId: card.billing_periods[0] }, {}, { pageSize: 10 }).all();
      expect(movements.map((m) => m.id).sort()).toEqual(f.sandbox.store.movementsOf(card.billing_periods[0]).map((m) => m.id).sort());
    } finally {
      await f.sandbox.close();
    }
  });
});

describe("timeouts against the real server", () => {
  it("a server slower than the timeout gives a TimeoutError", async () => {
    const f = await withSandbox({ faults: { latencyMs: 400 } });
    try {
      const client = new SpendClient({
        baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key, timeoutMs: 100,
        retry: { retries: 1, baseDelayMs: 5 },
      });
      const error = await listExpenses(client, f.enterprise.subsidiaries[0]).all().catch((e) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(client.stats.requests).toBe(2);
    } finally {
      await f.sandbox.close();
    }
  });
});
