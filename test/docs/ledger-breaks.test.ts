/**
 * The ledger proves itself (docs/excel-checks.md, tools/ledger/): every enforced row declares how to break its
 * rule, every break still applies to today's code (its text is in its file exactly once), and names its row's own
 * test, which exists. `npm run ledger` runs the breaks (minutes); this checks, in a second, what it would need,
 * and that the verdict it kept for each break whose files are unchanged since is "caught".
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BREAKS } from "../../tools/ledger/breaks";
import { applyBreak, breakDigest, RESULTS_FILE, type KeptResults } from "../../tools/ledger/results";
import { ledgerRows, parseTestRef } from "../../tools/ledger/rows";
import { ROOT } from "../support/process";

const rows = ledgerRows(ROOT);
const enforced = rows.filter((r) => r.test);

describe("the ledger's breaks (tools/ledger/breaks.ts)", () => {
  it("every enforced row has at least one break, and every break names a row of the ledger that is enforced", () => {
    expect(enforced.length).toBeGreaterThan(90);
    const broken = new Set(BREAKS.map((b) => b.row));
    expect(enforced.filter((r) => !broken.has(r.id)).map((r) => r.id)).toEqual([]);
    const known = new Set(enforced.map((r) => r.id));
    expect(BREAKS.filter((b) => !known.has(b.row)).map((b) => b.row)).toEqual([]);
  });

  it("every break's find text occurs exactly once in its file, and changes it", () => {
    const problems = BREAKS.flatMap((brk) => {
      if (!existsSync(join(ROOT, brk.file))) return [`${brk.row}: ${brk.file} does not exist`];
      const patched = applyBreak(readFileSync(join(ROOT, brk.file), "utf8"), brk);
      return typeof patched === "string" ? [] : [`${brk.row}: ${patched.problem}`];
    });
    expect(problems).toEqual([]);
  });

  it("every break runs its row's Enforced-by test, which exists in its file", () => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const problems = BREAKS.flatMap((brk) => {
      const row = byId.get(brk.row);
      if (!row) return [];
      if (brk.test !== row.enforcedBy) return [`${brk.row}: breaks test ${brk.test}, the row names ${row.enforcedBy}`];
      const ref = parseTestRef(brk.test);
      if (!ref || !existsSync(join(ROOT, ref.file))) return [`${brk.row}: no test file in ${brk.test}`];
      return readFileSync(join(ROOT, ref.file), "utf8").includes(ref.name) ? [] : [`${brk.row}: no test "${ref.name}" in ${ref.file}`];
    });
    expect(problems).toEqual([]);
  });

  it("the last `npm run ledger` caught every break whose patched file and test file are as they were then", () => {
    const kept = JSON.parse(readFileSync(join(ROOT, RESULTS_FILE), "utf8")) as KeptResults;
    const unchanged = BREAKS.map((brk) => ({ brk, key: `${brk.row}#${BREAKS.filter((b) => b.row === brk.row).indexOf(brk)}` }))
      .filter(({ brk, key }) => kept[key]?.digest === breakDigest(ROOT, brk));
    expect(unchanged.filter(({ key }) => kept[key].verdict !== "caught").map(({ key }) => `${key}: ${kept[key].verdict} (${kept[key].detail ?? ""})`)).toEqual([]);
  });
});
