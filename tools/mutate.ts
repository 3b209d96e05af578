/**
 * `npm run mutate -- <folder or file>...`: StrykerJS on one part of src/ (docs/testing.md).
 *
 *   npm run mutate -- src/domain                 mutate src/domain/**, run the tests that reach it
 *   npm run mutate -- src/sheets/money.ts        one file
 *   npm run mutate -- src/sheets --force         ignore the incremental file, test every mutant again
 *   npm run mutate -- src/api --own              only the layer's own tests (test/api): a quick first pass whose
 *                                                survivors are a superset of the real ones (reports/mutation/<name>.own)
 *   npm run mutate -- src/sheets --each          one run per file (each with its own report): a long layer can be
 *                                                stopped and resumed, and its files score as one (mutation-score.ts)
 *   npm run mutate -- src/sheets/excel/adapter.ts --lines=1-200
 *                                                the mutants of those lines of one file (state <name>@1-200): a file
 *                                                that costs hours run in parts, each kept as it ends; parts score as one
 *
 * Only the tests that can see the mutated code run: the layer's own folder under test/ (src/x -> test/x) and
 * every other test file that imports it, directly or through a helper under test/. Tests that run the code in
 * another process (a spawned CLI, a webpack build, Chromium) are left out: a mutant is switched on inside
 * jest's process only, so they could kill nothing and would only cost minutes.
 * Reports: reports/mutation/<name>/index.html and mutation.json (git-ignored); score them with
 * `npx tsx tools/mutation-score.ts reports/mutation/<name>/mutation.json`.
 * What each run learnt is kept in git, in tools/mutation-state/<name>.json (StrykerJS's incremental file, one
 * line of JSON): a machine here starts with no ignored file, and a layer costs hours, so the next run, on any
 * machine, tests only the mutants whose code or covering tests changed, and skips a file whose code and test
 * files are all as its state has them (kept-state.ts). Commit it with the tests you wrote.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { digestsOf, unchangedSince } from "./kept-state";

const ROOT = resolve(__dirname, "..");
/** Where each run's incremental file is kept (tracked: see above). */
const STATE_DIR = "tools/mutation-state";

/** Test folders and files that never run mutated code in jest's process (see the comment above). */
const OUT_OF_PROCESS = [
  "test/e2e/", // Chromium and spawned servers
  "test/build/", // webpack builds and the dev server
  "test/bench/",
  "test/tools/", // npm start / npm stop as processes
  "test/api/browser-bundle.test.ts", // webpack bundle run in a bare vm context
  "test/api/page-memory.test.ts", // a child process with --expose-gc
  "test/sandbox/cli.test.ts",
  "test/sandbox/durability.test.ts", // kills a spawned sandbox
  "test/gateway/cli.test.ts",
  "test/taskpane/markup.test.ts", // parses the markup in a child process
];

/**
 * Test files left out of every run for their cost alone. Each asserts Excel's 5 MB request limit at full scale (a
 * 51,000-row load, the self-test's 13 MB block, 3,000 statuses of 2,000 characters): about a minute a run, paid by
 * every mutant of the load path that survives, which made src/sheets's --own pass ~20 hours. Leaving a test out can
 * only turn a kill into a survivor, never the reverse: the score without them is a lower bound of the score with them.
 */
const LEFT_OUT_FOR_COST = ["test/sheets/request-limits.test.ts"];

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const toPosix = (path: string) => path.split(sep).join("/");
const rel = (path: string) => toPosix(relative(ROOT, path));

/** The TypeScript files (not declarations) of `targets`, folders walked. */
function sourceFiles(targets: string[]): string[] {
  return targets.flatMap((t) => (statSync(t).isDirectory() ? walk(t) : [t])).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
}

/** Relative imports of a TypeScript file, resolved to files that exist (`./x` -> x.ts or x/index.ts). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s+|import\s*\(\s*|require\s*\(\s*|jest\.mock\(\s*)["'](\.{1,2}\/[^"']*)["']/g)) {
    const base = resolve(dirname(file), match[1]);
    const hit = [base, `${base}.ts`, `${base}.js`, join(base, "index.ts")].find((p) => existsSync(p) && statSync(p).isFile());
    if (hit) found.push(hit);
  }
  return found;
}

/**
 * The tests of a source folder: src/x/y -> test/x/y, or the nearest folder above it that exists (the in-memory Excel,
 * src/workbench/fake-excel, is tested in test/workbench).
 */
function ownTestFolder(sourceDir: string): string {
  let dir = relative(join(ROOT, "src"), sourceDir);
  while (dir !== "" && !existsSync(join(ROOT, "test", dir))) dir = dirname(dir) === "." ? "" : dirname(dir);
  return join(ROOT, "test", dir);
}

/**
 * Test files that reach any of `targets` (absolute src paths or folders) through test-side imports; with
 * `ownOnly`, only those in the targets' own folders under test/.
 */
function relatedTests(targets: string[], ownOnly = false): string[] {
  const inTarget = (file: string) => targets.some((t) => file === t || file.startsWith(t + sep));
  const testFiles = walk(join(ROOT, "test")).filter((f) => f.endsWith(".ts"));
  // Imports are followed through test helpers, and through the target's own layer (a test that imports
  // src/domain reaches src/domain/states.ts through its index), never through other layers: a test of
  // src/sheets reaches src/domain too, but it is not a test of it.
  const layers = targets.map((t) => join(ROOT, "src", relative(join(ROOT, "src"), t).split(sep)[0]));
  const through = [join(ROOT, "test"), ...layers];
  const reaches = new Map<string, boolean>();
  const visit = (file: string): boolean => {
    if (reaches.has(file)) return reaches.get(file)!;
    reaches.set(file, false); // cycles
    const hit = importsOf(file).some((dep) => inTarget(dep) || (through.some((dir) => dep.startsWith(dir + sep)) && visit(dep)));
    reaches.set(file, hit);
    return hit;
  };
  const ownFolders = targets.map((t) => ownTestFolder(statSync(t).isDirectory() ? t : dirname(t)));
  return testFiles
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => ownFolders.some((own) => f.startsWith(own + sep)) || (!ownOnly && visit(f)))
    .filter((f) => ![...OUT_OF_PROCESS, ...LEFT_OUT_FOR_COST].some((out) => rel(f).startsWith(out)))
    .sort();
}

/**
 * StrykerJS writes its incremental file indented, each killed mutant with the stack of its failure (paths of this
 * machine's sandbox). Kept in git: one line, each reason's first line only (the report shows it; the incremental
 * run reads only statuses, tests and sources), and `seen`, the test files that could see the code (kept-state.ts).
 */
function compact(file: string, seen: Record<string, string>): void {
  if (!existsSync(file)) return;
  const state = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, { mutants: { statusReason?: string }[] }>; seen?: Record<string, string> };
  state.seen = seen;
  for (const { mutants } of Object.values(state.files)) {
    for (const m of mutants) if (m.statusReason) m.statusReason = m.statusReason.split("\n")[0].slice(0, 300);
  }
  writeFileSync(file, `${JSON.stringify(state)}\n`);
}

interface Args {
  targets: string[];
  force: boolean;
  check: boolean;
  each: boolean;
  own: boolean;
  /** Only the mutants of these lines ("START-END") of the one file named. */
  lines?: string;
}

function parseArgs(argv: string[]): Args {
  const force = argv.includes("--force");
  const each = argv.includes("--each");
  const own = argv.includes("--own");
  const check = !argv.includes("--no-check");
  const lines = argv.find((a) => a.startsWith("--lines="))?.slice("--lines=".length);
  const targets = argv.filter((a) => !a.startsWith("--")).map((a) => resolve(ROOT, a));
  if (lines !== undefined && (!/^\d+-\d+$/.test(lines) || targets.length !== 1 || !targets[0].endsWith(".ts") || each)) {
    throw new Error(`--lines=START-END takes one file and two line numbers (--lines=1-200), not ${lines} over ${targets.length} target(s)${each ? " with --each" : ""}`);
  }
  for (const t of targets) {
    if (!existsSync(t) || !rel(t).startsWith("src/")) throw new Error(`Not a folder or file under src/: ${rel(t)}`);
  }
  if (targets.length === 0) throw new Error("Name what to mutate: npm run mutate -- src/domain (or a file, or several)");
  return { targets, force, check, each, own, lines };
}

/** One StrykerJS run on `targets`, or none when its kept state is of today's sources; returns the state's path. */
async function mutateOnce(targets: string[], { force, check, own, lines }: Omit<Args, "targets" | "each">): Promise<string> {
  const mutate = targets.flatMap((t) =>
    statSync(t).isDirectory() ? [`${rel(t)}/**/*.ts`, `!${rel(t)}/**/*.d.ts`] : [lines ? `${rel(t)}:${lines}` : rel(t)],
  );
  const tests = relatedTests(targets, own);
  if (tests.length === 0) throw new Error(`No test reaches ${targets.map(rel).join(", ")}`);
  const name = targets.map((t) => rel(t).replace(/^src\//, "").replace(/\.ts$/, "").replace(/\//g, "-")).join("+") + (lines ? `@${lines}` : "") + (own ? ".own" : "");
  const out = `reports/mutation/${name}`;
  const state = `${STATE_DIR}/${name}.json`;
  const mutated = sourceFiles(targets).map(rel);
  if (!force && unchangedSince(join(ROOT, state), ROOT, mutated, tests.map(rel))) {
    console.log(`Unchanged since ${state} (the code and its ${tests.length} test files): its verdicts stand, nothing to run.`);
    return state;
  }
  console.log(`Mutating ${mutate.join(" ")} with ${tests.length} test files:\n  ${tests.map(rel).join("\n  ")}`);
  const seen = digestsOf(ROOT, tests.map(rel)); // as the run begins: a test changed meanwhile is seen as changed

  const { Stryker } = await import("@stryker-mutator/core");
  const stryker = new Stryker({
    configFile: "stryker.config.mjs",
    mutate,
    force,
    ...(check ? {} : { checkers: [] }),
    incrementalFile: state,
    // Every verdict as it comes (event-recorder, one file a mutant): `npx tsx tools/mutation-live.ts <out>` lists the
    // survivors of a run still going, so that their tests are written while the rest runs.
    reporters: ["html", "json", "progress", "clear-text", "event-recorder"],
    eventReporter: { baseDir: `${out}/events` },
    htmlReporter: { fileName: `${out}/index.html` },
    jsonReporter: { fileName: `${out}/mutation.json` },
    jest: {
      projectType: "custom",
      configFile: "jest.config.js",
      // The test files are chosen above. StrykerJS's default (jest --findRelatedTests with the mutated files) cuts them
      // down to what jest's own module map relates, and jest's map holds only test/ (roots): a run on
      // src/sheets/layouts (now src/sheets/resources) ran 3 of its 49 test files (those importing a layout by its path), so a mutant every load
      // test would kill survived. Off, the dry run runs every chosen file and per-test coverage picks each mutant's.
      enableFindRelatedTests: false,
      config: {
        testMatch: tests.map((t) => `<rootDir>/${rel(t)}`),
        reporters: [],
        testSequencer: "./tools/mutation-sequencer.js",
        // Stryker wraps the environment in its own and requires the original from the project's folder, where
        // jest's <rootDir> means nothing.
        testEnvironment: "./tools/mutation-environment.js",
      },
    },
  });
  const results = await stryker.runMutationTest();
  compact(join(ROOT, state), seen);
  console.log(`\n${results.length} mutants. Score: npx tsx tools/mutation-score.ts ${state}`);
  return state;
}

async function main(): Promise<void> {
  const { targets, each, ...options } = parseArgs(process.argv.slice(2));
  if (!each) {
    await mutateOnce(targets, options);
    return;
  }
  const files = sourceFiles(targets).sort();
  const reports: string[] = [];
  const untested: string[] = [];
  for (const file of files) {
    try {
      reports.push(await mutateOnce([file], options));
    } catch (error) {
      // No test reaches it (mutateOnce's own refusal), or none of the tests that might does in jest's process
      // (Stryker: "No tests were executed"): the file is reported, not silently left out.
      untested.push(`${rel(file)} (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
    }
  }
  console.log(`\nScore of the ${reports.length} files tested: npx tsx tools/mutation-score.ts ${reports.join(" ")}`);
  // Such a file's mutants would all survive; the score above does not see them, so say it loudly.
  if (untested.length > 0) console.log(`NOT SCORED (no test in jest's process reaches them: every mutant in them survives):\n  ${untested.join("\n  ")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
