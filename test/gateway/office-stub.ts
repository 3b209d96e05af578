/**
 * Stands in for the Office host in the gateway's browser test: the production bundle runs unchanged on a page
 * where Microsoft's Office.js client (@microsoft/office-js, loaded by a script tag before this one) sends its
 * requests to the in-memory Excel, and whose `Office` says every requirement set is supported. Built separately
 * by the test, never part of dist/. `spendStub.type` plays the person typing into a cell of the loaded table.
 */
import { FakeExcel } from "../../src/workbench/fake-excel";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { officeJs } from "../../src/workbench/office-js/library";
import { addValuesAsJson } from "../../src/workbench/office-js/values-as-json";

addValuesAsJson(officeJs());
const excel = new FakeExcel();
excel.serveDefaultRequests();

/** Types `value` into column `header` of the table's `row`-th record (1 = first record under the header). */
function type(tableName: string, header: string, row: number, value: string): void {
  const table = excel.model.tables.find((t) => t.name.startsWith(tableName));
  if (!table) throw new Error(`No table ${tableName}; tables: ${excel.model.tables.map((t) => t.name).join(", ")}`);
  const { area, sheet } = table;
  const headers = Array.from({ length: area.columnCount }, (_, c) => String(sheet.cell(area.row, area.column + c)?.value ?? ""));
  const column = headers.indexOf(header);
  if (column < 0) throw new Error(`No column ${header}; headers: ${headers.join(", ")}`);
  excel.user.type(sheet.name, `${columnLetters(area.column + column)}${area.row + row + 1}`, value);
}

/** The value under `header` in the table's `row`-th record. */
function read(tableName: string, header: string, row: number): unknown {
  const table = excel.model.tables.find((t) => t.name.startsWith(tableName))!;
  const { area, sheet } = table;
  for (let c = 0; c < area.columnCount; c++) {
    if (sheet.cell(area.row, area.column + c)?.value === header) return sheet.cell(area.row + row, area.column + c)?.value;
  }
  return undefined;
}

Object.assign(window, {
  Office: {
    onReady: () => Promise.resolve({ host: "Excel", platform: "OfficeOnline" }),
    context: { requirements: { isSetSupported: () => true }, partitionKey: undefined, diagnostics: { version: "16.0 (stub)", platform: "OfficeOnline" } },
    actions: { associate: () => undefined },
    addin: { showAsTaskpane: async () => undefined },
  },
  CustomFunctions: { associate: () => undefined, Error: class extends Error {}, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } },
  spendStub: { excel, type, read },
});
