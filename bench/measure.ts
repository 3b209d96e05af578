/** Timing helpers: medians of repeated runs, printed as ratios against a baseline of the same run; heap and CPU. */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";

export interface Timed<T> {
  ms: number;
  value: T;
}


export function rate(rows: number, ms: number): string {
  return `${Math.round((rows / ms) * 1000).toLocaleString("en-US")} rows/s`;
}

export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((cell, i) => String(cell).padEnd(widths[i])).join("  ")).join("\n");
}

/** Handed to each way of `interleaved`: a way that must prepare something untimed starts the clock itself. */
export interface Clock {
  /** Collects the garbage of the preparation and starts timing from here. */
  start(): void;
}

/**
 * Runs every way once per round, round after round (a warm-up round first, not counted), and keeps each
 * way's median: on a shared, noisy machine a slow minute then costs every way alike, not just one. The heap
 * is collected before each run, untimed.
 */
export async function interleaved<W extends Record<string, (clock: Clock) => Promise<unknown>>>(
  rounds: number, ways: W, options: { warmUp?: boolean } = {},
): Promise<{ [K in keyof W]: Timed<Awaited<ReturnType<W[K]>>> & { all: number[] } }> {
  const results = new Map<keyof W, Timed<unknown>[]>();
  // Without the warm-up round (`warmUp: false`, for ways of minutes that the caller has already run once), round 0 counts.
  const first = options.warmUp === false ? 1 : 0;
  for (let round = first; round <= rounds; round++) {
    for (const name of Object.keys(ways) as (keyof W)[]) {
      collectGarbage(); // outside the timed part: no way pays for the garbage of the one before
      let started = performance.now();
      const value = await ways[name]({
        start: () => {
          collectGarbage();
          started = performance.now();
        },
      });
      if (round === 0) continue;
      const list = results.get(name) ?? [];
      list.push({ ms: performance.now() - started, value });
      results.set(name, list);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, list] of results) {
    const sorted = [...list].sort((a, b) => a.ms - b.ms);
    out[name as string] = { ...sorted[Math.floor(sorted.length / 2)], all: list.map((r) => Math.round(r.ms)) };
  }
  return out as { [K in keyof W]: Timed<Awaited<ReturnType<W[K]>>> & { all: number[] } };
}

/** Node's gc(), without a command-line flag (`--expose-gc` through V8's flags, then taken from a fresh context). */
export const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/**
 * The most heap `fn` uses above what was in use at its start, sampled while it runs. Sampled as it is
 * (every 5 ms), the figure depends on when V8 chooses to collect; with `live`, a full collection precedes
 * every sample (every 50 ms): what `fn` keeps alive. Slow, so never inside a timed run.
 */
async function peakHeap<T>(fn: () => Promise<T>, live: boolean, everyMs = live ? 50 : 5): Promise<{ value: T; peakBytes: number }> {
  if (live) collectGarbage();
  const base = getHeapStatistics().used_heap_size;
  let peak = base;
  const sample = () => {
    if (live) collectGarbage();
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
  };
  const timer = setInterval(sample, everyMs);
  try {
    const value = await fn();
    sample();
    return { value, peakBytes: peak - base };
  } finally {
    clearInterval(timer);
  }
}

/** Peak heap as V8 happens to hold it (see peakHeap). */
export const withPeakHeap = <T>(fn: () => Promise<T>) => peakHeap(fn, false);

/** Peak live heap, a collection before every sample (see peakHeap); `everyMs` spaces the samples of a long run. */
export const withPeakLiveHeap = <T>(fn: () => Promise<T>, everyMs?: number) => peakHeap(fn, true, everyMs);


/** CPU time of this process (user + system) spent in `fn`, beside its wall-clock time. */
export async function withCpu<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(before);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}

export const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** User + system CPU of a process or thread from its /proc stat file (Linux), in clock ticks of 10 ms. */
function statCpuMs(path: string): number {
  const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
  // After "pid (comm) ": state is field 3, utime field 14, stime field 15 (proc(5)).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time of this process's main thread (/proc/self/task/<pid>/stat): with the in-memory Excel in a worker
 * thread, the add-in's own CPU, without Excel's.
 */
const mainThreadCpuMs = () => statCpuMs(`/proc/self/task/${process.pid}/stat`);

/** CPU time of another process (the sandbox), every thread of it. */
export const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/** Main-thread CPU time spent in `fn` (see mainThreadCpuMs). */
export async function withThreadCpu<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = mainThreadCpuMs();
  const value = await fn();
  return { value, cpuMs: mainThreadCpuMs() - before };
}
