/** The governor under a workbook of many =SPEND cells: a cap on distinct calls, deadlines from sending, a cache for thousands. */
import { GOVERNOR_CONCURRENCY, MAX_CACHED_CELLS, MAX_ENTRIES, RequestGovernor } from "../../src/api/governor";

/** A fetch the test finishes by hand, recording when it was sent. */
function manual() {
  const sent: string[] = [];
  const finish = new Map<string, (v: unknown) => void>();
  const fetch = (key: string) => () => new Promise((resolve) => {
    sent.push(key);
    finish.set(key, resolve);
  });
  return { sent, finish: (key: string) => finish.get(key)!(key), fetch };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the request governor's limits", () => {
  it(`runs at most ${GOVERNOR_CONCURRENCY} distinct calls at once; the others are sent, in order, as places free up`, async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    const m = manual();
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    const results = keys.map((k) => governor.run(k, m.fetch(k)));
    await tick();
    expect(m.sent).toEqual(keys.slice(0, 6));
    m.finish("k2");
    await tick();
    expect(m.sent).toEqual(keys.slice(0, 7));
    for (const k of keys) if (m.sent.includes(k)) m.finish(k);
    await tick();
    expect(m.sent).toEqual(keys.slice(0, 10));
    for (const k of keys.slice(7)) m.finish(k);
    expect(await Promise.all(results)).toEqual(keys);
    expect(governor.stats).toMatchObject({ fetches: 10, queued: 4 });
  });

  it("a failure frees its place and is not cached", async () => {
    const governor = new RequestGovernor(60_000, () => 0, 1);
    const first = governor.run("a", () => Promise.reject(new Error("503")));
    const second = governor.run("b", () => Promise.resolve(2));
    await expect(first).rejects.toThrow("503");
    await expect(second).resolves.toBe(2);
    expect(governor.peek("a")).toBeUndefined();
  });

  it("keeps thousands of results; beyond its size, the least recently used go first", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    for (let i = 0; i < MAX_ENTRIES; i++) await governor.run(`k${i}`, async () => [[i]]);
    expect(governor.size).toBe(MAX_ENTRIES);
    expect(governor.peek("k0")).toEqual([[0]]); // used now: k1 is the oldest
    await governor.run("new", async () => [["n"]]);
    expect(governor.size).toBe(MAX_ENTRIES);
    expect(governor.peek("k1")).toBeUndefined();
    expect(governor.peek("k0")).toEqual([[0]]);
    expect(governor.peek("k2")).toEqual([[2]]);
  });

  it("bounds the cells it keeps: a huge grid makes room by dropping the oldest, one over the bound is not kept", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    const grid = (rows: number) => Array.from({ length: rows }, () => [1, 2, 3, 4]);
    const third = Math.floor(MAX_CACHED_CELLS / 12); // rows of a third of the cells
    for (const key of ["a", "b", "c"]) await governor.run(key, async () => grid(third));
    expect(["a", "b", "c"].map((k) => governor.peek(k) !== undefined)).toEqual([true, true, true]);
    await governor.run("d", async () => grid(third));
    expect(["a", "b", "c", "d"].map((k) => governor.peek(k) !== undefined)).toEqual([false, true, true, true]);
    await governor.run("huge", async () => grid(MAX_CACHED_CELLS / 4 + 1));
    expect(["huge", "b", "c", "d"].map((k) => governor.peek(k) !== undefined)).toEqual([false, true, true, true]);
  });
});
