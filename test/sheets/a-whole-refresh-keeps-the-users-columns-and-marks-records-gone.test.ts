/**
 * A refresh that rewrites the whole table (asked to, or where it must) writes every record again with the
 * user's own columns as they were (their formulas as formulas, their formats left), keeps the rows of records
 * the query no longer returns, marked, adds new ones, says so in its report, and keeps the snapshot of every
 * row, gone ones too.
 */
import { SpendClient } from "../../src/api";
import { loadTable, readSnapshotRows, refreshTable, snapshotTableOf, tableNameOf, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { card, fakeTransport, pageOf } from "../support/fake-transport";
import { expense } from "../api/helpers/records";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");

it("rewrites every record, keeps the user's column with its formula and format, marks the record gone and adds the new one", async () => {
  let ids = ["r1", "r2", "r3"];
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport((request) => {
    const page = pageOf(request.url, 4) as { results: { id: string }[]; count: number };
    page.results = page.results.filter((r) => ids.includes(r.id));
    page.count = page.results.length;
    return { body: page };
  });
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await loadTable(client, workbook, PARAMS, { now: NOW });
  const t = excel.model.table(TABLE)!;
  const mine = t.area.column + t.area.columnCount;
  t.sheet.ensure(t.area.row, mine).value = "Mine";
  t.area.columnCount++;
  for (let r = 1; r <= 3; r++) Object.assign(t.sheet.ensure(t.area.row + r, mine), { value: r * 2, formula: `=${r}*2`, numberFormat: "0.0" });
  ids = ["r1", "r2", "r4"];
  const report = await refreshTable(client, workbook, TABLE, { now: NOW, wholeTable: true });
  expect({ ...report, amounts: undefined }).toEqual({
    tableName: TABLE, sheetName: t.sheet.name, count: 3, added: 1, updated: 2, removed: 1, userColumns: ["Mine"], keptEdits: 0, conflicts: 0,
    discardedEdits: 0, amounts: undefined, malformed: 0, typed: { kept: [], replaced: 0 }, refreshed: { whole: true, why: "asked to" },
  });
  const view = tableView(excel, TABLE);
  expect(view.values("Card ID")).toEqual(["r1", "r2", "r3", "r4"]);
  expect(view.values("Sync status")).toEqual(["", "", "Not returned by the service any more for this table's query (refresh 2026-11-24 09:30 UTC)", ""]);
  expect(view.values("Mine")[3]).toBe(""); // the in-memory Excel does not calculate: the formulas below are what the user sees work
  expect([0, 1, 2].map((r) => view.formula("Mine", r))).toEqual(["=1*2", "=2*2", "=3*2"]);
  expect([0, 1, 2].map((r) => view.format("Mine", r))).toEqual(["0.0", "0.0", "0.0"]);
  expect(view.format("Billing day", 3)).toBe(view.format("Billing day", 0));
  const snapshot = await readSnapshotRows(workbook, TABLE);
  expect([...snapshot.rowOf.keys()].sort()).toEqual(["r1", "r2", "r3", "r4"]);
  expect(tableView(excel, snapshotTableOf(TABLE)).values("cells").map((c) => c === "")).toEqual([false, false, false, true]);
  // The next refresh writes only what changed again, and counts the record gone once more.
  const next = await refreshTable(client, workbook, TABLE, { now: NOW });
  expect([next.refreshed, next.removed, next.updated]).toEqual([{ whole: false }, 1, 0]);
});

it.each<[string, LoadParams, (url: string) => unknown, boolean]>([
  ["cards, refreshed whole", PARAMS, (url) => pageOf(url, 3), true],
  ["cards, refreshed by what changed", PARAMS, (url) => pageOf(url, 3), false],
  ["expenses (whose edits are looked for), refreshed whole", { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" },
    () => ({ count: 3, next: null, previous: null, results: [1, 2, 3].map((n) => expense(n)) }), true],
])("a table of %s that the person deletes while the service is read stays deleted: load it again, and nothing else changes", async (_, params, page, wholeTable) => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport((request) => ({ body: page(request.url) }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  const table = (await loadTable(client, workbook, params, { now: NOW })).tableName;
  const snapshot = tableView(excel, snapshotTableOf(table)).rows;
  const readColumns = workbook.readColumns.bind(workbook);
  workbook.readColumns = async (name, headers) => {
    const read = await readColumns(name, headers);
    if (name === table && headers.length === 0) {
      await excel.run(async (context) => {
        context.workbook.tables.getItem(table).delete();
        await context.sync();
      });
    }
    return read;
  };
  const settings = new Map(excel.model.settings);
  await expect(refreshTable(client, workbook, table, { now: () => new Date("2026-11-25T10:00:00Z"), wholeTable })).rejects.toThrow(
    `The table ${table} is gone from the workbook; load it again.`,
  );
  expect(excel.model.table(table)).toBeUndefined();
  expect(tableView(excel, snapshotTableOf(table)).rows).toEqual(snapshot);
  expect(excel.model.settings).toEqual(settings);
});

it("a table deleted just before a refresh of what changed reads back the rows it will write stays deleted too, and nothing changes", async () => {
  let ids = ["r1", "r2", "r3"];
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport(() => ({ body: { count: ids.length, next: null, previous: null, results: ids.map((id) => ({ ...card(id), billing_day: ids.length + 10 })) } }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await loadTable(client, workbook, PARAMS, { now: NOW });
  const snapshot = tableView(excel, snapshotTableOf(TABLE)).rows;
  const readRows = workbook.readRows.bind(workbook);
  let asked = 0;
  workbook.readRows = async (name, rows, headers) => {
    if (name === TABLE) {
      asked++;
      await excel.run(async (context) => {
        context.workbook.tables.getItem(TABLE).delete();
        await context.sync();
      });
    }
    return readRows(name, rows, headers);
  };
  ids = ["r1", "r2", "r3", "r4"]; // every record's Billing day changes: each row is read back before it is written
  const settings = new Map(excel.model.settings);
  await expect(refreshTable(client, workbook, TABLE, { now: NOW })).rejects.toThrow(`The table ${TABLE} is gone from the workbook; load it again.`);
  expect(asked).toBe(1);
  expect(excel.model.table(TABLE)).toBeUndefined();
  expect(tableView(excel, snapshotTableOf(TABLE)).rows).toEqual(snapshot);
  expect(excel.model.settings).toEqual(settings);
});
