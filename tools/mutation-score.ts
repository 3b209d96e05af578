/**
 * `npx tsx tools/mutation-score.ts tools/mutation-state/<layer>-*.json [more reports] [--survivors] [--min 90]`
 *
 * The score of issue 26 from StrykerJS's JSON report: killed / (killed + survived), where a timeout counts as
 * killed, a mutant no test covered counts as survived, and so does a mutant silenced by a `// Stryker disable`
 * comment (status Ignored). Mutants that do not compile (CompileError) or crash the code (RuntimeError) are not
 * bugs a user could meet and are left out. The only other mutants left out are those listed as equivalent in
 * docs/testing.md, one line each: `- src/file.ts:LINE:COLUMN MutatorName — why no user could tell` (the column may be left out to
 * cover every such mutant on the line; `MutatorName (replacement \`…\`)` names one mutant where several of a kind share a place).
 * A mutant that only a test in another process can kill (a spawned CLI's entry line) is listed under the heading
 * "Killed outside jest's process", naming that test file: it counts as killed, and a line naming a test file
 * that does not exist is refused.
 */
import { existsSync, readFileSync } from "node:fs";
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
  /** The replacement, when the line names it (`(replacement \`…\`)`): only that mutant of its kind at that place. */
  replacement?: string;
}

/** A mutant that a test run outside jest's process kills (docs/testing.md names the test). */
export interface KilledOutside extends Equivalent {
  test: string;
}

export interface Score {
  killed: number;
  timeout: number;
  /** Killed by a test outside jest's process (listed in docs/testing.md): counted as killed. */
  outside: number;
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

/** Right after the mutator: `(replacement \`…\`)`. */
const REPLACEMENT = /^\s*\(replacement `([^`]*)`\)/;
const OUTSIDE_HEADING = /^#+\s+Killed outside jest's process\s*$/i;
const TEST_FILE = /\btest\/[\w./-]+\.test\.ts\b/;

/** The list items of the form `- src/file.ts:LINE Mutator why`, each with the section it stands in. */
function listedMutants(markdown: string): { item: Equivalent; text: string; outside: boolean }[] {
  const found: { item: Equivalent; text: string; outside: boolean }[] = [];
  let outside = false;
  for (const line of markdown.split("\n")) {
    if (/^#+\s/.test(line)) outside = OUTSIDE_HEADING.test(line);
    const match = EQUIVALENT_LINE.exec(line);
    const replacement = match ? REPLACEMENT.exec(line.slice(match[0].length)) : null;
    if (match) {
      found.push({
        item: { file: match[1], line: Number(match[2]), ...(match[3] ? { column: Number(match[3]) } : {}), mutator: match[4], ...(replacement ? { replacement: replacement[1] } : {}) },
        text: line, outside,
      });
    }
  }
  return found;
}

/** Reads the equivalent-mutant list: every list item of the form `- src/file.ts:LINE Mutator why`, outside the section below. */
export function parseEquivalents(markdown: string): Equivalent[] {
  return listedMutants(markdown).filter((m) => !m.outside).map((m) => m.item);
}

/**
 * Reads the section "Killed outside jest's process": each item names the test file that kills its mutant, and
 * that file must exist (`exists`, relative to the project's root).
 */
export function parseKilledOutside(markdown: string, exists: (path: string) => boolean): KilledOutside[] {
  return listedMutants(markdown).filter((m) => m.outside).map(({ item, text }) => {
    const test = TEST_FILE.exec(text)?.[0];
    if (test === undefined || !exists(test)) {
      throw new Error(`docs/testing.md: "${text.trim()}" must name the test file (test/….test.ts) that kills it, as it is in the project.`);
    }
    return { ...item, test };
  });
}

/** Scores a report: see the top of this file for what counts as what. */
/** One survivor as a person reads it (and as docs/testing.md lists it): file:line:column, mutator, replacement, status. */
export function survivorLine(file: string, m: ReportMutant): string {
  const replacement = m.replacement === undefined ? "" : ` ${JSON.stringify(m.replacement.length > 60 ? `${m.replacement.slice(0, 60)}…` : m.replacement)}`;
  return `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}${replacement} [${m.status}]`;
}

export function score(report: MutationReport, equivalents: Equivalent[], killedOutside: Equivalent[] = []): Score {
  const result: Score = { killed: 0, timeout: 0, outside: 0, survived: 0, noCoverage: 0, ignored: 0, equivalent: 0, percent: null, survivors: [] };
  const matches = (list: Equivalent[], file: string, m: ReportMutant) =>
    list.some((e) => file.endsWith(e.file) && e.line === m.location.start.line && (e.column === undefined || e.column === m.location.start.column) &&
      e.mutator === m.mutatorName && (e.replacement === undefined || e.replacement === m.replacement));
  const listed = (file: string, m: ReportMutant) => matches(equivalents, file, m);
  const files = Object.keys(report.files).sort();
  for (const file of files) {
    const mutants = [...report.files[file].mutants].sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    for (const m of mutants) {
      if (m.status === "Killed") result.killed++;
      else if (m.status === "Timeout") result.timeout++;
      else if (m.status === "Survived" || m.status === "NoCoverage" || m.status === "Ignored") {
        if (m.status !== "Ignored" && matches(killedOutside, file, m)) {
          result.outside++;
          continue;
        }
        if (listed(file, m)) {
          result.equivalent++;
          continue;
        }
        if (m.status === "Survived") result.survived++;
        else if (m.status === "NoCoverage") result.noCoverage++;
        else result.ignored++;
        result.survivors.push(survivorLine(file, m));
      }
    }
  }
  const killed = result.killed + result.timeout + result.outside;
  const total = killed + result.survived + result.noCoverage + result.ignored;
  result.percent = total === 0 ? null : (100 * killed) / total;
  return result;
}

/** One line a person reads: the counts and the score with one decimal (never rounded up to a pass). */
export function formatScore(s: Score): string {
  const percent = s.percent === null ? "n/a" : `${(Math.floor(s.percent * 10) / 10).toFixed(1)}%`;
  const outside = s.outside > 0 ? `, killed outside jest's process ${s.outside}` : "";
  return `score ${percent}: killed ${s.killed}, timeout ${s.timeout}${outside}, survived ${s.survived}, no coverage ${s.noCoverage}, ignored ${s.ignored} (equivalent, left out: ${s.equivalent})`;
}

/** A report and, for a run on some lines of one file (`npm run mutate -- f.ts --lines=START-END`), those lines. */
export type PartReport = MutationReport & { lines?: readonly [number, number] };

/** The lines of a state kept by a run on part of a file: `<name>@START-END[.own].json`, or none. */
export function linesOfState(path: string): [number, number] | undefined {
  const match = /@(\d+)-(\d+)(?:\.own)?\.json$/.exec(path);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Several reports of one layer (runs on its files one by one, or on parts of a file) as one: a file in two reports
 * keeps the later one; a report on some lines of a file replaces only the mutants starting on those lines.
 */
export function mergeReports(reports: PartReport[]): MutationReport {
  const files: MutationReport["files"] = {};
  for (const report of reports) {
    for (const [file, { mutants }] of Object.entries(report.files)) {
      const lines = report.lines;
      const kept = lines ? (files[file]?.mutants ?? []).filter((m) => m.location.start.line < lines[0] || m.location.start.line > lines[1]) : [];
      files[file] = { mutants: [...kept, ...mutants] };
    }
  }
  return { files };
}

function main(argv: string[]): number {
  const min = argv.includes("--min") ? Number(argv[argv.indexOf("--min") + 1]) : null;
  const files = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--min");
  if (files.length === 0) {
    console.error("Usage: npx tsx tools/mutation-score.ts tools/mutation-state/<layer>-*.json [more reports of the same layer] [--survivors] [--min 90]");
    return 2;
  }
  const report = mergeReports(files.map((file) => ({ ...(JSON.parse(readFileSync(resolve(file), "utf8")) as MutationReport), lines: linesOfState(file) })));
  const root = join(__dirname, "..");
  const doc = readFileSync(join(root, "docs", "testing.md"), "utf8");
  const s = score(report, parseEquivalents(doc), parseKilledOutside(doc, (path) => existsSync(join(root, path))));
  if (argv.includes("--survivors")) for (const line of s.survivors) console.log(line);
  console.log(formatScore(s));
  return min !== null && (s.percent === null || s.percent < min) ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
