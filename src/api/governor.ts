/**
 * The one request governor of the add-in, shared by the custom functions and the taskpane: identical calls
 * in flight are made once, distinct calls run at most `concurrency` at a time (a workbook of a thousand
 * =SPEND cells does not open a thousand requests), and results are kept per key for a time the user sets
 * (default 5 minutes) in a cache sized for thousands of cells, so that Excel recalculating a workbook does
 * not storm the service. Failures are not kept. The record functions' batches (functions/record-batch.ts)
 * use its two halves apart: `share` (a key's cache and its one call in flight) for each cell, `schedule` (a
 * place among the running calls) for the list pages and the GETs that answer them.
 *
 * The cache is lru-cache's. The places among the running calls are counted here, not by p-limit: p-limit 4 and
 * later are ES modules only (jest runs the tests as CommonJS), and p-limit starts a task a microtask later,
 * where a call with a free place is sent at once, synchronously.
 */
import { LRUCache } from "lru-cache";

export const DEFAULT_CACHE_MS = 5 * 60_000;
/** Distinct calls sent at once; the rest wait their turn (their deadline starts when they are sent). */
export const GOVERNOR_CONCURRENCY = 6;
/** Results kept at most: one per formula cell of a large workbook. */
export const MAX_ENTRIES = 10_000;
/** Cells of spilled grids kept at most, so that a few huge lists cannot hold the memory of the runtime. */
export const MAX_CACHED_CELLS = 2_000_000;

/** A kept result, boxed: lru-cache keeps no undefined or null, and a result may be either. */
interface Kept {
  value: unknown;
}

const cellsOf = (value: unknown) => (Array.isArray(value) ? value.reduce((n: number, row) => n + (Array.isArray(row) ? row.length : 1), 0) : 1);

/**
 * What lru-cache weighs a result at: lru-cache wants a weight of at least 1, and a grid may hold no cells. A
 * cell weighs more than the extra 1 of every entry together, so the bound below admits exactly what the cell
 * bound admitted: a result is kept iff its cells plus those kept are at most MAX_CACHED_CELLS (all in safe integers).
 */
const CELL_WEIGHT = MAX_ENTRIES + 1;
const weightOf = (kept: Kept) => cellsOf(kept.value) * CELL_WEIGHT + 1;

export class RequestGovernor {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /**
   * Results by key, least recently used evicted first (a hit makes its key the most recent, without renewing
   * its time). Two of lru-cache's ways are not the governor's, and are set apart here:
   * - lru-cache reads its clock through `perf` (performance.now by default, debounced by a timer of
   *   `ttlResolution` ms). The governor's clock is `now` (Date.now, which jest's fake timers drive; tests pass
   *   their own), read at every look-up and with no timer of its own: `ttlResolution: 0`, no `ttlAutopurge`.
   *   The clock is shifted by 1 because lru-cache reads a start of 0 as "no time limit", and a test clock starts at 0.
   * - lru-cache takes a result as expired once its age is over its ttl; the governor, once its age reaches
   *   cacheMs. `peek` asks the time left (`getRemainingTTL`) and forgets a result with none left.
   * The ttl is given per result (cacheMs when it was kept: the user may change cacheMs meanwhile).
   */
  private readonly cache: LRUCache<string, Kept>;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Calls that reached `fetch`, for tests and the taskpane's status line. */
  readonly stats = { calls: 0, fetches: 0, hits: 0, shared: 0, queued: 0 };

  constructor(public cacheMs: number = DEFAULT_CACHE_MS, now: () => number = Date.now, readonly concurrency = GOVERNOR_CONCURRENCY) {
    this.cache = new LRUCache<string, Kept>({
      max: MAX_ENTRIES,
      maxSize: MAX_CACHED_CELLS * CELL_WEIGHT + MAX_ENTRIES,
      sizeCalculation: weightOf,
      perf: { now: () => now() + 1 },
      ttlResolution: 0,
    });
  }

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
    if (this.cache.getRemainingTTL(key) <= 0) {
      this.cache.delete(key); // expired: its cells are given back
      return undefined;
    }
    return this.cache.get(key)?.value as T | undefined;
  }

  /** Forgets every cached result (Refresh data, a new connection). Calls in flight finish. */
  clear(): void {
    this.cache.clear();
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

  /** Keeps `value` for cacheMs, making room by forgetting the least recently used; one over the cell bound is not kept. */
  private remember(key: string, value: unknown): void {
    this.cache.set(key, { value }, { ttl: this.cacheMs });
  }
}
