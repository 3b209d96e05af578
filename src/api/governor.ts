/**
 * The one request governor of the add-in, shared by the custom functions and the taskpane: identical calls
 * in flight are made once, and results are kept per key for a time the user sets (default 5 minutes), so
 * that Excel recalculating a workbook does not storm the service. Failures are not kept.
 */

export const DEFAULT_CACHE_MS = 5 * 60_000;
const MAX_ENTRIES = 500;

interface Entry {
  value: unknown;
  expires: number;
}

export class RequestGovernor {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly cache = new Map<string, Entry>();
  /** Calls that reached `fetch`, for tests and the taskpane's status line. */
  readonly stats = { calls: 0, fetches: 0, hits: 0, shared: 0 };

  constructor(public cacheMs: number = DEFAULT_CACHE_MS, private readonly now: () => number = Date.now) {}

  /** The value for `key`: from the cache, from the same call in flight, or fetched once. */
  run<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    this.stats.calls++;
    const hit = this.peek<T>(key);
    if (hit !== undefined) {
      this.stats.hits++;
      return Promise.resolve(hit);
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.stats.shared++;
      return pending as Promise<T>;
    }
    this.stats.fetches++;
    const started = fetch().then(
      (value) => {
        this.inFlight.delete(key);
        if (this.cacheMs > 0) this.remember(key, value);
        return value;
      },
      (error) => {
        this.inFlight.delete(key);
        throw error;
      },
    );
    this.inFlight.set(key, started);
    return started;
  }

  /** A cached value that has not expired, or undefined. Never fetches (formula value preview uses it). */
  peek<T>(key: string): T | undefined {
    const entry = this.cache.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.cache.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Forgets every cached result (Refresh data, a new connection). Calls in flight finish. */
  clear(): void {
    this.cache.clear();
  }

  private remember(key: string, value: unknown): void {
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { value, expires: this.now() + this.cacheMs });
  }
}
