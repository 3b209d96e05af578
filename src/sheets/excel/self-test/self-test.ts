/**
 * "Check this Excel": proves in the user's own Excel what our machines cannot (there is no Excel here).
 * On a temporary very hidden sheet it writes, through the adapter exactly as a load and a sync do, the
 * text Excel could turn into formulas or other values, leading zeros, dates, a full cell, an oversized
 * text and a block of several megabytes; reads everything back; compares every value and format; and
 * deletes the sheet. The checks are in self-test/checks.ts; this file runs them and reports. The same code
 * runs against the in-memory Excel in the tests (test/sheets/self-test). docs/excel-checks.md says what each
 * check proves.
 */
import type { ExcelHost, XContext } from "../api";
import { deleteSheet as removeSheet } from "../create-table";
import { RUN_OPTIONS } from "../runs";
import { CHECKS } from "./checks";
import { Probe } from "./probe";
import type { EventOutcome } from "./change-event-checks";
import { messageOf } from "../../../domain";

interface CheckResult {
  name: string;
  /** What a pass proves about this Excel. */
  proves: string;
  passed: boolean;
  /** The first difference found, or what was checked. */
  detail: string;
}

/** A feature of the =SPEND functions that depends on a requirement set, and whether this Excel reports it. */
interface FeatureReport {
  name: string;
  /** The requirement set that brings it ("CustomFunctionsRuntime 1.4"). */
  set: string;
  available: boolean;
  /** What the add-in does here with or without it. */
  effect: string;
}

export interface SelfTestReport {
  host: string;
  results: CheckResult[];
  passed: number;
  failed: number;
  /** The function data-type features this Excel reports (empty when it was not asked). */
  features: FeatureReport[];
}

type Requirements = Pick<Office.RequirementSetSupport, "isSetSupported">;

/**
 * What the =SPEND functions can give in this Excel, as it reports its requirement sets (functions/runtime.ts
 * picks the form from the same sets): data types from custom functions need CustomFunctionsRuntime 1.4; a
 * number's format inside a Double value is ExcelApi 1.19 (FormattedNumber before it); formula value preview is
 * CustomFunctionsRuntime 1.5.
 * @internal self-test.test.ts checks each requirement set's feature without a workbook.
 */
export function functionFeatures(requirements: Requirements): FeatureReport[] {
  const has = (name: string, version: string) => requirements.isSetSupported(name, version) === true;
  const dataTypes = has("CustomFunctionsRuntime", "1.4");
  return [
    { name: "Data types from =SPEND functions", set: "CustomFunctionsRuntime 1.4", available: dataTypes,
      effect: dataTypes ? "dates and amounts spill formatted; a record is an entity with a card" : "plain values: dates as serial numbers, a record as a header row and its row" },
    { name: "Number formats inside values", set: "ExcelApi 1.19", available: has("ExcelApi", "1.19"),
      effect: !dataTypes ? "not used (no data types from functions here)" : has("ExcelApi", "1.19") ? "numbers carry their format as Double values" : "numbers carry their format as FormattedNumber values (the form before 1.19)" },
    { name: "Formula value preview", set: "CustomFunctionsRuntime 1.5", available: has("CustomFunctionsRuntime", "1.5"),
      effect: has("CustomFunctionsRuntime", "1.5") ? "a preview answers from the cache, never calling the service" : "Excel asks for no previews" },
  ];
}

/**
 * Runs every check on temporary sheets, which are deleted whatever happens; the last check proves the workbook
 * holds exactly the sheets it held before (names and visibilities). `requirements` (Office.context's) lists
 * the function features this Excel reports.
 */
export async function runSelfTest(excel: ExcelHost, host: string, requirements?: Requirements): Promise<SelfTestReport> {
  const probe = new Probe(excel);
  const results: CheckResult[] = [];
  const sheetsBefore = await sheetList(excel);
  try {
    for (const { name, proves, run } of CHECKS) results.push(await outcome(name, proves, () => run(probe)));
  } finally {
    for (const sheet of probe.sheets) await deleteSheet(excel, sheet).catch(() => undefined);
  }
  results.push(await outcome("The workbook is left as it was", "every temporary sheet is gone, visible or very hidden, and every other sheet kept its name and visibility", async () => {
    const after = await sheetList(excel);
    return after === sheetsBefore ? null : `sheets before: ${sheetsBefore}; after: ${after}`;
  }));
  const passed = results.filter((r) => r.passed).length;
  return { host, results, passed, failed: results.length - passed, features: requirements ? functionFeatures(requirements) : [] };
}

/** A check's result: passed when `body` finds no difference; failed with the difference, or with what it threw. */
async function outcome(name: string, proves: string, body: () => Promise<EventOutcome>): Promise<CheckResult> {
  try {
    const difference = await body();
    if (difference !== null && typeof difference === "object") return { name, proves, passed: true, detail: difference.note };
    return { name, proves, passed: difference === null, detail: difference ?? "as written" };
  } catch (error) {
    return { name, proves, passed: false, detail: `${(error as Error).name}: ${messageOf(error)}` };
  }
}

/** Every sheet of the workbook with its visibility, in tab order (very hidden ones too). */
async function sheetList(excel: ExcelHost): Promise<string> {
  return excel.run(RUN_OPTIONS, async (context: XContext) => {
    const sheets = context.workbook.worksheets.load("items/name, items/visibility");
    await context.sync();
    return sheets.items.map((sheet) => `${sheet.name} (${sheet.visibility})`).join(", ");
  });
}

/** Deletes a temporary sheet of the run, if it is there. */
async function deleteSheet(excel: ExcelHost, sheetName: string): Promise<void> {
  await excel.run(RUN_OPTIONS, async (context: XContext) => {
    const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
    await context.sync();
    if (!sheet.isNullObject) removeSheet(sheet);
    await context.sync();
  });
}
