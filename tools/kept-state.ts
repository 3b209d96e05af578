/**
 * Whether a run of `npm run mutate` would learn nothing new: its kept state (tools/mutation-state/<name>.json,
 * StrykerJS's incremental file) was made from exactly the sources of today. The state holds the text of every
 * mutated file and of every test file that ran; when each is byte for byte what it is now, and no test file was
 * added or removed, StrykerJS would reuse every verdict, after a dry run of all those tests (a minute or more
 * for a file of src/sync or src/sheets). With `--each`, such a file is skipped instead.
 * This is StrykerJS's own rule (a verdict stands while its code and its tests are unchanged): like it, a change
 * elsewhere in src/ (a module the mutated code imports) does not count; `--force` tests every mutant again.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The part of StrykerJS's incremental file read here (paths relative to the project's root). */
interface KeptSources {
  files: Record<string, { source?: string }>;
  testFiles?: Record<string, { source?: string }>;
}

/**
 * True when the state at `statePath` was made from `mutated` and `tests` (paths relative to `root`) exactly as
 * they are now; false when there is no state, or anything differs: a source, a file mutated or a test file more
 * or fewer.
 */
export function unchangedSince(statePath: string, root: string, mutated: readonly string[], tests: readonly string[]): boolean {
  if (!existsSync(statePath)) return false;
  const state = JSON.parse(readFileSync(statePath, "utf8")) as KeptSources;
  const same = (kept: Record<string, { source?: string }>, now: readonly string[]) => {
    const keys = Object.keys(kept);
    return keys.length === now.length && now.every((path) => {
      const source = kept[path]?.source;
      return source !== undefined && existsSync(join(root, path)) && readFileSync(join(root, path), "utf8") === source;
    });
  };
  return same(state.files, mutated) && same(state.testFiles ?? {}, tests);
}
