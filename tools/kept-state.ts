/**
 * Whether a run of `npm run mutate` would learn nothing new: its kept state (tools/mutation-state/<name>.json,
 * StrykerJS's incremental file) was made from exactly the sources of today. The state holds the text of every
 * mutated file, and (`seen`, added by mutate.ts; StrykerJS ignores it) a digest of every test file that could
 * see them when the run began: StrykerJS itself keeps only the test files that covered a mutant, so a new test
 * file would not show. When all are byte for byte what they are now, and no test file was added or removed,
 * StrykerJS would reuse every verdict, after a dry run of all those tests (a minute or more for a file of
 * src/sync or src/sheets). With `--each`, such a file is skipped instead.
 * This is StrykerJS's own rule (a verdict stands while its code and its tests are unchanged): like it, a change
 * elsewhere in src/ (a module the mutated code imports) does not count; `--force` tests every mutant again.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The part of StrykerJS's incremental file read here (paths relative to the project's root), and what mutate.ts adds. */
interface KeptSources {
  files: Record<string, { source?: string }>;
  /** Each test file that could see the mutated code when the run began, with the digest of its text. */
  seen?: Record<string, string>;
}

const digestOf = (root: string, path: string) => createHash("sha256").update(readFileSync(join(root, path))).digest("hex");

/** The digests of `tests` (relative to `root`) as they are now: what a run's state records in `seen`. */
export function digestsOf(root: string, tests: readonly string[]): Record<string, string> {
  return Object.fromEntries(tests.map((path) => [path, digestOf(root, path)]));
}

/**
 * True when the state at `statePath` was made from `mutated` and `tests` (paths relative to `root`) exactly as
 * they are now; false when there is no state, or anything differs: a source, a file mutated or a test file more
 * or fewer.
 */
export function unchangedSince(statePath: string, root: string, mutated: readonly string[], tests: readonly string[]): boolean {
  if (!existsSync(statePath)) return false;
  const state = JSON.parse(readFileSync(statePath, "utf8")) as KeptSources;
  const sameCode = Object.keys(state.files).length === mutated.length && mutated.every((path) => {
    const source = state.files[path]?.source;
    return source !== undefined && existsSync(join(root, path)) && readFileSync(join(root, path), "utf8") === source;
  });
  if (!sameCode || state.seen === undefined) return false;
  const seen = state.seen;
  return Object.keys(seen).length === tests.length && tests.every((path) => existsSync(join(root, path)) && seen[path] === digestOf(root, path));
}
