/**
 * `npm run mutate --each` skips a file only when its kept state was made from exactly today's sources: the
 * mutated file and every test file that sees it, byte for byte, none added and none gone. Anything else runs.
 * (StrykerJS's own state keeps only the test files that covered a mutant; `seen` records them all.)
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { digestsOf, unchangedSince } from "../../tools/kept-state";

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const SRC = "src/sheets/money.ts";
const TESTS = ["test/sheets/money.test.ts", "test/sync/plan.test.ts"];
/** A state as a run leaves it: StrykerJS's files and covering test files, and the digests of every test seen. */
const keep = (files: Record<string, { source?: string }>, seen: Record<string, string> | undefined) =>
  write("state.json", JSON.stringify({ files, testFiles: { [TESTS[0]]: { source: "it('a', () => {});\n" } }, schemaVersion: "2", ...(seen ? { seen } : {}) }));
const asToday = () => keep({ [SRC]: { source: "export const x = 1;\n" } }, digestsOf(root, TESTS));
const unchanged = (tests: readonly string[] = TESTS) => unchangedSince(join(root, "state.json"), root, [SRC], tests);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kept-state-"));
  write(SRC, "export const x = 1;\n");
  write(TESTS[0], "it('a', () => {});\n");
  write(TESTS[1], "it('b', () => {});\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("a state made from today's code and test files stands", () => {
  asToday();
  expect(unchanged()).toBe(true);
});

it("no state: the file runs", () => {
  expect(unchanged()).toBe(false);
});

it.each([
  ["the mutated code changed", () => write(SRC, "export const x = 2;\n")],
  ["a test file changed", () => write(TESTS[1], "it('b', () => { expect(1).toBe(1); });\n")],
  ["a test file is gone", () => rmSync(join(root, TESTS[0]))],
])("%s: the file runs", (_what, change) => {
  asToday();
  change();
  expect(unchanged()).toBe(false);
});

it("a test file that now sees the code, or no longer does, makes the file run", () => {
  asToday();
  write("test/api/new.test.ts", "it('c', () => {});\n");
  expect(unchanged([...TESTS, "test/api/new.test.ts"])).toBe(false);
  expect(unchanged([TESTS[0]])).toBe(false);
});

it("a state without the code's text (a file with no mutant), or without the tests it saw (an older state), makes the file run", () => {
  keep({}, digestsOf(root, TESTS));
  expect(unchanged()).toBe(false);
  keep({ [SRC]: {} }, digestsOf(root, TESTS));
  expect(unchanged()).toBe(false);
  keep({ [SRC]: { source: "export const x = 1;\n" } }, undefined);
  expect(unchanged()).toBe(false);
});

it("a test file that covered no mutant counts too: changing it makes the file run", () => {
  asToday();
  write(TESTS[1], "it('b', () => { expect(2).toBe(2); });\n");
  expect(unchanged()).toBe(false);
});
