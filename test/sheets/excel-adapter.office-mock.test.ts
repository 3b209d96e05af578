/**
 * The adapter's calls that the in-memory Excel stores but cannot judge, checked with office-addin-mock
 * (Microsoft's mock of the Office.js object model): the shapes and values handed to Excel.
 */
import { OfficeMockObject } from "office-addin-mock";
import { ExcelWorkbook, type ExcelHost } from "../../src/sheets";

function mockExcel() {
  const calls: string[] = [];
  const ranges: Record<string, unknown>[] = [];
  const range = (label: string) => {
    const r: Record<string, unknown> = {
      label,
      format: { fill: { clear: () => calls.push(`${label}.fill.clear`) }, font: {} },
      dataValidation: { clear: () => calls.push(`${label}.validation.clear`) },
      clear: () => calls.push(`${label}.clear`),
      select: () => calls.push(`${label}.select`),
      rowIndex: 0, columnIndex: 0, rowCount: 1, columnCount: 1,
    };
    ranges.push(r);
    return r;
  };
  const table = { name: "", style: "", showFilters: false, isNullObject: false };
  const sheet = {
    name: "Expenses", isNullObject: false, visibility: "Visible",
    getRangeByIndexes: (row: number, column: number, rowCount: number, columnCount: number) => range(`R${row}C${column}x${rowCount}x${columnCount}`),
    tables: { add: (address: string, headers: boolean) => (calls.push(`tables.add ${address} ${headers}`), table) },
    freezePanes: { freezeRows: (n: number) => calls.push(`freezeRows ${n}`) },
    activate: () => calls.push("activate"),
  };
  const data = {
    context: {
      workbook: {
        worksheets: { getItemOrNullObject: () => ({ ...sheet, isNullObject: true }), add: (name: string) => (calls.push(`worksheets.add ${name}`), sheet) },
        tables: { getItemOrNullObject: () => ({ isNullObject: true }) },
        settings: { add: (key: string, value: unknown) => calls.push(`settings.add ${key}=${value}`), getItemOrNullObject: () => ({ isNullObject: true, value: null, load: () => undefined }) },
      },
      application: { suspendApiCalculationUntilNextSync: () => calls.push("suspendCalculation") },
    },
    run: async function (callback: (context: unknown) => Promise<unknown>) {
      return callback(this.context);
    },
  };
  const mock = new OfficeMockObject(data) as unknown as ExcelHost & { context: typeof data.context };
  return { mock, calls, ranges, table };
}

it("a new table: created with headers, named, styled, filterable, header frozen, dropdown in Office.js's shape", async () => {
  const { mock, calls, ranges, table } = mockExcel();
  await new ExcelWorkbook(mock).writeTable({
    sheetName: "Expenses", tableName: "SpendExpenses_abc", header: ["Expense ID", "State"], rows: [["e1", "approved"], ["e2", "paid"]],
    numberFormats: ["@", "@"], editable: [false, true], dropdowns: [null, ["approved", "paid"]],
  });
  expect(calls).toEqual(expect.arrayContaining(["worksheets.add Expenses", "suspendCalculation", "tables.add A1:B3 true", "freezeRows 1"]));
  expect(table).toMatchObject({ name: "SpendExpenses_abc", style: "TableStyleLight9", showFilters: true });
  const body = ranges.find((r) => r.label === "R0C0x2x2" || r.label === "R1C0x2x2")!;
  expect(body.numberFormat).toEqual([["@", "@"], ["@", "@"]]);
  expect(body.values).toEqual([["e1", "approved"], ["e2", "paid"]]);
  const stateBody = ranges.find((r) => r.label === "R1C1x2x1" && (r.dataValidation as { rule?: unknown }).rule)!;
  expect((stateBody.dataValidation as { rule: unknown }).rule).toEqual({ list: { inCellDropDown: true, source: "approved,paid" } });
  expect((stateBody.format as { fill: { color: string } }).fill.color).toBe("#FFF4CE");
});

it("settings are written as plain strings under the add-in's key", async () => {
  const { mock, calls } = mockExcel();
  await new ExcelWorkbook(mock).writeSetting("spendsync.table.T", '{"params":{}}');
  expect(calls).toContain('settings.add spendsync.table.T={"params":{}}');
  expect(await new ExcelWorkbook(mock).readSetting("missing")).toBeNull();
});
