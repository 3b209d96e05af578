/** tools/mutation-live.ts: the survivors of a run still going, from the verdicts it recorded so far. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { liveSurvivors } from "../../tools/mutation-live";

it("lists survivors and mutants with no test as the reports print them, in file order, and counts every verdict", () => {
  const dir = mkdtempSync(join(tmpdir(), "events-"));
  const root = "/work/project";
  const verdict = (n: number, status: string, file: string, line: number, column: number, mutatorName: string, replacement?: string) =>
    writeFileSync(join(dir, `${String(n).padStart(5, "0")}-onMutantTested.json`), JSON.stringify({ status, mutatorName, replacement, fileName: `${root}/${file}`, location: { start: { line, column } } }));
  writeFileSync(join(dir, "00000-onDryRunCompleted.json"), "{}");
  verdict(1, "Killed", "src/a.ts", 2, 1, "StringLiteral", '""');
  verdict(2, "Survived", "src/b.ts", 10, 5, "ConditionalExpression", "true");
  verdict(3, "Survived", "src/a.ts", 41, 3, "BlockStatement", "{}");
  verdict(4, "NoCoverage", "src/a.ts", 4, 1, "StringLiteral", "x".repeat(70));
  verdict(5, "Timeout", "src/b.ts", 3, 1, "UpdateOperator");
  expect(liveSurvivors(dir, root)).toEqual({
    tested: 5,
    survivors: [
      `src/a.ts:4:1 StringLiteral "${"x".repeat(60)}…" [NoCoverage]`,
      'src/a.ts:41:3 BlockStatement "{}" [Survived]',
      'src/b.ts:10:5 ConditionalExpression "true" [Survived]',
    ],
  });
  expect(liveSurvivors(join(dir, "none"), root)).toEqual({ tested: 0, survivors: [] });
});
