/**
 * Everything src/ throws on purpose is of a class that says what it is (issue 44): the lint rule refuses a bare
 * Error, TypeError or RangeError in src/ (a line that must keep a built-in class says why, beside a disable), and
 * lets a project error class through. Checked by running ESLint itself with the project's configuration.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../support/process";

/** ESLint's own run (its configuration is an ES module, which jest cannot load), on text given as `file`. */
async function refusals(code: string, file: string): Promise<{ line: number; message: string }[]> {
  const run = spawnSync(join(ROOT, "node_modules/.bin/eslint"), ["--stdin", "--stdin-filename", join(ROOT, file), "--format", "json"], { cwd: ROOT, input: code, encoding: "utf8" });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; line: number; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === "no-restricted-syntax").map(({ line, message }) => ({ line, message }));
}

const CODE = [
  `import { InvalidRequestError } from "../api";`,
  `export function a(): void { throw new Error("no"); }`,
  `export function b(): void { throw new TypeError("no"); }`,
  `export function c(): void { throw new RangeError("no"); }`,
  `export function d(): void { throw new InvalidRequestError("no"); }`,
].join("\n") + "\n";

// The rule sits in two configuration blocks (the add-in's, and the workbench's and the sandbox's): one file of each.
it.each(["src/sheets/x.ts", "src/sandbox/x.ts"])("in %s a thrown Error, TypeError or RangeError is refused, a project error class let through", async (file) => {
  const refused = await refusals(CODE, file);
  expect(refused.map((r) => r.line)).toEqual([2, 3, 4]);
  for (const r of refused) expect(r.message).toMatch(/^Throw an error of a class that says what it is/);
}, 120_000);
