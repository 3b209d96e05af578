/**
 * The matching scored against the hidden truth of generated month-end files, at three seeds: no line fills a
 * record it does not pay, at least 95% of the lines that can be matched are, and every line the file leaves
 * ambiguous is listed as such. The figures are printed.
 */
import { generateDemoData } from "../../../src/sandbox/demo-data";
import { generateBankFile, generateErpFile, type GeneratedFile } from "../../../src/sandbox/import-files";
import type { FileResource } from "../../../src/sandbox/import-records";
import type { MatchReport } from "../../../src/domain/import";
import { WINDOW, importBytes, tableRecords } from "./helpers";

interface Score { lines: number; matchable: number; filled: number; wrong: string[]; ambiguous: number; listed: number; missedAmbiguous: string[] }

function score(file: GeneratedFile, report: MatchReport): Score {
  const byLine = new Map(report.outcomes.map((o) => [o.line, o]));
  const s: Score = { lines: file.truth.length, matchable: 0, filled: 0, wrong: [], ambiguous: 0, listed: 0, missedAmbiguous: [] };
  for (const t of file.truth) {
    const got = byLine.get(t.line);
    const filled = got?.kind === "filled";
    const right = filled && [...got.ids].sort().join() === [...t.ids].sort().join();
    if (filled && (!right || t.expect !== "fill")) s.wrong.push(`line ${t.line} (${t.case}): filled ${got.ids.join(",")} (${got.why}), truth ${t.expect} ${t.ids.join(",")}`);
    if (t.expect === "fill") { s.matchable++; if (right) s.filled++; }
    if (t.expect === "ambiguous") { s.ambiguous++; if (got?.kind === "ambiguous") s.listed++; else s.missedAmbiguous.push(`line ${t.line} (${t.case}): ${got?.kind} ${got?.why}`); }
  }
  return s;
}

const CASES: [string, "bank" | "erp", FileResource][] = [["bank file of allowances", "bank", "allowance"], ["bank file of expenses", "bank", "expense"], ["ERP journal of expenses", "erp", "expense"]];

describe.each([11, 22, 33])("generated files at seed %i", (seed) => {
  const data = generateDemoData({ seed, scale: 3, anchor: "2026-11-15" });
  const subsidiary = data.subsidiaries[0];
  test.each(CASES)("%s: 0 wrong fills, >= 95%% of matchable lines filled, every ambiguous line listed", async (_name, kind, resource) => {
    const generate = kind === "bank" ? generateBankFile : generateErpFile;
    const file = generate(data, { seed, resource, subsidiaryId: subsidiary.id, window: WINDOW });
    const report = await importBytes(file.bytes, kind, tableRecords(data, resource, subsidiary.id), resource);
    const s = score(file, report);
    const cases = [...new Set(file.truth.map((t) => t.case))].length;
    console.log(`seed ${seed} ${_name}: ${s.lines} lines (${cases} kinds of line), wrong fills ${s.wrong.length}, filled ${s.filled}/${s.matchable} matchable (${(100 * s.filled / s.matchable).toFixed(1)}%), ambiguous listed ${s.listed}/${s.ambiguous}; outcomes ${JSON.stringify(report.counts)}`);
    expect(s.wrong).toEqual([]);
    expect(s.filled / s.matchable).toBeGreaterThanOrEqual(0.95);
    expect(s.missedAmbiguous).toEqual([]);
    expect(s.matchable).toBeGreaterThan(50);
  });
});
