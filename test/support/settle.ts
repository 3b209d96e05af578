/** Promise helpers for tests that hold answers: let pending callbacks run, and see whether a promise has settled. */

/** Lets pending promise callbacks run for `turns` turns of the event loop (a held answer stays held). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether a promise has settled yet, and how. */
export function watch(promise: Promise<unknown>): { done: boolean; failed: unknown } {
  const state = { done: false, failed: null as unknown };
  promise.then(() => (state.done = true), (error: unknown) => (state.failed = error));
  return state;
}
