/**
 * Each member the in-memory Excel answers carries the ExcelApi set its d.ts comment gives, and a request that
 * reaches one above the Excel's set fails with ApiNotFound: from Microsoft's client where it checks (getters,
 * methods), from Excel where only Excel can (setters).
 */
import { readFileSync } from "node:fs";
import { ExcelProtocolHost, FakeExcel, WorkbookModel } from "../../src/workbench/fake-excel";
import { MEMBER_SETS } from "../../src/workbench/fake-excel/protocol/api-sets";
import { lowerFirst, type HostObject } from "../../src/workbench/fake-excel/protocol/host-object";
import { DataValidationObject } from "../../src/workbench/fake-excel/protocol/data-validation";
import { RangeObject } from "../../src/workbench/fake-excel/protocol/range";
import { RangeAreasObject, RangeCollectionObject } from "../../src/workbench/fake-excel/protocol/range-areas";
import { RangeFillObject, RangeFontObject, RangeFormatObject } from "../../src/workbench/fake-excel/protocol/range-format";
import { TableCollectionObject, TableObject } from "../../src/workbench/fake-excel/protocol/table";
import { TableSortObject } from "../../src/workbench/fake-excel/protocol/table-sort";
import { TableScopedCollectionObject } from "../../src/workbench/fake-excel/protocol/table-scoped";
import { ApplicationObject, SettingCollectionObject, SettingObject, WorkbookObject } from "../../src/workbench/fake-excel/protocol/workbook";
import { FreezePanesObject, WorksheetCollectionObject, WorksheetObject } from "../../src/workbench/fake-excel/protocol/worksheet";
import { DEFAULT_PROFILE, profileOf, type ExcelProfile } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";

const DTS = readFileSync(require.resolve("@types/office-js/index.d.ts"), "utf8").split("\n");

/** The `[Api set: ExcelApi …]` of `Class.member` in the d.ts: one version, or one to read and one to set. */
function setInDts(member: string): string | { get: string; set: string } | undefined {
  const [cls, name] = member.split(".");
  const from = DTS.findIndex((line) => new RegExp(`^ {4}(export )?class ${cls} extends`).test(line));
  if (from < 0) return undefined;
  for (let i = from + 1; !/^ {4}\}/.test(DTS[i]); i++) {
    if (!new RegExp(`^ {8}(readonly )?${name}\\??[(:<]`).test(DTS[i])) continue;
    let start = i - 1;
    while (!DTS[start].includes("/**")) start--;
    const doc = DTS.slice(start, i).join(" ");
    const split = /\[Api set: ExcelApi (\d+\.\d+) for (?:reading|get)[^;,]*[;,] (\d+\.\d+) for (?:setting|set)/.exec(doc);
    if (split) return { get: split[1], set: split[2] };
    return /\[Api set: ExcelApi (\d+\.\d+)\]/.exec(doc)?.[1];
  }
  return undefined;
}

describe("the requirement set of each member, from the d.ts", () => {
  it("every entry of api-sets.ts is the d.ts's own", () => {
    const differ = Object.entries(MEMBER_SETS).filter(([member, set]) => JSON.stringify(setInDts(member)) !== JSON.stringify(set));
    expect(differ).toEqual([]);
    expect(Object.keys(MEMBER_SETS).length).toBeGreaterThan(70);
  });

  it("every member the in-memory Excel answers has its entry (so a new one cannot slip in unexamined)", () => {
    const model = new WorkbookModel();
    const host = new ExcelProtocolHost(model);
    const sheet = model.sheets[0];
    const table = { id: "{t}", name: "T", sheet, area: { row: 0, column: 0, rowCount: 2, columnCount: 1 }, showFilterButton: true, showTotals: false, style: "" };
    const range = new RangeObject(host, sheet, { row: 0, column: 0, rowCount: 1, columnCount: 1 });
    const calculation = { suspended: false, suspensions: 0 };
    const objects: HostObject[] = [
      new WorkbookObject(host, calculation), new ApplicationObject(host, calculation), new WorksheetCollectionObject(host), new WorksheetObject(host, sheet),
      new FreezePanesObject(sheet), range, new RangeFormatObject(range), new RangeFillObject(range), new RangeFontObject(range), new DataValidationObject(range),
      new TableCollectionObject(host), new TableScopedCollectionObject(host, sheet, table.area, false), new TableObject(host, table), new TableSortObject(model, () => table), new SettingCollectionObject(host), new SettingObject(host, "k"),
      new RangeAreasObject(host, sheet, [range.area], (area) => new RangeObject(host, sheet, area)), new RangeCollectionObject([range.area], (area) => new RangeObject(host, sheet, area)),
    ];
    const answered = objects.flatMap((object) => {
      const { scalars, navigation, methods } = object.memberNames();
      return [...scalars, ...navigation, ...methods].filter((name) => !name.startsWith("_")).map((name) => `${object.className}.${lowerFirst(name)}`);
    });
    expect(answered.filter((member) => !(member in MEMBER_SETS))).toEqual([]);
    expect(Object.keys(MEMBER_SETS).filter((member) => !answered.includes(member))).toEqual([]);
  });
});

describe("an Excel without a member's set refuses it", () => {
  afterEach(() => useExcelProfile(DEFAULT_PROFILE));
  const older = (excelApi: string): ExcelProfile => ({ ...profileOf("office-2021"), id: "office-2021", name: `an Excel with ExcelApi ${excelApi}`, sets: { ...profileOf("office-2021").sets, ExcelApi: excelApi } });

  it("Office 2021 (ExcelApi 1.14): a valuesAsJson write is refused by Excel (the client does not check setters), reading it by the client", async () => {
    useExcelProfile("office-2021");
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").valuesAsJson = [[{ type: "String", basicValue: "x" }]];
      await context.sync();
    })).rejects.toMatchObject({ code: "ApiNotFound", message: expect.stringContaining("Range.valuesAsJson is ExcelApi 1.16; Office 2021 (volume-licensed, Version 2108) has ExcelApi 1.14") });
    expect(excel.user.valueAt("Sheet1", "A1")).toBe("");
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1");
      range.values = [["y"]];
      range.load("values");
      await context.sync();
      expect(range.values).toEqual([["y"]]);
      expect(() => range.valuesAsJson).toThrow(expect.objectContaining({ code: "PropertyNotLoaded" }));
    });
  });

  it("a member the client checks fails at once on the client (Table.resize, ExcelApi 1.13, in an Excel with 1.12)", async () => {
    useExcelProfile(older("1.12"));
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.tables.add("Sheet1!A1:B2", true).resize("Sheet1!A1:B3");
      await context.sync();
    })).rejects.toMatchObject({ code: "ApiNotFound", message: expect.stringMatching(/Table\.resize.*ExcelApi 1\.13/) });
    expect(excel.model.tables.map((t) => t.area.rowCount)).not.toContain(3);
  });

  it("setting a sheet's visibility needs ExcelApi 1.2 (reading it, 1.1): Excel refuses the setter in an Excel with 1.1", async () => {
    useExcelProfile(older("1.1"));
    const excel = new FakeExcel();
    excel.model.addSheet("Other");
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Other").visibility = "Hidden";
      await context.sync();
    })).rejects.toMatchObject({ code: "ApiNotFound", message: expect.stringContaining("Worksheet.visibility is ExcelApi 1.2") });
    const read = await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Other").load("visibility");
      await context.sync();
      return sheet.visibility;
    });
    expect(read).toBe("Visible");
  });
});
