import { withSandbox, type SandboxFixture } from "../support/sandbox";

const cardsPath = (f: SandboxFixture) => `${f.prefix}/corporate-cards/`;

async function attempt(f: SandboxFixture, method = "GET", path = cardsPath(f), body?: unknown) {
  try {
    return await f.call(method, path, { body });
  } catch (error) {
    return { dropped: true, error };
  }
}

/** Yields to the event loop until `condition` holds; gives up after a bounded number of turns, not a time. */
async function until(condition: () => boolean, turns = 200_000): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i === turns) throw new Error("condition never held");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("fault injection", () => {
  it("--latency holds every response until the requested delay has passed", async () => {
    // The sleep is ours: it records each requested delay and releases only when told. No clock involved.
    const delays: number[] = [];
    const release: (() => void)[] = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => {
      delays.push(ms);
      release.push(resolve);
    });
    const f = await withSandbox({ faults: { latencyMs: 120 }, faultTiming: { sleep } });
    try {
      let answered = false;
      const pending = f.call("GET", cardsPath(f)).then((res) => ((answered = true), res));
      const started = await Promise.race([
        pending.then(() => "answered"),
        until(() => delays.length === 1 || answered).then(() => (answered ? "answered" : "asleep")),
      ]);
      expect(started).toBe("asleep"); // the request waits in the sleep: it has not been answered
      expect(delays).toEqual([120]);
      expect(f.sandbox.faults.stats.requests).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBe(false);
      release[0]();
      expect((await pending).status).toBe(200);
      // Each further request asks for exactly one delay of its own.
      for (let i = 1; i <= 3; i++) {
        const next = f.call("GET", cardsPath(f));
        await until(() => delays.length === 1 + i);
        release[i]();
        expect((await next).status).toBe(200);
      }
      expect(delays).toEqual([120, 120, 120, 120]);
    } finally {
      await f.sandbox.close();
    }
  });

  it("--error-rate answers that share with a JSON 500, deterministically from the seed", async () => {
    const statuses: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const f = await withSandbox({ seed: 7, faults: { errorRate: 0.3 } });
      try {
        const seen: number[] = [];
        for (let i = 0; i < 60; i++) {
          const res = await f.call("GET", cardsPath(f));
          seen.push(res.status);
          if (res.status === 500) expect(res.json).toEqual({ status: 500, error: "Injected server error (sandbox --error-rate)." });
        }
        statuses.push(seen);
      } finally {
        await f.sandbox.close();
      }
    }
    const errors = statuses[0].filter((s) => s === 500).length;
    expect(errors).toBeGreaterThan(5);
    expect(errors).toBeLessThan(35);
    expect(statuses[1]).toEqual(statuses[0]);
  });

  it("--drop-rate closes connections without a response", async () => {
    const f = await withSandbox({ seed: 3, faults: { dropRate: 0.5 } });
    try {
      let dropped = 0;
      let ok = 0;
      for (let i = 0; i < 30; i++) {
        const r = await attempt(f);
        if ("dropped" in r) dropped++;
        else if (r.status === 200) ok++;
      }
      expect(dropped).toBeGreaterThan(3);
      expect(ok).toBeGreaterThan(3);
      expect(f.sandbox.faults.stats.drops).toBe(dropped);
    } finally {
      await f.sandbox.close();
    }
  });

  it("--rate-limit answers 429 with Retry-After above N requests in one second of the sandbox's clock", async () => {
    let now = 1_700_000_000_000; // the start of a second
    const f = await withSandbox({ faults: { rateLimit: 5 }, faultTiming: { now: () => now } });
    try {
      const results = await Promise.all(Array.from({ length: 12 }, () => f.call("GET", cardsPath(f))));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      const limited = results.filter((r) => r.status === 429);
      expect(limited).toHaveLength(7);
      expect(limited[0].headers.get("retry-after")).toBe("1");
      expect(limited[0].json.error).toMatch(/Too many requests/);
      now += 999; // still the same second
      expect((await f.call("GET", cardsPath(f))).status).toBe(429);
      now += 1; // the next second: a new window
      expect((await f.call("GET", cardsPath(f))).status).toBe(200);
      expect(f.sandbox.faults.stats.rateLimited).toBe(8);
    } finally {
      await f.sandbox.close();
    }
  });

  it("--lost-patch-rate applies the PATCH, then drops the connection", async () => {
    const f = await withSandbox({ faults: { lostPatchRate: 1 } });
    try {
      const sub = f.enterprise.subsidiaries[0];
      const expense = f.sandbox.store.expensesOf(sub).find((e) => e.state === "approved")!;
      const path = `${f.prefix}/subsidiaries/${sub}/expenses/${expense.id}/`;
      const r = await attempt(f, "PATCH", path, { state: "accounted", accounted_id: "LOST-1" });
      expect("dropped" in r).toBe(true);
      // The change was applied even though the client never heard so: read before retrying.
      const after = await f.call("GET", path);
      expect(after.json).toMatchObject({ state: "accounted", accounted_id: "LOST-1" });
      // A rejected PATCH is delivered normally.
      const again = await f.call("PATCH", path, { body: { state: "accounted" } });
      expect(again.json).toEqual({ status: 400, error: "Expense is already in accounted state" });
      expect(f.sandbox.faults.stats.lostPatches).toBe(1);
    } finally {
      await f.sandbox.close();
    }
  });
});
