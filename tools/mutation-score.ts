/**
 * `npx tsx tools/mutation-score.ts reports/mutation/<name>/mutation.json [more reports] [--survivors] [--min 90]`
 *
 * The score of issue 26 from StrykerJS's JSON report: killed / (killed + survived), where a timeout counts as
 * killed, a mutant no test covered counts as survived, and so does a mutant silenced by a `// Stryker disable`
 * comment (status Ignored). Mutants that do not compile (CompileError) or crash the code (RuntimeError) are not
 * bugs a user could meet and are left out. The only other mutants left out are those listed as equivalent in
 * docs/testing.md, one line each: `- src/file.ts:LINE:COLUMN MutatorName — why no user could tell` (the column may be left out to
 * cover every such mutant on the line).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The part of mutation-testing-report-schema (what Stryker's JSON reporter writes) that the score reads. */
export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

/** A mutant recorded as equivalent: no user could tell it from the original code. */
export interface Equivalent {
  file: string;
  line: number;
  /** Where on the line the mutant starts, as the survivor list prints it (file:line:column); without it, any column. */
  column?: number;
  mutator: string;
}

export interface Score {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  equivalent: number;
  /** killed (timeouts included) / (killed + survived), in percent; null when there is nothing to score. */
  percent: number | null;
  /** Survivors as `file:line Mutator (replacement)`, in file and line order. */
  survivors: string[];
}

const EQUIVALENT_LINE = /^\s*[-*]\s+`?(src\/[^\s:`]+):(\d+)(?::(\d+))?`?\s+`?([A-Za-z]+)`?\s/;

/** Reads the equivalent-mutant list: every list item of the form `- src/file.ts:LINE Mutator why`. */
export function parseEquivalents(markdown: string): Equivalent[] {
  const found: Equivalent[] = [];
  for (const line of markdown.split("\n")) {
    const match = EQUIVALENT_LINE.exec(line);
    if (match) found.push({ file: match[1], line: Number(match[2]), ...(match[3] ? { column: Number(match[3]) } : {}), mutator: match[4] });
  }
  return found;
}

/** Scores a report: see the top of this file for what counts as what. */
export function score(report: MutationReport, equivalents: Equivalent[]): Score {
  const result: Score = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, equivalent: 0, percent: null, survivors: [] };
  const listed = (file: string, m: ReportMutant) =>
    equivalents.some((e) => file.endsWith(e.file) && e.line === m.location.start.line && (e.column === undefined || e.column === m.location.start.column) &&
      e.mutator === m.mutatorName);
  const files = Object.keys(report.files).sort();
  for (const file of files) {
    const mutants = [...report.files[file].mutants].sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    for (const m of mutants) {
      if (m.status === "Killed") result.killed++;
      else if (m.status === "Timeout") result.timeout++;
      else if (m.status === "Survived" || m.status === "NoCoverage" || m.status === "Ignored") {
        if (listed(file, m)) {
          result.equivalent++;
          continue;
        }
        if (m.status === "Survived") result.survived++;
        else if (m.status === "NoCoverage") result.noCoverage++;
        else result.ignored++;
        const replacement = m.replacement === undefined ? "" : ` ${JSON.stringify(m.replacement.length > 60 ? `${m.replacement.slice(0, 60)}…` : m.replacement)}`;
        result.survivors.push(`${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}${replacement} [${m.status}]`);
      }
    }
  }
  const killed = result.killed + result.timeout;
  const total = killed + result.survived + result.noCoverage + result.ignored;
  result.percent = total === 0 ? null : (100 * killed) / total;
  return result;
}

/** One line a person reads: the counts and the score with one decimal (never rounded up to a pass). */
export function formatScore(s: Score): string {
  const percent = s.percent === null ? "n/a" : `${(Math.floor(s.percent * 10) / 10).toFixed(1)}%`;
  return `score ${percent}: killed ${s.killed}, timeout ${s.timeout}, survived ${s.survived}, no coverage ${s.noCoverage}, ignored ${s.ignored} (equivalent, left out: ${s.equivalent})`;
}

/** Several reports of one layer (runs on its files one by one) as one: a file in two reports keeps the later one. */
export function mergeReports(reports: MutationReport[]): MutationReport {
  return { files: Object.assign({}, ...reports.map((r) => r.files)) };
}

function main(argv: string[]): number {
  const min = argv.includes("--min") ? Number(argv[argv.indexOf("--min") + 1]) : null;
  const files = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--min");
  if (files.length === 0) {
    console.error("Usage: npx tsx tools/mutation-score.ts reports/mutation/<name>/mutation.json [more reports of the same layer] [--survivors] [--min 90]");
    return 2;
  }
  const report = mergeReports(files.map((file) => JSON.parse(readFileSync(resolve(file), "utf8")) as MutationReport));
  const equivalents = parseEquivalents(readFileSync(join(__dirname, "..", "docs", "testing.md"), "utf8"));
  const s = score(report, equivalents);
  if (argv.includes("--survivors")) for (const line of s.survivors) console.log(line);
  console.log(formatScore(s));
  return min !== null && (s.percent === null || s.percent < min) ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
