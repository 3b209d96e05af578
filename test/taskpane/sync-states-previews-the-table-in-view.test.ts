/**
 * The ribbon's Sync states previews the table the person is looking at (issue 43, part 2): the sheet on screen's
 * Spend Sync table; the one under the selection where that sheet holds two; the taskpane's pick only where the
 * sheet holds none, saying so; nothing where no table was loaded. Read through the real adapter, over Microsoft's
 * Office.js client, from the in-memory Excel a person clicked in (UserActions.select).
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { chooseTable } from "../../src/taskpane/table-in-view";

/** A workbook with: Expenses (one loaded table), Two (loaded tables Left at A1 and Right at H1), Notes (the person's own table), Empty. */
async function workbook() {
  const excel = new FakeExcel();
  await excel.run(async (context) => {
    const add = (sheet: Excel.Worksheet, sheetName: string, address: string, name: string) => {
      sheet.getRange(address).values = [["ID", "State"], ["a", "approved"], ["b", "paid"]];
      sheet.tables.add(`'${sheetName}'!${address}`, true).name = name;
    };
    const sheets = context.workbook.worksheets;
    add(sheets.add("Expenses"), "Expenses", "B2:C4", "SpendExpenses_1");
    const two = sheets.add("Two");
    add(two, "Two", "A1:B3", "Left");
    add(two, "Two", "H1:I3", "Right");
    add(sheets.add("Notes"), "Notes", "A1:B3", "MyOwnTable");
    sheets.add("Empty");
    await context.sync();
  });
  const adapter = new ExcelWorkbook(excel);
  const loaded = ["SpendExpenses_1", "Left", "Right"];
  /** The person clicks `address` on `sheet`; then Sync states chooses, the taskpane having picked `picked`. */
  const pressAt = async (sheet: string, address: string, picked: string) => {
    excel.user.select(sheet, address);
    return chooseTable(await adapter.lookedAt(), loaded, picked);
  };
  return { excel, adapter, loaded, pressAt };
}

it("the sheet on screen's table, whatever the taskpane picked, even with the selection outside the table", async () => {
  const { pressAt } = await workbook();
  expect(await pressAt("Expenses", "C3", "Right")).toEqual({ table: "SpendExpenses_1", note: "Previewing SpendExpenses_1, the table on the sheet 'Expenses'." });
  expect(await pressAt("Expenses", "Z90", "Right")).toEqual({ table: "SpendExpenses_1", note: "Previewing SpendExpenses_1, the table on the sheet 'Expenses'." });
});

it("on a sheet with two tables, the one under the selection (a cell, or a block that reaches into it)", async () => {
  const { adapter, excel, pressAt } = await workbook();
  expect(await pressAt("Two", "I3", "Left")).toEqual({ table: "Right", note: "Previewing Right, the table at your selection on the sheet 'Two'." });
  expect(await pressAt("Two", "B2", "Right")).toEqual({ table: "Left", note: "Previewing Left, the table at your selection on the sheet 'Two'." });
  // A block from beside Left into Right overlaps only Right.
  expect((await pressAt("Two", "E2:H2", "Left"))?.table).toBe("Right");
  // The adapter reads what Excel says: the sheet's tables, and those the selection overlaps, top-left first.
  excel.user.select("Two", "A2:I2");
  expect(await adapter.lookedAt()).toEqual({ sheetName: "Two", sheetTables: ["Left", "Right"], selectedTables: ["Left", "Right"] });
  expect((await pressAt("Two", "A2:I2", "Right"))?.table).toBe("Left");
});

it("on a sheet with two tables and the selection in neither: the taskpane's pick when it is one of them, else the first, and it says so", async () => {
  const { pressAt } = await workbook();
  expect(await pressAt("Two", "E9", "Right")).toEqual({
    table: "Right",
    note: "Previewing Right: the sheet 'Two' holds 2 Spend Sync tables and your selection is in none of them, so the one picked in the taskpane. Select a cell of the one you mean and press Sync states again.",
  });
  expect(await pressAt("Two", "E9", "SpendExpenses_1")).toEqual({
    table: "Left",
    note: "Previewing Left: the sheet 'Two' holds 2 Spend Sync tables and your selection is in none of them, so the first. Select a cell of the one you mean and press Sync states again.",
  });
});

it("a sheet with no Spend Sync table (the person's own table, or none): the taskpane's pick, named, with why", async () => {
  const { pressAt } = await workbook();
  expect(await pressAt("Notes", "A2", "Right")).toEqual({ table: "Right", note: "Previewing Right, the table picked in the taskpane: the sheet 'Notes' holds no Spend Sync table." });
  expect(await pressAt("Empty", "A1", "SpendExpenses_1")).toEqual({ table: "SpendExpenses_1", note: "Previewing SpendExpenses_1, the table picked in the taskpane: the sheet 'Empty' holds no Spend Sync table." });
  expect(chooseTable(null, ["Left"], "Left")).toEqual({ table: "Left", note: "Previewing Left, the table picked in the taskpane: Excel did not say which sheet is on screen." });
});

it("no Spend Sync table anywhere: nothing to preview (the taskpane says to load one)", async () => {
  const { adapter, excel } = await workbook();
  excel.user.select("Notes", "A2");
  expect(chooseTable(await adapter.lookedAt(), [], "")).toBeNull();
  // A pick the workbook no longer lists (its table deleted) is no pick.
  excel.user.select("Empty", "A1");
  expect(chooseTable(await adapter.lookedAt(), [], "SpendExpenses_1")).toBeNull();
});

it("Excel's table names match in any case; the taskpane's spelling is the one named", async () => {
  const { adapter, excel } = await workbook();
  excel.user.select("Expenses", "B2");
  expect(chooseTable(await adapter.lookedAt(), ["spendexpenses_1"], "")).toEqual({ table: "spendexpenses_1", note: "Previewing spendexpenses_1, the table on the sheet 'Expenses'." });
});
