/** Promise helpers for tests that hold answers: let pending callbacks run, and see whether a promise has settled. */

/** Lets pending promise callbacks run for `turns` turns of the event loop (a held answer stays held). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Lets the event loop run until `done()` holds, turn by turn, for at most `turns` turns (then throws). For code that
 * yields to a timer task (pagination's setTimeout(0) between pages): how many turns that takes depends on the
 * machine's speed, so a fixed number of turns is not enough on a loaded machine. What must *not* happen while an
 * answer is held is still asserted after a fixed settle().
 */
export async function until(done: () => boolean, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error(`still waiting after ${turns} turns of the event loop`);
}

/** An answer held until the test opens it: `opened` resolves once `open()` is called. */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Whether a promise has settled yet, and how. */
export function watch(promise: Promise<unknown>): { done: boolean; failed: unknown } {
  const state = { done: false, failed: null as unknown };
  promise.then(() => (state.done = true), (error: unknown) => (state.failed = error));
  return state;
}
