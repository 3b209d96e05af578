/**
 * The in-memory Excel's calculation and special cells, each rule from the member's d.ts comment, seen through
 * Microsoft's client: Application.calculate reaches every open workbook, Range.calculate and RangeAreas.calculate
 * only their own cells; Range.getSpecialCells finds formula cells (ItemNotFound when none, unless OrNullObject);
 * Worksheet.getUsedRange answers the top left cell of a blank sheet. Each calculation is counted per formula cell
 * and per workbook (src/workbench/fake-excel/calculation.ts).
 */
import { FakeExcel, UserActions, WorkbookModel } from "../../src/workbench/fake-excel";
import { calculationsOf } from "../../src/workbench/fake-excel/calculation";
import { DEFAULT_PROFILE, profileOf, type ExcelProfile } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";

/** Our workbook (A1 a constant, A2 and C5 formulas, C6 a formula) and another open one with its own formula. */
function withOtherWorkbook() {
  const excel = new FakeExcel();
  excel.user.type("Sheet1", "A1", "3");
  excel.user.type("Sheet1", "A2", "=A1*2");
  excel.user.type("Sheet1", "C5", "=SPEND.CARD(A1)");
  excel.user.type("Sheet1", "C6", "=SPEND.CARD(A2)");
  const other = new WorkbookModel("Forecast");
  new UserActions(other).type("Forecast", "B2", "=NOW()");
  excel.host.otherWorkbooks.push(other);
  const count = () => [calculationsOf(excel.model, "Sheet1", "A2"), calculationsOf(excel.model, "Sheet1", "C5"), calculationsOf(excel.model, "Sheet1", "C6"), calculationsOf(other, "Forecast", "B2")];
  return { excel, other, count };
}

describe("what a calculation reaches", () => {
  it("Application.calculate(full) recalculates all currently opened workbooks: every formula of ours and of the other", async () => {
    const { excel, count } = withOtherWorkbook();
    await excel.run(async (context) => {
      context.workbook.application.calculate("Full");
      await context.sync();
    });
    expect(count()).toEqual([1, 1, 1, 1]);
    expect(calculationsOf(excel.model, "Sheet1", "A1")).toBe(0);
  });

  it("Application.calculate(recalculate) reaches only dirty cells, which the in-memory Excel does not track: none", async () => {
    const { excel, count } = withOtherWorkbook();
    await excel.run(async (context) => {
      context.workbook.application.calculate("Recalculate");
      await context.sync();
    });
    expect(count()).toEqual([0, 0, 0, 0]);
  });

  it("Range.calculate (ExcelApi 1.6) calculates that range's formulas only, in this workbook only", async () => {
    const { excel, count } = withOtherWorkbook();
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("B5:C5").calculate();
      await context.sync();
    });
    expect(count()).toEqual([0, 1, 0, 0]);
  });

  it("Range.getSpecialCells(formulas) gives the formula cells as areas, whose calculate reaches those cells only", async () => {
    const { excel, count } = withOtherWorkbook();
    const found = await excel.run(async (context) => {
      const areas = context.workbook.worksheets.getItem("Sheet1").getRange("A1:C9").getSpecialCells("Formulas");
      areas.load("address,areaCount,cellCount");
      areas.areas.load("items/address");
      areas.calculate();
      await context.sync();
      return { address: areas.address, areaCount: areas.areaCount, cellCount: areas.cellCount, areas: areas.areas.items.map((r) => r.address) };
    });
    expect(found).toEqual({ address: "Sheet1!A2, Sheet1!C5:C6", areaCount: 2, cellCount: 3, areas: ["Sheet1!A2", "Sheet1!C5:C6"] });
    expect(count()).toEqual([1, 1, 1, 0]);
  });

  it("Range.getSpecialCells throws ItemNotFound where no cell matches; the OrNullObject form answers a null object, and Excel keeps no reference for it", async () => {
    const { excel } = withOtherWorkbook();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("D1:F9").getSpecialCells("Formulas").load("address");
      await context.sync();
    })).rejects.toMatchObject({ code: "ItemNotFound" });
    const isNull = await excel.run(async (context) => {
      const none = context.workbook.worksheets.getItem("Sheet1").getRange("D1:F9").getSpecialCellsOrNullObject("Formulas");
      none.load("areaCount");
      await context.sync();
      return none.isNullObject;
    });
    expect(isNull).toBe(true);
    expect(excel.host.heldReferences).toBe(0);
  });

  it.each([["Constants", undefined], ["Formulas", "Numbers"]] as const)("Range.getSpecialCells(%s, %s), which the in-memory Excel does not model, is refused, not answered wrongly", async (type, value) => {
    const { excel } = withOtherWorkbook();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:C9").getSpecialCellsOrNullObject(type, value).load("address");
      await context.sync();
    })).rejects.toMatchObject({ code: "InvalidArgument" });
  });

  it("Worksheet.getUsedRange: the used cells (valuesOnly ignores formatting); a blank worksheet answers its top left cell, not an error", async () => {
    const excel = new FakeExcel();
    excel.model.addSheet("Blank");
    excel.user.type("Sheet1", "B2", "x");
    excel.model.sheet("Sheet1")!.ensure(9, 5).fill = "#FFFF00";
    const addresses = await excel.run(async (context) => {
      const sheets = context.workbook.worksheets;
      const ranges = [sheets.getItem("Sheet1").getUsedRange(), sheets.getItem("Sheet1").getUsedRange(true), sheets.getItem("Blank").getUsedRange(true)];
      ranges.forEach((r) => r.load("address"));
      await context.sync();
      return ranges.map((r) => r.address);
    });
    expect(addresses).toEqual(["Sheet1!B2:F10", "Sheet1!B2", "Blank!A1"]);
  });
});

describe("an Excel without ExcelApi 1.9 refuses the special cells", () => {
  afterEach(() => useExcelProfile(DEFAULT_PROFILE));
  const older: ExcelProfile = { ...profileOf("office-2021"), id: "office-2021", name: "an Excel with ExcelApi 1.8", sets: { ...profileOf("office-2021").sets, ExcelApi: "1.8" } };

  it("Range.getSpecialCellsOrNullObject is ExcelApi 1.9: ApiNotFound in an Excel with 1.8", async () => {
    useExcelProfile(older);
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2").getSpecialCellsOrNullObject("Formulas").load("address");
      await context.sync();
    })).rejects.toMatchObject({ code: "ApiNotFound" });
  });
});
