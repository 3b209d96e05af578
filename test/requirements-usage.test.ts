/**
 * The requirement-set constants follow the code: every Office API member that the Office-facing sources use
 * needs a set version no higher than what src/requirements.ts (and so manifest.xml, and the taskpane's startup
 * check) declares. Versions are those of the members' `[Api set: ...]` tags in @types/office-js and
 * @types/custom-functions-runtime.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REQUIRED_CUSTOM_FUNCTIONS_RUNTIME, REQUIRED_EXCEL_API, compareVersions } from "../src/requirements";
import { ROOT } from "./support/process";

/** Member (as it appears in source) -> the set and version its d.ts tag names. */
const MEMBERS: { pattern: RegExp; set: "ExcelApi" | "CustomFunctionsRuntime"; version: string }[] = [
  { pattern: /\.resize\(/, set: "ExcelApi", version: "1.13" }, // Table.resize
  { pattern: /\bvaluesAsJson\b/, set: "ExcelApi", version: "1.16" }, // Range.valuesAsJson
  { pattern: /\bdataValidation\b/, set: "ExcelApi", version: "1.8" }, // Range.dataValidation
  { pattern: /\bgetRangeByIndexes\(/, set: "ExcelApi", version: "1.7" }, // Worksheet.getRangeByIndexes
  { pattern: /\bsuspendApiCalculationUntilNextSync\(/, set: "ExcelApi", version: "1.6" },
  { pattern: /\bgetSpecialCells(?:OrNullObject)?\(/, set: "ExcelApi", version: "1.9" }, // Range.getSpecialCells(OrNullObject)
  { pattern: /\)\.calculate\(\)/, set: "ExcelApi", version: "1.6" }, // Range.calculate (Application.calculate takes a type)
  { pattern: /\bmergeUndoGroup\b/, set: "ExcelApi", version: "1.20" }, // Excel.RunOptions.mergeUndoGroup
  { pattern: /\bvaluesAsJsonLocal\b/, set: "ExcelApi", version: "1.16" },
  { pattern: /\bnew (?:FunctionError|CustomFunctions\.Error)\(/, set: "CustomFunctionsRuntime", version: "1.2" },
  { pattern: /\bErrorCode\.(?:invalidValue|notAvailable)\b/, set: "CustomFunctionsRuntime", version: "1.3" },
  { pattern: /\bparameterAddresses\b/, set: "CustomFunctionsRuntime", version: "1.3" },
  { pattern: /\bsetResult\(/, set: "CustomFunctionsRuntime", version: "1.1" }, // streaming
  // invocation.isInValuePreview is CustomFunctionsRuntime 1.5, but src/functions/runtime.ts reads it only when Excel
  // passes it (undefined on older runtimes means "not a preview"), so it raises nothing.
];
const REQUIRED = { ExcelApi: REQUIRED_EXCEL_API, CustomFunctionsRuntime: REQUIRED_CUSTOM_FUNCTIONS_RUNTIME };

/** The code that runs in Excel: not the in-memory Excel (workbench) nor the service (sandbox). */
function officeFacingSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!["workbench", "sandbox"].includes(name)) walk(path);
      } else if (path.endsWith(".ts")) files.push(path);
    }
  };
  walk(join(ROOT, "src"));
  return files;
}

it("no Office-facing source uses a member above the declared requirement sets", () => {
  const sources = officeFacingSources();
  expect(sources.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["src/shared-runtime.ts", "src/functions/errors.ts"]));
  const tooHigh: string[] = [];
  for (const file of sources) {
    const text = readFileSync(file, "utf8");
    for (const member of MEMBERS) {
      if (member.pattern.test(text) && compareVersions(member.version, REQUIRED[member.set]) > 0) {
        tooHigh.push(`${relative(ROOT, file)} uses ${member.pattern.source}, which needs ${member.set} ${member.version}; src/requirements.ts says ${REQUIRED[member.set]}`);
      }
    }
  }
  expect(tooHigh).toEqual([]);
});

it("the declared versions are needed: some source uses a member at exactly each declared version", () => {
  const text = officeFacingSources().map((f) => readFileSync(f, "utf8")).join("\n");
  for (const set of ["ExcelApi", "CustomFunctionsRuntime"] as const) {
    const used = MEMBERS.filter((m) => m.set === set && m.pattern.test(text)).map((m) => m.version);
    expect([set, used.sort(compareVersions).pop()]).toEqual([set, REQUIRED[set]]);
  }
});
