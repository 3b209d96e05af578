/**
 * A table the add-in writes looks the same whether it was written whole (writeTable: a refresh rewritten
 * whole, the journal) or row by row as a first load's pages arrived (createTable): a bold header, Spend
 * Sync's table style with filter buttons, the header row frozen, the columns a person edits filled (header
 * and body) with their dropdowns, the others plain, each column at its width. The add-in's own very hidden
 * tables (snapshots) freeze nothing. Excel is left recalculated.
 */
import { EDITABLE_FILL, EDITABLE_HEADER_FILL, type TableWrite } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";

const HEADER = ["ID", "State", "Note", "Amount"];
const ROWS = [["r1", "approved", "a", 1], ["r2", "paid", "b", 2], ["r3", "accounted", "c", 3]];
const SPEC: TableWrite = {
  sheetName: "Data", tableName: "T", header: HEADER, rows: ROWS, numberFormats: ["@", "@", "@", "#,##0.00"],
  editable: [false, true, false, false], dropdowns: [null, ["approved", "accounted", "paid"], null, null], widths: [90, 120, 60, 100],
};

async function written(how: "whole" | "streamed", spec: TableWrite = SPEC) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  if (how === "whole") {
    await workbook.writeTable(spec);
  } else {
    const { rows, ...start } = spec;
    const stream = await workbook.createTable(start);
    await stream.append(rows.slice(0, 2));
    await stream.append(rows.slice(2));
    await stream.finish();
  }
  const t = excel.model.table(spec.tableName)!;
  const sheet = t.sheet;
  const cell = (r: number, c: number) => sheet.cell(t.area.row + r, t.area.column + c);
  return {
    excel,
    looks: {
      style: t.style, filterButtons: t.showFilterButton, frozenRows: sheet.frozenRows, visibility: sheet.visibility,
      header: HEADER.map((h, c) => ({ value: cell(0, c)?.value, bold: cell(0, c)?.bold === true, fill: cell(0, c)?.fill ?? null })),
      bodyFills: spec.rows.map((_, r) => HEADER.map((_, c) => cell(r + 1, c)?.fill ?? null)),
      dropdowns: sheet.validations.map((v) => ({ column: v.area.column - t.area.column, rows: v.area.rowCount, source: v.list.source, inCell: v.list.inCellDropDown })),
      widths: HEADER.map((_, c) => sheet.columnWidths.get(t.area.column + c)),
    },
  };
}

const EXPECTED = {
  style: "TableStyleLight9", filterButtons: true, frozenRows: 1, visibility: "Visible",
  header: HEADER.map((value) => ({ value, bold: true, fill: value === "State" ? EDITABLE_HEADER_FILL : null })),
  bodyFills: ROWS.map(() => HEADER.map((h) => (h === "State" ? EDITABLE_FILL : null))),
  dropdowns: [{ column: 1, rows: 3, source: "approved,accounted,paid", inCell: true }],
  widths: [90, 120, 60, 100],
};

it.each(["whole", "streamed"] as const)("written %s: bold header, style, filters, frozen header, edited column filled with its dropdown, widths", async (how) => {
  const { excel, looks } = await written(how);
  expect(looks).toEqual(EXPECTED);
  expect(excel.model.recalculationPending).toBe(false);
});

it.each(["whole", "streamed"] as const)("written %s as the add-in's own very hidden table: nothing frozen, the sheet very hidden", async (how) => {
  const { looks } = await written(how, { ...SPEC, visibility: "VeryHidden", editable: HEADER.map(() => false), dropdowns: HEADER.map(() => null) });
  expect([looks.frozenRows, looks.visibility, looks.style, looks.header.every((h) => h.bold)]).toEqual([0, "VeryHidden", "TableStyleLight9", true]);
});
