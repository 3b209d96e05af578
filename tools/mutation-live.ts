/**
 * `npx tsx tools/mutation-live.ts reports/mutation/<name>`: the survivors of a StrykerJS run so far, while it runs
 * (tools/mutate.ts records every verdict as it comes, in <name>/events), as mutation-score.ts prints them, and
 * how many mutants were tested. A run keeps its state only when it ends; this is how to start on its survivors
 * before.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { survivorLine, type ReportMutant } from "./mutation-score";

type TestedEvent = ReportMutant & { fileName: string };

/** The survivors (and mutants with no test) among the verdicts recorded in `events`, one line each, in file order. */
export function liveSurvivors(events: string, root = process.cwd()): { tested: number; survivors: string[] } {
  if (!existsSync(events)) return { tested: 0, survivors: [] };
  const tested = readdirSync(events).filter((f) => f.endsWith("-onMutantTested.json"));
  const survivors = tested
    .map((f) => JSON.parse(readFileSync(join(events, f), "utf8")) as TestedEvent)
    .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
    .map((m) => ({ m, file: m.fileName.startsWith(root) ? m.fileName.slice(root.length + 1) : m.fileName }))
    .sort((a, b) => a.file.localeCompare(b.file) || a.m.location.start.line - b.m.location.start.line || a.m.location.start.column - b.m.location.start.column)
    // The event's location is the report schema's (1-based), so the lines read as mutation-score.ts prints them.
    .map(({ m, file }) => survivorLine(file, m));
  return { tested: tested.length, survivors };
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("Usage: npx tsx tools/mutation-live.ts reports/mutation/<name>");
    process.exitCode = 2;
  } else {
    const { tested, survivors } = liveSurvivors(join(dir, "events"));
    for (const line of survivors) console.log(line);
    console.log(`${tested} mutants tested so far, ${survivors.length} survived or not covered`);
  }
}
