/**
 * Refresh keeps the rows of records the query no longer returns (marked) and adds the new ones below: with
 * both, a table may need more rows than a sheet holds. Refresh then changes nothing (table, snapshot, stored
 * parameters) and says how many rows it would have, how many of them are gone from the service, and what to do.
 * A sheet's limit is lowered to 5 rows here (the service's lists are bounded by the same constant), so that
 * the rule is tested without a million rows.
 */
jest.mock("../../src/api/page-guard", () => ({ ...jest.requireActual("../../src/api/page-guard"), MAX_LIST_RECORDS: 5 }));

import { SpendClient } from "../../src/api";
import { loadTable, refreshTable, snapshotTableOf, tableNameOf, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { card, fakeTransport } from "../support/fake-transport";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");

it.each([
  ["only what changed", false],
  ["the whole table", true],
])("a refresh writing %s that would need 6 rows of a sheet's 5 (3 gone, 3 new) refuses, and changes nothing", async (_, wholeTable) => {
  let ids = ["r1", "r2", "r3"];
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport(() => ({ body: { count: ids.length, next: null, previous: null, results: ids.map((id) => card(id)) } }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await loadTable(client, workbook, PARAMS, { now: NOW });
  const before = { table: tableView(excel, TABLE).rows, snapshot: tableView(excel, snapshotTableOf(TABLE)).rows, settings: new Map(excel.model.settings) };
  ids = ["r4", "r5", "r6"];
  await expect(refreshTable(client, workbook, TABLE, { now: () => new Date("2026-11-25T10:00:00Z"), wholeTable })).rejects.toThrow(
    `Refreshed, ${TABLE} would have 6 rows (3 of them no longer returned by the service), more than a sheet holds (5). Nothing was changed: ` +
      "delete the rows marked as not returned, or load a narrower selection.",
  );
  expect(tableView(excel, TABLE).rows).toEqual(before.table);
  expect(tableView(excel, snapshotTableOf(TABLE)).rows).toEqual(before.snapshot);
  expect(excel.model.settings).toEqual(before.settings);
  // At exactly what a sheet holds (2 gone, 3 new: 5 rows) it refreshes.
  ids = ["r3", "r4", "r5"];
  const report = await refreshTable(client, workbook, TABLE, { now: NOW, wholeTable });
  expect([report.added, report.removed]).toEqual([2, 2]);
  expect(tableView(excel, TABLE).values("Card ID")).toEqual(["r1", "r2", "r3", "r4", "r5"]);
});
