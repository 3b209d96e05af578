/** The score of issue 26, read from a small hand-made StrykerJS JSON report. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatScore, linesOfState, mergeReports, parseEquivalents, parseKilledOutside, score, type MutationReport, type ReportMutant } from "../../tools/mutation-score";

let next = 0;
const mutant = (line: number, mutatorName: string, status: string, replacement?: string): ReportMutant => ({
  id: String(++next), mutatorName, status, replacement, location: { start: { line, column: 3 } },
});

const report: MutationReport = {
  files: {
    "src/domain/states.ts": {
      mutants: [
        mutant(10, "ConditionalExpression", "Killed"),
        mutant(11, "EqualityOperator", "Killed"),
        mutant(12, "StringLiteral", "Timeout"),
        mutant(20, "BlockStatement", "Survived", "{}"),
        mutant(21, "ConditionalExpression", "NoCoverage", "true"),
        mutant(30, "ArithmeticOperator", "CompileError"),
        mutant(31, "MethodExpression", "RuntimeError"),
      ],
    },
    "src/api/errors.ts": {
      mutants: [
        mutant(5, "StringLiteral", "Ignored", '""'),
        mutant(7, "BooleanLiteral", "Survived", "false"),
        mutant(7, "LogicalOperator", "Survived", "a && b"),
        mutant(9, "Regex", "Killed"),
      ],
    },
  },
};

const DOC = [
  "## Equivalent mutants",
  "- src/api/errors.ts:7 BooleanLiteral — the flag is only read when the list is empty, where both paths agree.",
  "- `src/domain/states.ts:99` ConditionalExpression — a line no mutant is on: lists nothing.",
  "Some prose that mentions src/api/errors.ts:7 LogicalOperator is not a list item and lists nothing.",
].join("\n");

it("reads one equivalent per list item: file, line and mutator", () => {
  expect(parseEquivalents(DOC)).toEqual([
    { file: "src/api/errors.ts", line: 7, mutator: "BooleanLiteral" },
    { file: "src/domain/states.ts", line: 99, mutator: "ConditionalExpression" },
  ]);
});

it("counts timeouts as killed, no coverage and Stryker-disabled mutants as survived, and leaves out only listed equivalents and mutants that never ran", () => {
  const s = score(report, parseEquivalents(DOC));
  expect(s).toMatchObject({ killed: 3, timeout: 1, survived: 2, noCoverage: 1, ignored: 1, equivalent: 1 });
  // (3 killed + 1 timeout) / (4 + 2 survived + 1 no coverage + 1 ignored) = 4 / 8
  expect(s.percent).toBe(50);
  expect(s.survivors).toEqual([
    'src/api/errors.ts:5:3 StringLiteral "\\"\\"" [Ignored]',
    'src/api/errors.ts:7:3 LogicalOperator "a && b" [Survived]',
    'src/domain/states.ts:20:3 BlockStatement "{}" [Survived]',
    'src/domain/states.ts:21:3 ConditionalExpression "true" [NoCoverage]',
  ]);
  expect(formatScore(s)).toBe("score 50.0%: killed 3, timeout 1, survived 2, no coverage 1, ignored 1 (equivalent, left out: 1)");
});

it("without the list, the same report scores 4 of 9, shown rounded down (44.4%), never up to a pass", () => {
  const s = score(report, []);
  expect(s.survived).toBe(3);
  expect(s.percent).toBeCloseTo((100 * 4) / 9, 10);
  expect(formatScore(s)).toBe("score 44.4%: killed 3, timeout 1, survived 3, no coverage 1, ignored 1 (equivalent, left out: 0)");
});

it("an equivalent matches its file, line and mutator only: another mutator on the same line still counts", () => {
  const s = score(report, [{ file: "src/api/errors.ts", line: 7, mutator: "BooleanLiteral" }, { file: "src/api/errors.ts", line: 8, mutator: "LogicalOperator" }]);
  expect(s.equivalent).toBe(1);
  expect(s.survived).toBe(2);
});

it("a report with nothing to score has no percent", () => {
  expect(score({ files: { "src/x.ts": { mutants: [mutant(1, "StringLiteral", "CompileError")] } } }, []).percent).toBeNull();
  expect(formatScore(score({ files: {} }, []))).toBe("score n/a: killed 0, timeout 0, survived 0, no coverage 0, ignored 0 (equivalent, left out: 0)");
});

it("reports of one layer's files, run one by one, score as one: each file counted once", () => {
  const a: MutationReport = { files: { "src/x.ts": { mutants: [mutant(1, "StringLiteral", "Killed"), mutant(2, "StringLiteral", "Survived")] } } };
  const b: MutationReport = { files: { "src/y.ts": { mutants: [mutant(1, "BooleanLiteral", "Killed")] } } };
  const again: MutationReport = { files: { "src/x.ts": { mutants: [mutant(1, "StringLiteral", "Killed"), mutant(2, "StringLiteral", "Killed")] } } };
  expect(score(mergeReports([a, b]), [])).toMatchObject({ killed: 2, survived: 1 });
  expect(score(mergeReports([a, b, again]), [])).toMatchObject({ killed: 3, survived: 0 });
});

it("runs on parts of one file (--lines) add up to the file, each part replacing only the mutants of its lines", () => {
  const line = (n: number, status: string) => mutant(n, "StringLiteral", status);
  const first = { files: { "src/x.ts": { mutants: [line(1, "Killed"), line(150, "Survived")] } }, lines: linesOfState("tools/mutation-state/x@1-160.own.json") };
  const second = { files: { "src/x.ts": { mutants: [line(161, "Survived"), line(320, "Killed")] } }, lines: linesOfState("tools/mutation-state/x@161-320.json") };
  expect([first.lines, second.lines, linesOfState("tools/mutation-state/x.own.json")]).toEqual([[1, 160], [161, 320], undefined]);
  expect(score(mergeReports([first, second]), [])).toMatchObject({ killed: 2, survived: 2 });
  // The first part run again, its survivor now killed: the second part's verdicts stand.
  const firstAgain = { ...first, files: { "src/x.ts": { mutants: [line(1, "Killed"), line(150, "Killed")] } } };
  expect(score(mergeReports([first, second, firstAgain]), [])).toMatchObject({ killed: 3, survived: 1 });
  // A run on the whole file, later, replaces every part.
  const whole: MutationReport = { files: { "src/x.ts": { mutants: [line(1, "Killed")] } } };
  expect(score(mergeReports([first, second, whole]), [])).toMatchObject({ killed: 1, survived: 0 });
});

it("an equivalent with a column leaves out only the mutant starting there, not another of the same kind on its line", () => {
  const line = (column: number): ReportMutant => ({ id: `c${column}`, mutatorName: "ConditionalExpression", status: "Survived", replacement: "true", location: { start: { line: 71, column } } });
  const r: MutationReport = { files: { "src/functions/args.ts": { mutants: [line(7), line(36)] } } };
  const listed = parseEquivalents("- src/functions/args.ts:71:7 ConditionalExpression — Number.isFinite is false for every non-number.\n");
  expect(listed).toEqual([{ file: "src/functions/args.ts", line: 71, column: 7, mutator: "ConditionalExpression" }]);
  const s = score(r, listed);
  expect([s.equivalent, s.survived, s.survivors]).toEqual([1, 1, ['src/functions/args.ts:71:36 ConditionalExpression "true" [Survived]']]);
});

describe("mutants killed by a test outside jest's process", () => {
  const OUTSIDE_DOC = [
    "## Equivalent mutants",
    "- src/api/errors.ts:7 BooleanLiteral — the flag is only read when the list is empty.",
    "## Killed outside jest's process",
    "- src/gateway/cli.ts:132:5 ConditionalExpression — test/gateway/cli.test.ts spawns `npm run gateway`, which would never start.",
    "## Afterwards",
    "- src/domain/states.ts:20 BlockStatement — an equivalent again, after the section.",
  ].join("\n");
  const exists = (path: string) => path === "test/gateway/cli.test.ts";

  it("are read from their own section, with the test file that kills each; the lists either side stay equivalents", () => {
    expect(parseKilledOutside(OUTSIDE_DOC, exists)).toEqual([
      { file: "src/gateway/cli.ts", line: 132, column: 5, mutator: "ConditionalExpression", test: "test/gateway/cli.test.ts" },
    ]);
    expect(parseEquivalents(OUTSIDE_DOC)).toEqual([
      { file: "src/api/errors.ts", line: 7, mutator: "BooleanLiteral" },
      { file: "src/domain/states.ts", line: 20, mutator: "BlockStatement" },
    ]);
  });

  it("a line that names no test file, or one that is not in the project, is refused in words that say what to write", () => {
    const without = "## Killed outside jest's process\n- src/gateway/cli.ts:132:5 ConditionalExpression — the CLI test.\n";
    expect(() => parseKilledOutside(without, exists)).toThrow(
      'docs/testing.md: "- src/gateway/cli.ts:132:5 ConditionalExpression — the CLI test." must name the test file (test/….test.ts) that kills it, as it is in the project.',
    );
    const gone = "## Killed outside jest's process\n- src/gateway/cli.ts:132:5 ConditionalExpression — test/gateway/old-cli.test.ts.\n";
    expect(() => parseKilledOutside(gone, exists)).toThrow(/old-cli\.test\.ts\." must name the test file/);
  });

  it("count as killed, are named apart in the line a person reads, and a Stryker-disabled mutant is never counted so", () => {
    const r: MutationReport = {
      files: {
        "src/gateway/cli.ts": {
          mutants: [
            { id: "a", mutatorName: "ConditionalExpression", status: "Survived", replacement: "false", location: { start: { line: 132, column: 5 } } },
            { id: "b", mutatorName: "ConditionalExpression", status: "Ignored", replacement: "false", location: { start: { line: 132, column: 5 } } },
            { id: "c", mutatorName: "ConditionalExpression", status: "Survived", replacement: "true", location: { start: { line: 133, column: 5 } } },
            { id: "d", mutatorName: "StringLiteral", status: "Killed", location: { start: { line: 10, column: 1 } } },
          ],
        },
      },
    };
    const s = score(r, [], parseKilledOutside(OUTSIDE_DOC, exists));
    expect(s).toMatchObject({ killed: 1, outside: 1, survived: 1, ignored: 1 });
    expect(s.percent).toBe(50);
    expect(formatScore(s)).toBe("score 50.0%: killed 1, timeout 0, killed outside jest's process 1, survived 1, no coverage 0, ignored 1 (equivalent, left out: 0)");
  });
});

it("the project's docs/testing.md reads: every mutant killed outside jest's process names a test file that is in the project", () => {
  const root = join(__dirname, "..", "..");
  const doc = readFileSync(join(root, "docs", "testing.md"), "utf8");
  const outside = parseKilledOutside(doc, (path) => existsSync(join(root, path)));
  expect(outside.length).toBeGreaterThan(0);
  for (const m of outside) expect(existsSync(join(root, m.file))).toBe(true);
  // An item is one list or the other, never both.
  const equivalents = parseEquivalents(doc);
  expect(outside.filter((o) => equivalents.some((e) => e.file === o.file && e.line === o.line && e.mutator === o.mutator))).toEqual([]);
});

it("an equivalent that names its replacement leaves out that mutant only, not another of its kind at the same place", () => {
  const at = (replacement: string, status: string): ReportMutant => ({ id: replacement, mutatorName: "Regex", status, replacement, location: { start: { line: 40, column: 8 } } });
  const r: MutationReport = { files: { "src/api/base-url.ts": { mutants: [at("/\\d/", "Survived"), at("/\\D+/", "Survived"), at("/x$/", "Killed")] } } };
  const listed = parseEquivalents("- src/api/base-url.ts:40:8 Regex (replacement `/\\d/`) — the last alternative already matches it.\n");
  expect(listed).toEqual([{ file: "src/api/base-url.ts", line: 40, column: 8, mutator: "Regex", replacement: "/\\d/" }]);
  const s = score(r, listed);
  expect([s.killed, s.equivalent, s.survived, s.survivors]).toEqual([1, 1, 1, ['src/api/base-url.ts:40:8 Regex "/\\\\D+/" [Survived]']]);
});
