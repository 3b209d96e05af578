/**
 * `npm run ledger [-- R-id ...] [--stale]`: proves the ledger of Excel's rules (docs/excel-checks.md) row by row. Each break
 * of tools/ledger/breaks.ts (a small patch that breaks its row's rule in the in-memory Excel or the add-in) is
 * applied in turn, and the row's "Enforced by" test is run on it alone (jest on its file, -t its name): the row is
 * *caught* when that test fails, NOT caught when it still passes. Exits non-zero when any break is not caught or
 * does not apply (its `find` text missing or not unique). With `--stale`, only the breaks whose kept verdict is
 * missing, not "caught", or about other files than today's.
 *
 * The patches are made in a copy of the project (tracked and untracked files, node_modules linked) under the
 * system's temporary folder, never in the working tree, so a run killed half-way leaves nothing patched. The copy
 * keeps its path from run to run, so jest's transform cache stays warm. Each verdict is kept in
 * tools/ledger/results.json with a digest of the broken file and the test file, which test/docs/ledger-breaks.test.ts
 * reads (docs/testing.md).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { BREAKS, type Break } from "./breaks";
import { applyBreak, breakDigest, RESULTS_FILE, type KeptResults, type Verdict } from "./results";
import { ledgerRows, parseTestRef } from "./rows";

const ROOT = resolve(__dirname, "..", "..");
/** Longer than any one test file's run here; a break that hangs a test past jest's own timeout still ends. */
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

/** A copy of the project to patch: the same path on every run (a warm jest cache), its files fresh. */
function makeCopy(): string {
  const copy = join(tmpdir(), `spend-sync-ledger-${createHash("sha256").update(ROOT).digest("hex").slice(0, 8)}`);
  rmSync(copy, { recursive: true, force: true });
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree, not yet in git
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(copy, "node_modules"));
  return copy;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Runs the named test in the copy; how many of its tests failed, how many ran. */
function runTest(copy: string, testRef: string): { failed: number; ran: number; error?: string } {
  const ref = parseTestRef(testRef);
  if (!ref) return { failed: 0, ran: 0, error: `not a test reference: ${testRef}` };
  const out = join(copy, ".ledger-jest.json");
  rmSync(out, { force: true });
  const run = spawnSync(join(copy, "node_modules", ".bin", "jest"), ["--ci", "--json", `--outputFile=${out}`, ref.file, "-t", escapeRegExp(ref.name)], {
    cwd: copy, stdio: ["ignore", "ignore", "pipe"], timeout: RUN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: "utf8",
  });
  if (!existsSync(out)) {
    // jest ends without its JSON when the process dies (a patch that crashes it): its own summary may still say.
    const summary = /Tests:\s+(\d+) failed/.exec(run.stderr ?? "");
    if (summary) return { failed: Number(summary[1]), ran: Number(summary[1]) };
    const last = (run.stderr ?? "").trim().split("\n").slice(-3).join(" / ").slice(0, 300);
    return { failed: 0, ran: 0, error: `jest wrote no result (${run.signal ?? `exit ${run.status}`}): ${last}` };
  }
  const result = JSON.parse(readFileSync(out, "utf8")) as { numFailedTests: number; numPassedTests: number; testResults: { testExecError?: { message: string } }[] };
  const execError = result.testResults.find((r) => r.testExecError)?.testExecError?.message;
  return { failed: result.numFailedTests, ran: result.numFailedTests + result.numPassedTests, error: execError };
}

/** Applies one break in the copy, runs its test, puts the file back; its verdict. */
function proveBreak(copy: string, brk: Break): Verdict {
  const path = join(copy, brk.file);
  const original = readFileSync(path, "utf8");
  const patched = applyBreak(original, brk);
  if (typeof patched !== "string") return { verdict: "does not apply", detail: patched.problem };
  try {
    writeFileSync(path, patched);
    const run = runTest(copy, brk.test);
    if (run.failed > 0) return { verdict: "caught", detail: `${run.failed} of ${run.ran} failed` };
    if (run.error) return { verdict: "error", detail: run.error.split("\n")[0] };
    return { verdict: "NOT caught", detail: run.ran === 0 ? "no test of that name ran" : `${run.ran} passed` };
  } finally {
    writeFileSync(path, original);
  }
}

function main(): void {
  const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const rows = ledgerRows(ROOT);
  const enforced = rows.filter((r) => r.test);
  const resultsPath = join(ROOT, RESULTS_FILE);
  const kept: KeptResults = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, "utf8")) as KeptResults) : {};
  const keyOf = (brk: Break) => `${brk.row}#${BREAKS.filter((b) => b.row === brk.row).indexOf(brk)}`;
  // --stale: only the breaks whose kept verdict is missing, not "caught", or about other files than today's.
  const stale = (brk: Break) => kept[keyOf(brk)]?.verdict !== "caught" || kept[keyOf(brk)].digest !== breakDigest(ROOT, brk);
  const chosen = BREAKS.filter((b) => (only.length === 0 || only.some((id) => b.row === id || b.row.startsWith(id))) && (!process.argv.includes("--stale") || stale(b)));
  const copy = makeCopy();
  console.log(`ledger: ${chosen.length} breaks in ${copy}`);
  let bad = 0;
  try {
    chosen.forEach((brk, i) => {
      const verdict = proveBreak(copy, brk);
      if (verdict.verdict !== "caught") bad++;
      const key = keyOf(brk);
      // The digest of what was tested: the copy's files, as they were when the run began.
      kept[key] = { ...verdict, digest: breakDigest(copy, brk) };
      console.log(`[${i + 1}/${chosen.length}] ${verdict.verdict.padEnd(14)} ${brk.row}  (${brk.file}; ${verdict.detail ?? ""})`);
      // Only today's breaks are kept: a verdict of a break since removed or moved would mislead.
      const current = new Set(BREAKS.map(keyOf));
      writeFileSync(resultsPath, `${JSON.stringify(Object.fromEntries(Object.entries(kept).filter(([k]) => current.has(k)).sort()), null, 1)}\n`);
    });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const brokenRows = new Set(chosen.map((b) => b.row));
  const caughtRows = [...brokenRows].filter((row) => chosen.filter((b) => b.row === row).every((b) => kept[keyOf(b)]?.verdict === "caught"));
  console.log(`ledger: ${rows.length} rows, ${enforced.length} enforced; ${brokenRows.size} rows broken by ${chosen.length} breaks; ${caughtRows.length} rows caught, ${chosen.length - bad} of ${chosen.length} breaks caught`);
  process.exitCode = bad > 0 ? 1 : 0;
}

main();
