/**
 * The upstream deadline. The timer is injectable so tests fire it by hand instead of waiting; the default is
 * the platform's setTimeout, which Workers, Lambda, Azure Functions and Node all have.
 */

export interface Timer {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** An AbortSignal that fires after `ms` on `timer`; `expired` says whether it was the deadline that fired. */
export function deadline(timer: Timer, ms: number): { signal: AbortSignal; expired(): boolean; cancel(): void } {
  const controller = new AbortController();
  let fired = false;
  const handle = timer.set(() => {
    fired = true;
    controller.abort(new DOMException(`No answer within ${ms} ms.`, "TimeoutError"));
  }, ms);
  return { signal: controller.signal, expired: () => fired, cancel: () => timer.clear(handle) };
}
