/** Timing helpers: medians of repeated runs, printed as ratios against a baseline of the same run. */

export interface Timed<T> {
  ms: number;
  value: T;
}

/** Runs `fn` `runs` times and returns the run with the median duration. */
export async function median<T>(runs: number, fn: () => Promise<T>): Promise<Timed<T>> {
  const results: Timed<T>[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const value = await fn();
    results.push({ ms: performance.now() - started, value });
  }
  results.sort((a, b) => a.ms - b.ms);
  return results[Math.floor(results.length / 2)];
}

export function rate(rows: number, ms: number): string {
  return `${Math.round((rows / ms) * 1000).toLocaleString("en-US")} rows/s`;
}

export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((cell, i) => String(cell).padEnd(widths[i])).join("  ")).join("\n");
}
