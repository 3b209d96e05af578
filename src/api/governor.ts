/**
 * The one request governor of the add-in, shared by the custom functions and the taskpane: identical calls
 * in flight are made once, distinct calls run at most `concurrency` at a time (a workbook of a thousand
 * =SPEND cells does not open a thousand requests), and results are kept per key for a time the user sets
 * (default 5 minutes) in a cache sized for thousands of cells, so that Excel recalculating a workbook does
 * not storm the service. Failures are not kept. The record functions' batches (functions/record-batch.ts)
 * use its two halves apart: `share` (a key's cache and its one call in flight) for each cell, `schedule` (a
 * place among the running calls) for the list pages and the GETs that answer them.
 */

export const DEFAULT_CACHE_MS = 5 * 60_000;
/** Distinct calls sent at once; the rest wait their turn (their deadline starts when they are sent). */
export const GOVERNOR_CONCURRENCY = 6;
/** Results kept at most: one per formula cell of a large workbook. */
export const MAX_ENTRIES = 10_000;
/** Cells of spilled grids kept at most, so that a few huge lists cannot hold the memory of the runtime. */
export const MAX_CACHED_CELLS = 2_000_000;

interface Entry {
  value: unknown;
  expires: number;
  cells: number;
}

const cellsOf = (value: unknown) => (Array.isArray(value) ? value.reduce((n: number, row) => n + (Array.isArray(row) ? row.length : 1), 0) : 1);

export class RequestGovernor {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Least recently used first (a Map keeps insertion order; a hit moves its entry to the end). */
  private readonly cache = new Map<string, Entry>();
  private cachedCells = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Calls that reached `fetch`, for tests and the taskpane's status line. */
  readonly stats = { calls: 0, fetches: 0, hits: 0, shared: 0, queued: 0 };

  constructor(public cacheMs: number = DEFAULT_CACHE_MS, private readonly now: () => number = Date.now, readonly concurrency = GOVERNOR_CONCURRENCY) {}

  /**
   * The value for `key`: from the cache, from the same call in flight, or fetched once when a place among
   * the `concurrency` running calls is free (`fetch` is called then, not before).
   */
  run<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    return this.share(key, () => this.schedule(fetch));
  }

  /**
   * The value for `key`: from the cache, from the same work in flight, or from `work` (called at once) whose
   * value is then cached under `key` like a fetch's. `work` takes no place among the running calls itself: it
   * takes places with `schedule` for the requests it makes (the record functions' batches: one list answers
   * many keys, and a key the list does not answer takes a place for its own GET).
   */
  share<T>(key: string, work: () => Promise<T>): Promise<T> {
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
    // A `work` that throws before its first await settles `started` at once: its finally has already run, and
    // the failure must not be kept as the key's call in flight (failures are not kept).
    let settled = false;
    const started = (async () => {
      try {
        const value = await work();
        if (this.cacheMs > 0) this.remember(key, value);
        return value;
      } finally {
        settled = true;
        this.inFlight.delete(key);
      }
    })();
    if (!settled) this.inFlight.set(key, started);
    return started;
  }

  /**
   * Runs `fetch` when a place among the `concurrency` running calls is free (at once, synchronously, when one
   * is), and frees the place when it settles. No key: nothing is shared or cached here.
   */
  schedule<T>(fetch: () => Promise<T>): Promise<T> {
    const send = async (): Promise<T> => {
      this.stats.fetches++;
      try {
        return await fetch();
      } finally {
        this.release();
      }
    };
    // A free place: sent at once (synchronously, as before the cap); otherwise queued until one frees up.
    return this.running < this.concurrency ? (this.running++, send()) : this.queue().then(send);
  }

  /** A cached value that has not expired, or undefined. Never fetches (formula value preview uses it). */
  peek<T>(key: string): T | undefined {
    const entry = this.cache.get(key);
    if (!entry) return undefined;
    this.cache.delete(key);
    if (entry.expires <= this.now()) {
      this.cachedCells -= entry.cells;
      return undefined;
    }
    this.cache.set(key, entry);
    return entry.value as T;
  }

  /** Forgets every cached result (Refresh data, a new connection). Calls in flight finish. */
  clear(): void {
    this.cache.clear();
    this.cachedCells = 0;
  }

  /** Results cached now (tests, diagnostics). */
  get size(): number {
    return this.cache.size;
  }

  private queue(): Promise<void> {
    this.stats.queued++;
    return new Promise((resolve) => this.waiting.push(() => resolve()));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private remember(key: string, value: unknown): void {
    const old = this.cache.get(key);
    if (old) {
      this.cache.delete(key);
      this.cachedCells -= old.cells;
    }
    const cells = cellsOf(value);
    if (cells > MAX_CACHED_CELLS) return;
    while (this.cache.size >= MAX_ENTRIES || this.cachedCells + cells > MAX_CACHED_CELLS) {
      const [oldest, entry] = this.cache.entries().next().value as [string, Entry];
      this.cache.delete(oldest);
      this.cachedCells -= entry.cells;
    }
    this.cache.set(key, { value, expires: this.now() + this.cacheMs, cells });
    this.cachedCells += cells;
  }
}
