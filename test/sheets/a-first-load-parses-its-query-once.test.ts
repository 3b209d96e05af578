/**
 * A query is parsed once where it enters (here, as the taskpane's form does: Query.parse), then passed down whole:
 * the first load of a movements table, its table and sheet names, its columns, its rows and its reconciliation
 * summary parse the parameters no second time, and nothing reads the table's stored settings back to learn what
 * the table holds. Before issue 44 the same load parsed them 10 times and read the settings once more.
 */
import { LoadParams, Query, SETTING_PREFIX, loadTable, loadedQuery, refreshTable, writeReconciliationSummary, type Workbook } from "../../src/sheets";
import { withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeAll(async () => {
  f = await withExcel();
});
afterAll(() => f?.sandbox.close());
afterEach(() => jest.restoreAllMocks());

/** Counts every parse of load parameters by their schema, and every read of a stored table's settings. */
function counting(workbook: Workbook) {
  const parses = [jest.spyOn(LoadParams, "parse"), jest.spyOn(LoadParams, "safeParse"), jest.spyOn(LoadParams, "parseAsync"), jest.spyOn(LoadParams, "safeParseAsync")];
  const settingsRead: string[] = [];
  const readSetting = workbook.readSetting.bind(workbook);
  jest.spyOn(workbook, "readSetting").mockImplementation(async (key) => {
    if (key.startsWith(SETTING_PREFIX)) settingsRead.push(key);
    return readSetting(key);
  });
  return { parses: () => parses.reduce((n, spy) => n + spy.mock.calls.length, 0), settingsRead };
}

it("a first load of movements and its summary parse the query once and never read its settings back", async () => {
  const card = f.enterprise.cards.find((c) => c.billing_periods.length > 0)!;
  const count = counting(f.workbook);
  const query = Query.parse({ resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: card.billing_periods[0] });
  const report = await loadTable(f.client, f.workbook, query);
  // The load looks whether the table exists (its settings: none yet, a first load); after it, nothing is read back.
  const readByLoad = count.settingsRead.length;
  expect(loadedQuery(report)).toBe(query);
  const summary = await writeReconciliationSummary(f.workbook, report.tableName, loadedQuery(report));
  expect(summary?.lines.length).toBeGreaterThan(0);
  expect(count.parses()).toBe(1);
  expect(count.settingsRead.length).toBe(readByLoad);
});

it("a refresh parses the stored query once, from the table's settings", async () => {
  const params = { resource: "cards", enterpriseId: f.enterprise.id } as const;
  const { tableName } = await loadTable(f.client, f.workbook, params);
  const count = counting(f.workbook);
  const report = await refreshTable(f.client, f.workbook, tableName);
  expect(loadedQuery(report)?.params).toEqual({ ...params, expand: [] });
  // The stored settings are parsed by the stored table's schema (LoadParams inside it), not by LoadParams again.
  expect(count.parses()).toBe(0);
});
