/** The score of issue 26, read from a small hand-made StrykerJS JSON report. */
import { formatScore, mergeReports, parseEquivalents, score, type MutationReport, type ReportMutant } from "../../tools/mutation-score";

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

it("an equivalent with a column leaves out only the mutant starting there, not another of the same kind on its line", () => {
  const line = (column: number): ReportMutant => ({ id: `c${column}`, mutatorName: "ConditionalExpression", status: "Survived", replacement: "true", location: { start: { line: 71, column } } });
  const r: MutationReport = { files: { "src/functions/args.ts": { mutants: [line(7), line(36)] } } };
  const listed = parseEquivalents("- src/functions/args.ts:71:7 ConditionalExpression — Number.isFinite is false for every non-number.\n");
  expect(listed).toEqual([{ file: "src/functions/args.ts", line: 71, column: 7, mutator: "ConditionalExpression" }]);
  const s = score(r, listed);
  expect([s.equivalent, s.survived, s.survivors]).toEqual([1, 1, ['src/functions/args.ts:71:36 ConditionalExpression "true" [Survived]']]);
});
