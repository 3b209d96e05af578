/** The startup check: an Excel without a required set hears, in one sentence, what is missing and which Excel has it. */
import { AVAILABILITY, REQUIRED_CUSTOM_FUNCTIONS_RUNTIME, REQUIRED_EXCEL_API, REQUIRED_SETS } from "../../src/requirements";
import { UnsupportedExcelError, assertExcelSupported, missingSets } from "../../src/taskpane/host-support";

/** Office.context.requirements of an Excel that supports each named set up to the given version. */
function excelWith(supported: Record<string, string>) {
  const calls: [string, string | undefined][] = [];
  const requirements = {
    isSetSupported(name: string, minVersion?: string) {
      calls.push([name, minVersion]);
      const has = supported[name];
      return has !== undefined && Number(has.split(".")[1]) >= Number((minVersion ?? "1.1").split(".")[1]);
    },
  } as Pick<Office.RequirementSetSupport, "isSetSupported">;
  return { requirements, calls };
}

const current = { ExcelApi: "1.20", CustomFunctionsRuntime: "1.5", SharedRuntime: "1.2" };

it("a current Excel passes, and each set is asked for with its version as a string", () => {
  const { requirements, calls } = excelWith(current);
  expect(() => assertExcelSupported(requirements)).not.toThrow();
  expect(calls).toEqual(REQUIRED_SETS.map((s) => [s.name, s.version]));
  expect(calls.every(([, v]) => typeof v === "string")).toBe(true);
});

it("an Excel with ExcelApi 1.12 is told, in one sentence, that ExcelApi is missing and which Excel versions have it", () => {
  const { requirements } = excelWith({ ...current, ExcelApi: "1.12" });
  let error: unknown;
  try {
    assertExcelSupported(requirements);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UnsupportedExcelError);
  const message = (error as Error).message;
  expect(message).toBe(`This Excel lacks ExcelApi ${REQUIRED_EXCEL_API} (to load and sync tables), so Spend Sync can't run here: ` +
    `ExcelApi ${REQUIRED_EXCEL_API} comes with ${AVAILABILITY[`ExcelApi ${REQUIRED_EXCEL_API}`]}.`);
  expect(message).toContain("Excel on the web");
  expect(message.match(/\.(\s|$)/g)).toHaveLength(1);
});

it("an Excel lacking both ExcelApi and the custom functions runtime hears about both, and nothing it has", () => {
  const { requirements } = excelWith({ ExcelApi: "1.9", CustomFunctionsRuntime: "1.1", SharedRuntime: "1.1" });
  expect(missingSets(requirements).map((s) => s.name)).toEqual(["ExcelApi", "CustomFunctionsRuntime"]);
  expect(() => assertExcelSupported(requirements)).toThrow(
    new RegExp(`^This Excel lacks ExcelApi ${REQUIRED_EXCEL_API} \\(to load and sync tables\\) and CustomFunctionsRuntime ${REQUIRED_CUSTOM_FUNCTIONS_RUNTIME} \\(for the =SPEND functions\\), so`));
  expect(() => assertExcelSupported(requirements)).not.toThrow(/SharedRuntime/);
});

it("every required version has its line of Excel versions (raising a constant needs Microsoft's table for it)", () => {
  for (const set of REQUIRED_SETS) expect([set.name, AVAILABILITY[`${set.name} ${set.version}`]]).toEqual([set.name, expect.stringContaining("Excel on the web")]);
});
