/**
 * The in-memory Excel's change events, as the add-in receives them: registered and delivered through Microsoft's
 * client (`table.onChanged.add`, `worksheet.onRowSorted.add`; the events come back over the client's own host
 * bridge and its own argument transforms). Each rule of docs/excel-checks.md "Change events" is seen here.
 */
import { FakeExcel } from "../../src/workbench/fake-excel";
import { profileOf } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";

/** Lets the client's promise chain (bridge → registration → transform → handler) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A workbook with a 3-column, 4-row table "T" at A1:C5 on Sheet1, and what its onChanged handler was told. */
async function watched(excel = new FakeExcel(), sorts = true) {
  const heard: Excel.TableChangedEventArgs[] = [];
  const sorted: Excel.WorksheetRowSortedEventArgs[] = [];
  await excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    sheet.getRange("A1:C5").values = [["Id", "State", "Amount"], ["r1", "approved", 1], ["r2", "approved", 2], ["r3", "paid", 3], ["r4", "approved", 4]];
    const table = sheet.tables.add("Sheet1!A1:C5", true);
    table.name = "T";
    table.load("id");
    sheet.load("id");
    await context.sync();
    table.onChanged.add(async (event) => void heard.push(event));
    if (sorts) sheet.onRowSorted.add(async (event) => void sorted.push(event));
    await context.sync();
  });
  const ids = await excel.run(async (context) => {
    const table = context.workbook.tables.getItem("T");
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    table.load("id");
    sheet.load("id");
    await context.sync();
    return { table: table.id, sheet: sheet.id };
  });
  await settle();
  heard.length = 0;
  return { excel, heard, sorted, ids };
}

afterEach(() => useExcelProfile(DEFAULT_PROFILE));

describe("Table.onChanged through Microsoft's client", () => {
  it("a person typing in a table's cell raises one RangeEdited event, source Local, with the cell's address and ids", async () => {
    const { excel, heard, ids } = await watched();
    excel.user.type("Sheet1", "B3", "paid");
    await settle();
    expect(heard).toEqual([expect.objectContaining({ type: "TableChanged", address: "B3", changeType: "RangeEdited", source: "Local", tableId: ids.table, worksheetId: ids.sheet })]);
  });

  it("a paste, a fill and a clear each raise one event over the cells they wrote; a cell outside the table raises none", async () => {
    const { excel, heard } = await watched();
    excel.user.pasteBlock("Sheet1", "B2", [["paid", 9], ["paid", 8]]);
    excel.user.fillDown("Sheet1", "A4:A5");
    excel.user.clear("Sheet1", "C2:C3");
    excel.user.type("Sheet1", "E9", "outside");
    await settle();
    expect(heard.map((e) => [e.address, e.changeType])).toEqual([["B2:C3", "RangeEdited"], ["A5", "RangeEdited"], ["C2:C3", "RangeEdited"]]);
  });

  it("the add-in's own writes raise events too, source Local, as a person's do", async () => {
    const { excel, heard } = await watched();
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("B4:C4").values = [["accounted", 5]];
      await context.sync();
    });
    await settle();
    expect(heard.map((e) => [e.address, e.changeType, e.source])).toEqual([["B4:C4", "RangeEdited", "Local"]]);
  });

  it("details: before and after of a single cell where the Excel has ExcelApi 1.9; none for several cells", async () => {
    const { excel, heard } = await watched();
    excel.user.type("Sheet1", "B3", "paid");
    excel.user.pasteBlock("Sheet1", "B4", [["paid"], ["paid"]]);
    await settle();
    expect(heard[0].details).toEqual({ valueBefore: "approved", valueAfter: "paid", valueTypeBefore: "String", valueTypeAfter: "String" });
    expect(heard[1].details).toBeUndefined();
  });

  it("details: none in an Excel before ExcelApi 1.9", async () => {
    useExcelProfile({ ...profileOf(DEFAULT_PROFILE), sets: { ...profileOf(DEFAULT_PROFILE).sets, ExcelApi: "1.8" } });
    const { excel, heard } = await watched(new FakeExcel(), false);
    excel.user.type("Sheet1", "B3", "paid");
    await settle();
    expect(heard.map((e) => [e.address, e.details])).toEqual([["B3", undefined]]);
  });

  it("a deleted table row raises RowDeleted; a sort raises no onChanged but the worksheet's onRowSorted", async () => {
    const { excel, heard, sorted, ids } = await watched();
    excel.user.deleteRow("Sheet1", 3);
    excel.user.sortTable("T", "Amount", false);
    await settle();
    expect(heard.map((e) => e.changeType)).toEqual(["RowDeleted"]);
    expect(sorted).toEqual([expect.objectContaining({ type: "WorksheetRowSorted", source: "Local", worksheetId: ids.sheet })]);
  });

  it("before ExcelApi 1.7 the client refuses onChanged; a host that cannot deliver events refuses the registration", async () => {
    useExcelProfile({ ...profileOf(DEFAULT_PROFILE), sets: { ...profileOf(DEFAULT_PROFILE).sets, ExcelApi: "1.6" } });
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:B2").values = [["Id", "State"], ["r1", "x"]];
      const table = sheet.tables.add("Sheet1!A1:B2", true);
      table.onChanged.add(async () => undefined);
      await context.sync();
    })).rejects.toThrow(expect.objectContaining({ code: "ApiNotFound" }));
    useExcelProfile(DEFAULT_PROFILE);
    const deaf = new FakeExcel();
    deaf.host.events.sink = null;
    await expect(watched(deaf)).rejects.toThrow(expect.objectContaining({ code: "GeneralException" }));
  });
});
