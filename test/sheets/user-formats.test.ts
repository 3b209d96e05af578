/** Refresh leaves the user's own columns as the user formatted them (null number formats), and their text as text. */
import { currencyFormat, loadTable, refreshTable, type LoadParams } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("a refresh keeps the number format, the typed dates and the leading zeros of a column the user added", async () => {
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  let t = tableView(f.excel, report.tableName);
  const column = t.nextColumn;
  f.excel.user.type(t.sheet.name, `${column}1`, "Due");
  f.excel.user.type(t.sheet.name, `${column}2`, "2026-12-31");
  f.excel.user.type(t.sheet.name, `${column}3`, "'00042");
  f.excel.user.type(t.sheet.name, `${column}4`, "'=1+1");
  const due = t.sheet.cell(1, t.header.length)!;
  due.numberFormat = "d mmm yyyy";
  const serial = due.value;
  expect(typeof serial).toBe("number");

  await refreshTable(f.client, f.workbook, report.tableName);
  t = tableView(f.excel, report.tableName);
  expect(t.header[t.header.length - 1]).toBe("Due");
  expect(t.values("Due").slice(0, 3)).toEqual([serial, "00042", "=1+1"]);
  expect(t.formula("Due", 2)).toBeUndefined();
  expect(t.format("Due", 0)).toBe("d mmm yyyy");
  expect(t.format("Amount", 0)).toBe(currencyFormat(String(t.values("Currency")[0])));
});
