/**
 * What `npm run ledger` keeps of each break's last run (tools/ledger/results.json), and the rules both it and the
 * ledger's test share: how a break applies, and the digest that says whether a kept verdict still stands.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Break } from "./breaks";
import { parseTestRef } from "./rows";

export const RESULTS_FILE = "tools/ledger/results.json";

export interface Verdict {
  verdict: "caught" | "NOT caught" | "does not apply" | "error";
  detail?: string;
}

/** Keyed `<row>#<n>`: the n-th break of that row in breaks.ts. */
export type KeptResults = Record<string, Verdict & { digest: string }>;

/** How often `find` occurs in `text` (overlaps not counted). */
function occurrences(text: string, find: string): number {
  return find === "" ? 0 : text.split(find).length - 1;
}

/** The file's text with the break applied, or why it does not apply (its text must occur exactly once). */
export function applyBreak(text: string, brk: Break): string | { problem: string } {
  const n = occurrences(text, brk.find);
  if (n !== 1) return { problem: `find text occurs ${n} times in ${brk.file}` };
  if (brk.replace === brk.find) return { problem: "replace is the find text: nothing broken" };
  return text.replace(brk.find, () => brk.replace);
}

/**
 * The digest of what a verdict depends on: the break itself, the file it patches and the test file it runs, as
 * they are in `root`. A verdict whose digest differs from today's says nothing about today's code.
 */
export function breakDigest(root: string, brk: Break): string {
  const ref = parseTestRef(brk.test);
  const hash = createHash("sha256").update(JSON.stringify(brk)).update(readFileSync(join(root, brk.file)));
  if (ref) hash.update(readFileSync(join(root, ref.file)));
  return hash.digest("hex").slice(0, 16);
}
