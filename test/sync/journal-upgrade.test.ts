/** A workbook with a journal of an older layout: its lines stay as they are, new lines go to a journal beside it. */
import { loadTable, type LoadParams } from "../../src/sheets";
import { JOURNAL_HEADER, JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { edit } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const TEN = ["Time (UTC)", "Table", "Resource", "Record ID", "From", "To", "Fields sent", "HTTP status", "Outcome", "Message"];
/** The layout before the Exact request column (issue 43). */
const THIRTEEN = ["Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Request", "Fields sent", "HTTP status", "Outcome", "Message"];
/** The layout before the Request column (issue 24). */
const TWELVE = ["Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Fields sent", "HTTP status", "Outcome", "Message"];

it.each([
  ["10", TEN, [46000.5, "SpendExpenses_x", "expense", "id-1", "approved", "paid", '{"state":"paid"}', 200, "applied", ""]],
  ["12", TWELVE, [46000.5, "r1", "Ana", "SpendExpenses_x", "expense", "id-1", "approved", "paid", '{"state":"paid"}', 200, "conflict", "Changed on the server"]],
  ["13", THIRTEEN, [46000.5, "r1", "Ana", "SpendExpenses_x", "expense", "id-1", "approved", "paid", "PATCH", '{"state":"paid"}', 200, "applied", ""]],
])("keeps the old %s-column journal untouched and writes this sync's lines to a 14-column journal", async (_n, oldHeader, oldLine) => {
  await f.workbook.writeTable({
    sheetName: "Spend Sync journal", tableName: JOURNAL_TABLE, header: oldHeader, rows: [oldLine],
    numberFormats: oldHeader.map(() => null), editable: oldHeader.map(() => false), dropdowns: oldHeader.map(() => null),
  });
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" } as LoadParams);
  const id = f.sandbox.store.expensesOf(f.sub).find((e) => e.state === "approved")!.id;
  edit(f, report.tableName, id, { State: "accounted", "Accounted ID": "ACC-UPGRADE" });
  const result = await runSync(f.client, f.workbook, await previewSync(f.workbook, report.tableName));
  expect(result.counts.applied).toBe(1);

  const old = tableView(f.excel, JOURNAL_TABLE);
  expect(old.header).toEqual(oldHeader);
  expect(old.rows).toEqual([oldLine]);
  const fresh = tableView(f.excel, `${JOURNAL_TABLE}_${JOURNAL_HEADER.length}`);
  expect(fresh.header).toEqual(JOURNAL_HEADER);
  expect(JOURNAL_HEADER).toHaveLength(14);
  expect(fresh.sheet.name).toBe("Spend Sync journal (14 columns)");
  expect(fresh.values("Record ID")).toEqual([id, id]);
  expect(fresh.values("Request")).toEqual(["PATCH", "PATCH"]);
  expect(fresh.values("Outcome")).toEqual(["sending", "applied"]);
});
