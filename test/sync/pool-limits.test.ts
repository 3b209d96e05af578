/**
 * The pool behind Sync states' senders and the confirmation's GETs: items taken in order, never more than
 * `limit` at work at once (and never fewer while items wait), none taken once `stop()` says so, nothing run
 * for no items.
 */
import { pool } from "../../src/sync/pool";

/** Runs the pool over `n` items whose work waits for the test to finish them; returns what it saw. */
async function watch(n: number, limit: number, stopAfter = Infinity) {
  const started: number[] = [];
  let running = 0;
  let most = 0;
  const finished: number[] = [];
  const done = pool(Array.from({ length: n }, (_, i) => i), limit, async (i) => {
    started.push(i);
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, (i % 3) * 2));
    running--;
    finished.push(i);
  }, () => finished.length >= stopAfter);
  await done;
  return { started, most };
}

it("three at once over ten items: each taken once, in order, three at work while items wait", async () => {
  const { started, most } = await watch(10, 3);
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(most).toBe(3);
});

it("a limit above the items: one worker per item", async () => {
  expect((await watch(2, 6)).most).toBe(2);
});

it("a limit of 0 still runs, one at a time", async () => {
  expect(await watch(3, 0)).toEqual({ started: [0, 1, 2], most: 1 });
});

it("no items: nothing runs", async () => {
  expect(await watch(0, 3)).toEqual({ started: [], most: 0 });
});

it("stop() true after the second item finished: one at a time, no third item taken", async () => {
  expect((await watch(5, 1, 2)).started).toEqual([0, 1]);
});

it("without a stop(): every item", async () => {
  const seen: number[] = [];
  await pool([1, 2, 3], 2, async (i) => void seen.push(i));
  expect(seen).toEqual([1, 2, 3]);
});
