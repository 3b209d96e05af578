/**
 * Each named Excel, run as it is: its requirement sets (answered as Microsoft's own matrix answers them), what
 * of the add-in it loads, and under each one the add-in either works with what that Excel has (taskpane's
 * load, preview and sync, the ribbon's commands, the self-test, the functions) or says in one sentence what
 * is missing. What a function's cell holds is shown cell by cell, per Excel.
 */
import { Session, memoryStorage } from "../../src/api";
import * as fns from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { refreshAll } from "../../src/sheets";
import { runSelfTest } from "../../src/sheets/excel";
import { previewSync, runSync } from "../../src/sync";
import { assertExcelSupported, UnsupportedExcelError } from "../../src/taskpane/host-support";
import { addInParts } from "../../src/workbench/fake-excel/addin-parts";
import { shownResult } from "../../src/workbench/fake-excel/function-results";
import { DEFAULT_PROFILE, PROFILES, isSetSupported, profileOf, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { evaluate } from "../../src/workbench/formula";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError } from "../support/custom-functions";
import { withExcel, type ExcelFixture } from "../support/excel";
import { edit, loadFor } from "../support/sync";

afterAll(() => useExcelProfile(DEFAULT_PROFILE));

describe("requirement sets, as Office.js answers them", () => {
  it("isSetSupported agrees with Microsoft's RequirementMatrix on names in any case, versions as text or numbers, and unknown sets", () => {
    const RequirementMatrix = Reflect.get(Reflect.get(Reflect.get(globalThis, "OfficeExt"), "Requirement"), "RequirementMatrix");
    const asked: [string, string | number | undefined][] = [];
    for (const name of ["ExcelApi", "excelapi", "EXCELAPI", "CustomFunctionsRuntime", "SharedRuntime", "DelayForCellEdit", "NoSuchSet"]) {
      for (const version of ["1.1", "1.2", "1.9", "1.10", "1.13", "1.14", "1.16", "1.17", "1.19", "1.21", "1.22", "2", "2.0", "0", "1", "abc", "", undefined, 1.1, 1.16, 1.4]) asked.push([name, version]);
    }
    for (const profile of PROFILES) {
      const sets = Object.fromEntries(Object.entries(profile.sets).map(([name, version]) => [name.toLowerCase(), version]));
      const microsoft = new RequirementMatrix({ _sets: sets });
      const theirs = asked.map(([name, version]) => microsoft.isSetSupported(name, version));
      expect(asked.map(([name, version]) => isSetSupported(profile, name, version))).toEqual(theirs);
    }
  });

  it("Office.context.requirements is the profile's, for the add-in and for Microsoft's client alike", () => {
    for (const profile of PROFILES) {
      useExcelProfile(profile.id);
      expect(Office.context.requirements.isSetSupported("ExcelApi", "1.16")).toBe(profile.id !== "office-2021");
      expect(Office.context.requirements.isSetSupported("CustomFunctionsRuntime", "1.4")).toBe(!["office-2021", "office-2024"].includes(profile.id));
      expect(Office.context.diagnostics.version).toBe(profile.version);
      expect(Office.context.partitionKey).toBe(profile.partitionKey);
    }
  });
});

describe("what each Excel loads of the add-in (the manifest's requirements)", () => {
  it("Office 2021 opens the plain taskpane only, which says in one sentence that ExcelApi 1.16 is missing; every other Excel loads it all", () => {
    const parts = Object.fromEntries(PROFILES.map((p) => [p.id, addInParts(p)]));
    expect(Object.fromEntries(Object.entries(parts).map(([id, p]) => [id, [p.loads, p.overrides, p.missing.map((s) => `${s.name} ${s.version}`)]]))).toEqual({
      "office-2021": [true, false, ["ExcelApi 1.16"]],
      "office-2024": [true, true, []], "m365-2302": [true, true, []], "m365-current": [true, true, []], web: [true, true, []],
    });
    useExcelProfile("office-2021");
    expect(() => assertExcelSupported(Office.context.requirements)).toThrow(UnsupportedExcelError);
    expect(() => assertExcelSupported(Office.context.requirements)).toThrow(/^This Excel lacks ExcelApi 1\.16 \(to load and sync tables\), so Spend Sync can't run here: ExcelApi 1\.16 comes with .*Excel 2024.*\.$/);
    for (const id of ["office-2024", "m365-2302", "m365-current", "web"] as const) {
      useExcelProfile(id);
      expect(() => assertExcelSupported(Office.context.requirements)).not.toThrow();
    }
  });
});

describe.each(["office-2024", "m365-2302", "m365-current", "web"] as const)("the add-in in %s", (id) => {
  let f: ExcelFixture;
  beforeEach(async () => {
    useExcelProfile(id);
    f = await withExcel();
  });
  afterEach(() => f.sandbox.close());

  it("loads a table, previews and syncs an edit, refreshes the functions, and passes every check of Check this Excel", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [e] = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved");
    edit(f, table, e.id, { State: "paid", "Paid ID": `PAY-${id}` });
    const preview = await previewSync(f.workbook, table);
    expect(preview.rows.map((r) => [r.id, r.kind])).toEqual([[e.id, "change"]]);
    const report = await runSync(f.client, f.workbook, preview);
    expect(report.counts.applied).toBe(1);
    expect(f.sandbox.store.expensesOf(f.sub).find((x) => x.id === e.id)).toMatchObject({ state: "paid", paid_id: `PAY-${id}` });
    // Refresh data's work: every table refreshed (the synced edit is the server's value now: nothing to write).
    const outcomes = await refreshAll(f.client, f.workbook);
    expect(outcomes.map((o) => [o.tableName, o.kind])).toEqual([[table, "refreshed"]]);
    expect(outcomes[0].kind === "refreshed" && outcomes[0].report).toMatchObject({ updated: 0, added: 0, removed: 1, refreshed: { whole: false } });
    const check = await runSelfTest(f.excel, profileOf(id).name, Office.context.requirements);
    expect(check.results.filter((r) => !r.passed)).toEqual([]);
    expect(check.features.map((feature) => feature.available)).toEqual([
      isSetSupported(profileOf(id), "CustomFunctionsRuntime", "1.4"), isSetSupported(profileOf(id), "ExcelApi", "1.19"), isSetSupported(profileOf(id), "CustomFunctionsRuntime", "1.5"),
    ]);
  });
});

describe("what a =SPEND cell holds in each Excel", () => {
  let f: ExcelFixture;
  const registry = Object.fromEntries(Object.entries({ EXPENSE: fns.expense, EXPENSES: fns.expenses, CARD: fns.card }).map(([name, fn]) => [name, fn as (...args: unknown[]) => Promise<unknown>]));
  beforeAll(async () => {
    f = await withExcel();
    const session = new Session(memoryStorage());
    session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    useSession(session);
    Object.assign(globalThis, { CustomFunctions: { registry, Error: FunctionError, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } } });
  });
  afterAll(() => f.sandbox.close());

  /** Evaluates in the workbench as that Excel would, its functions loaded or not (addin-parts.ts). */
  const cell = async (id: ProfileId, formula: string) => {
    const profile = useExcelProfile(id);
    return evaluate(formula, () => null, { functions: addInParts(profile).overrides });
  };

  it("Office 2021: no =SPEND functions at all (#NAME?, the add-in's functions were not loaded)", async () => {
    const e = f.sandbox.store.expensesOf(f.sub)[0];
    const result = await cell("office-2021", `=SPEND.EXPENSE("${f.sub}", "${e.id}")`);
    expect(result.grid).toEqual([["#NAME?"]]);
    expect(result.error).toMatch(/did not load the add-in's functions/);
  });

  it("Office 2024: plain values, never #VALUE!: a record as a header row and its row, a date as its ISO text with no format", async () => {
    const e = f.sandbox.store.expensesOf(f.sub)[0];
    const record = await cell("office-2024", `=SPEND.EXPENSE("${f.sub}", "${e.id}")`);
    expect(record.error).toBeUndefined();
    const [header, row] = record.grid;
    expect(header.slice(0, 3)).toEqual(["Expense ID", "Expense #", "Date"]);
    expect(row[0]).toBe(e.id);
    expect(row[2]).toBe(e.date);
    expect(record.formats!.flat().every((format) => format === null)).toBe(true);
    const list = await cell("office-2024", `=SPEND.EXPENSES("${f.sub}")`);
    expect(list.grid.flat()).not.toContain("#VALUE!");
    expect(list.grid.length).toBe(f.sandbox.store.expensesOf(f.sub).length + 1);
  });

  it("Microsoft 365 2302 (CustomFunctionsRuntime 1.4, ExcelApi 1.17): an entity, its dates and amounts formatted through FormattedNumber", async () => {
    const e = f.sandbox.store.expensesOf(f.sub)[0];
    const record = await cell("m365-2302", `=SPEND.EXPENSE("${f.sub}", "${e.id}")`);
    expect(record.grid).toEqual([[`Expense ${e.expense_number}`]]);
    expect(record.card).toContain(`Date ${e.date}`);
    const date = await cell("m365-2302", `=SPEND.EXPENSE("${f.sub}", "${e.id}", "date")`);
    expect(date.formats).toEqual([["yyyy-mm-dd"]]);
    const list = await cell("m365-2302", `=SPEND.EXPENSES("${f.sub}")`);
    expect(list.formats![1][2]).toBe("yyyy-mm-dd");
  });

  it("current Microsoft 365 and the web (ExcelApi 1.19+): the same, through Double values with their numberFormat", async () => {
    const e = f.sandbox.store.expensesOf(f.sub)[0];
    for (const id of ["m365-current", "web"] as const) {
      const record = await cell(id, `=SPEND.EXPENSE("${f.sub}", "${e.id}")`);
      expect(record.grid).toEqual([[`Expense ${e.expense_number}`]]);
      expect(record.card).toContain(`Date ${e.date}`);
      expect((await cell(id, `=SPEND.EXPENSE("${f.sub}", "${e.id}", "date")`)).formats).toEqual([["yyyy-mm-dd"]]);
    }
  });

  it("what the old gating (data types wherever ExcelApi 1.16) would have shown: #VALUE! in Office 2024, bare numbers in Microsoft 365 2302", async () => {
    const entity = { type: "Entity", text: "Expense 1", properties: { Date: { type: "Double", basicValue: 46000, numberFormat: "yyyy-mm-dd" } } };
    expect(shownResult(profileOf("office-2024"), [[entity]]).grid).toEqual([["#VALUE!"]]);
    expect(shownResult(profileOf("m365-2302"), [[{ type: "Double", basicValue: 46000, numberFormat: "yyyy-mm-dd" }]]).formats).toEqual([[null]]);
    expect(shownResult(profileOf("m365-current"), [[{ type: "Double", basicValue: 46000, numberFormat: "yyyy-mm-dd" }]]).formats).toEqual([["yyyy-mm-dd"]]);
  });
});
