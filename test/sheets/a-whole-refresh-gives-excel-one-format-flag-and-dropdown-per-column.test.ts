/**
 * A whole refresh hands Excel the table as the Workbook port asks for it (TableWrite): one number format, one
 * editable flag and one dropdown per column of the header, the user's own columns included (null, false,
 * null: their cells keep the formats the user gave them, get no fill and no dropdown), and a row's own formats
 * (an amount's decimals from its currency) as long as the row, ending in the user's columns' nulls.
 */
import { SpendClient } from "../../src/api";
import { NUMBER_FORMATS, loadTable, refreshTable, sourceOf, tableNameOf, widthOf, type LoadParams, type TableWrite } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { expense } from "../api/helpers/records";
import { fakeTransport } from "../support/fake-transport";

const PARAMS: LoadParams = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");

it("a whole refresh of a table with two columns of the user's: formats, flags, dropdowns and each row's formats cover every column", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const writes: TableWrite[] = [];
  const write = workbook.writeTable.bind(workbook);
  workbook.writeTable = async (w) => {
    writes.push(w);
    await write(w);
  };
  const records = [expense(1, { currency: "USD", amount: 10.5 }), expense(2, { currency: "CLP", amount: 1200 })];
  const wire = fakeTransport(() => ({ body: { count: records.length, next: null, previous: null, results: records } }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await loadTable(client, workbook, PARAMS, { now: NOW });
  const t = excel.model.table(TABLE)!;
  for (const name of ["Note", "Owner"]) {
    const column = t.area.column + t.area.columnCount;
    t.sheet.ensure(t.area.row, column).value = name;
    t.area.columnCount++;
  }
  writes.length = 0;
  await refreshTable(client, workbook, TABLE, { now: NOW, wholeTable: true });

  const table = writes.find((w) => w.tableName === TABLE)!;
  const columns = sourceOf(PARAMS).columns;
  const layout = columns.map((c) => c.header);
  expect(table.header).toEqual([...layout, "Note", "Owner"]);
  expect(table.numberFormats).toEqual([...columns.map((c) => NUMBER_FORMATS[c.kind]), null, null]);
  expect(table.editable).toEqual([...columns.map((c) => c.editable === true), false, false]);
  expect(table.dropdowns).toEqual([...columns.map((c) => c.dropdown ?? null), null, null]);
  expect(table.widths).toEqual(columns.map(widthOf));
  expect(table.sheetName).toBe(t.sheet.name);
  // Each row's own formats: as long as the row, the user's columns left alone; USD's cents and CLP's none.
  const amount = layout.indexOf("Amount");
  expect(table.rows).toHaveLength(2);
  const formats = table.rows.map((row) => table.formatsOf!(row));
  for (const line of formats) {
    expect(line).toHaveLength(layout.length + 2);
    expect(line.slice(-2)).toEqual([null, null]);
  }
  expect(formats.map((line) => line[amount])).toEqual(["#,##0.00", "#,##0"]);
  // Rows of the same decimals share one frozen row of formats, as the layout's formatter's do.
  expect(table.formatsOf!(table.rows[0])).toBe(formats[0]);
  expect(Object.isFrozen(formats[0])).toBe(true);
});
