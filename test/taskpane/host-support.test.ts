/** The startup check: an Excel without a required set hears, in one sentence, what is missing and which Excel has it. */
import { AVAILABILITY, REQUIRED_CUSTOM_FUNCTIONS_RUNTIME, REQUIRED_EXCEL_API, REQUIRED_SETS } from "../../src/requirements";
import {
  NOT_IN_EXCEL, NotInExcelError, OFFICE_JS_MISSING, OFFICE_JS_STALLED, STALLED_AFTER_MS, UnsupportedExcelError, assertExcelSupported, missingSets, officeReady,
} from "../../src/taskpane/host-support";

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

describe("before the requirement sets: is there an Excel at all (issue 43)", () => {
  it("no Office.js (its script did not load): the sentence says so, names Microsoft's address and what to do", async () => {
    await expect(officeReady(undefined)).rejects.toThrow(new NotInExcelError("no-office-js"));
    expect(OFFICE_JS_MISSING).toMatch(/^Office\.js, .* did not load from appsforoffice\.microsoft\.com: allow that address .*, then close and reopen Spend Sync\.$/);
  });

  it("Office.js outside Office (host null, no requirements): the sentence says Spend Sync works only inside Excel", async () => {
    await expect(officeReady({ onReady: async () => ({ host: null }), context: {} })).rejects.toThrow(NOT_IN_EXCEL);
    await expect(officeReady({ onReady: async () => ({ host: "Excel" }), context: {} })).rejects.toThrow(NOT_IN_EXCEL);
    await expect(officeReady({ onReady: async () => ({ host: null }), context: { requirements: excelWith(current).requirements } })).rejects.toThrow(NOT_IN_EXCEL);
  });

  it("Excel: ready, and the requirement check comes next", async () => {
    const { requirements } = excelWith(current);
    await expect(officeReady({ onReady: async () => ({ host: "Excel" }), context: { requirements } })).resolves.toBeUndefined();
  });

  it("each sentence is one sentence, naming what is wrong before what to do", () => {
    for (const sentence of [OFFICE_JS_MISSING, NOT_IN_EXCEL, OFFICE_JS_STALLED]) {
      expect(sentence.match(/\.(\s|$)/g)).toHaveLength(1);
      expect(sentence).toMatch(/: [a-z]/);
    }
    expect(OFFICE_JS_STALLED).toContain(`${STALLED_AFTER_MS / 1000} seconds`);
  });
});
