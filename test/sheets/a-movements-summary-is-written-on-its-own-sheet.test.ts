/**
 * After a movements table is loaded or refreshed, its summary is written on a sheet of its own ("Summary …",
 * named like the movements sheet), table "<movements table>_Summary": one line per type, reconciliation and
 * currency, then the totals, each amount in its currency's decimals; rows the query no longer returns are left
 * out and counted. Any other table gets no summary.
 */
import { SETTING_PREFIX, SUMMARY_HEADER, sheetNameOf, sourceOf, summaryPlace, tableNameOf, writeReconciliationSummary, type CellValue, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { tableView } from "../support/excel";

type MovementsParams = Extract<LoadParams, { resource: "movements" }>;
const PARAMS: MovementsParams = { resource: "movements", enterpriseId: "ent-1", cardId: "card-1", billingPeriodId: "bp-2026-11" };

/** A movements table written as a load leaves it (layout columns, the load's parameters kept), with `cells` by header. */
async function movementsTable(params: LoadParams, lines: Record<string, CellValue>[], drop: string[] = []) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const source = sourceOf(params);
  const header = source.columns.map((c) => c.header).filter((h) => !drop.includes(h));
  const tableName = tableNameOf(params);
  await workbook.writeTable({
    sheetName: sheetNameOf(params), tableName, header, rows: lines.map((l) => header.map((h) => l[h] ?? "")),
    numberFormats: header.map(() => null), editable: header.map(() => false), dropdowns: header.map(() => null),
  });
  await workbook.writeSetting(SETTING_PREFIX + tableName, JSON.stringify({ params, columns: header, loadedAt: "2026-11-24T09:30:00.000Z" }));
  return { excel, workbook, tableName };
}

describe("the movements summary", () => {
  it("goes on \"Summary …\" named like the movements sheet, table <movements>_Summary", () => {
    expect(sheetNameOf(PARAMS).startsWith("Movements ")).toBe(true);
    expect(summaryPlace(PARAMS, "T")).toEqual({ sheetName: `Summary ${sheetNameOf(PARAMS).slice("Movements ".length)}`, tableName: "T_Summary" });
  });

  it("sums the table's movements by type, reconciliation and currency, leaving out rows the query no longer returns", async () => {
    const params = { ...PARAMS, expand: ["renconciliation"] } as MovementsParams;
    const { excel, workbook, tableName } = await movementsTable(params, [
      { "Movement ID": "m1", Type: "expense", Amount: 10.5, Currency: "USD", Deposit: "No", Reconciled: "Yes" },
      { "Movement ID": "m2", Type: "expense", Amount: 2.25, Currency: "USD", Deposit: "No", Reconciled: "No" },
      // A deposit counts negative whatever the sign its Amount cell shows.
      { "Movement ID": "m3", Type: "payment", Amount: 100, Currency: "CLP", Deposit: "Yes", Reconciled: "No" },
      { "Movement ID": "m4", Type: "expense", Amount: 7, Currency: "USD", Deposit: "No", Reconciled: "Yes", "Sync status": "Not returned by the service any more for this table's query (refresh 2026-11-24 09:30 UTC)" },
    ]);
    const report = await writeReconciliationSummary(workbook, tableName);
    const place = summaryPlace(params, tableName);
    expect(report && { sheetName: report.sheetName, tableName: report.tableName, leftOut: report.leftOut, lines: report.lines.length }).toEqual({ ...place, leftOut: 1, lines: 8 });
    const view = tableView(excel, place.tableName);
    expect(view.sheet.name).toBe(place.sheetName);
    expect(view.header).toEqual(SUMMARY_HEADER);
    expect(view.rows).toEqual([
      ["Payment to the card", "Not reconciled", "CLP", 1, -100],
      ["Expense", "Reconciled", "USD", 1, 10.5],
      ["Expense", "Not reconciled", "USD", 1, 2.25],
      ["All types", "Not reconciled", "CLP", 1, -100],
      ["All types", "All", "CLP", 1, -100],
      ["All types", "Reconciled", "USD", 1, 10.5],
      ["All types", "Not reconciled", "USD", 1, 2.25],
      ["All types", "All", "USD", 2, 12.75],
    ]);
    expect(view.rows.map((r) => r[3])).toEqual(report!.lines.map((l) => l.count));
    expect(view.rows.map((_, r) => view.format(SUMMARY_HEADER[4], r))).toEqual(
      ["#,##0", "#,##0.00", "#,##0.00", "#,##0", "#,##0", "#,##0.00", "#,##0.00", "#,##0.00"],
    );
    expect(view.rows.map((_, r) => view.format(SUMMARY_HEADER[3], r))).toEqual(view.rows.map(() => "0"));
    expect(view.format(SUMMARY_HEADER[0])).toBe("@");
    // Nothing in it is for the user to edit: no edit fill, no dropdown; its columns at least as wide as their texts need.
    expect(view.rows.flatMap((_, r) => SUMMARY_HEADER.map((h) => view.fill(h, r) ?? null))).toEqual(view.rows.flatMap(() => SUMMARY_HEADER.map(() => null)));
    expect(view.sheet.validations).toEqual([]);
    expect(SUMMARY_HEADER.map((_, c) => view.sheet.columnWidths.get(c))).toEqual([143, 110, 70, 90, 240]);
  });

  it("takes reconciliation from the query where the table has no Reconciled column, and reads a deleted column as empty cells", async () => {
    const params = { ...PARAMS, reconciliation: false, reconciled: true } as MovementsParams;
    expect(sourceOf(params).columns.map((c) => c.header)).not.toContain("Reconciled");
    const { excel, workbook, tableName } = await movementsTable(params, [
      { "Movement ID": "m1", Type: "expense", Amount: 4, Currency: "USD" },
    ], ["Deposit"]);
    await writeReconciliationSummary(workbook, tableName);
    expect(tableView(excel, summaryPlace(params, tableName).tableName).rows).toEqual([
      ["Expense", "Reconciled", "USD", 1, 4],
      ["All types", "Reconciled", "USD", 1, 4],
      ["All types", "All", "USD", 1, 4],
    ]);
  });

  it("is written again where the person keeps it: on its sheet renamed, or on its sheet whose table they deleted", async () => {
    const { excel, workbook, tableName } = await movementsTable(PARAMS, [{ "Movement ID": "m1", Type: "expense", Amount: 4, Currency: "USD" }]);
    const place = summaryPlace(PARAMS, tableName);
    await writeReconciliationSummary(workbook, tableName);
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem(place.sheetName).name = "My summary";
      await context.sync();
    });
    await writeReconciliationSummary(workbook, tableName);
    const sheets = () => excel.model.sheets.map((sh) => sh.name);
    expect(sheets()).toEqual(["Sheet1", sheetNameOf(PARAMS), "My summary"]);
    expect(tableView(excel, place.tableName).sheet.name).toBe("My summary");
    expect(tableView(excel, place.tableName).rows).toEqual([["Expense", "Not shown", "USD", 1, 4], ["All types", "Not shown", "USD", 1, 4], ["All types", "All", "USD", 1, 4]]);
    // Its table deleted, its sheet kept under the summary's own name: the summary goes back on that sheet.
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("My summary").name = place.sheetName;
      context.workbook.tables.getItem(place.tableName).delete();
      await context.sync();
    });
    await writeReconciliationSummary(workbook, tableName);
    expect(sheets()).toEqual(["Sheet1", sheetNameOf(PARAMS), place.sheetName]);
    expect(tableView(excel, place.tableName).sheet.name).toBe(place.sheetName);
    expect(tableView(excel, place.tableName).rows).toHaveLength(3);
  });

  it("is not written where the movements table was deleted", async () => {
    const { excel, workbook, tableName } = await movementsTable(PARAMS, [{ "Movement ID": "m1", Type: "expense", Amount: 4, Currency: "USD" }]);
    excel.model.tables.length = 0;
    expect(await writeReconciliationSummary(workbook, tableName)).toBeNull();
    expect(excel.model.tables).toEqual([]);
  });

  it("is not written for a table that is not of movements, or not loaded by Spend Sync", async () => {
    const { excel, workbook } = await movementsTable({ resource: "cards", enterpriseId: "ent-1" }, [{ "Card ID": "c1" }]);
    expect(await writeReconciliationSummary(workbook, tableNameOf({ resource: "cards", enterpriseId: "ent-1" }))).toBeNull();
    expect(await writeReconciliationSummary(workbook, "Nobody")).toBeNull();
    expect(excel.model.tables.map((t) => t.name)).toEqual([tableNameOf({ resource: "cards", enterpriseId: "ent-1" })]);
  });
});
