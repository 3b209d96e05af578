/**
 * A first load writes the query's records into a new table and its snapshot as the pages arrive, then keeps
 * its parameters and lists the table; a cancel or a failure at any point takes back the table, its snapshot
 * and their sheets: nothing partial is left, no setting written.
 */
import { CancelledError, SpendClient } from "../../src/api";
import { SETTING_PREFIX, TABLES_SETTING, loadTable, snapshotTableOf, tableNameOf, type LoadParams, type LoadProgress } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { fakeTransport, pageOf, type Script } from "../support/fake-transport";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");
const pageNumber = (url: string) => Number(new URL(url).searchParams.get("page") ?? 1);

function setup(script: Script) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport(script);
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  const left = () => ({
    tables: excel.model.tables.map((t) => t.name),
    sheets: excel.model.sheets.map((s) => s.name),
    settings: [...excel.model.settings.keys()].filter((k) => k.startsWith("spendsync.")),
  });
  return { excel, workbook, client, left, wire };
}

const NOTHING = { tables: [], sheets: ["Sheet1"], settings: [] };

describe("a first load", () => {
  it("writes every record, its snapshot, its parameters and the list of tables, and reports what it loaded", async () => {
    const s = setup((request) => ({ body: pageOf(request.url, 3) }));
    const progress: LoadProgress[] = [];
    const report = await loadTable(s.client, s.workbook, PARAMS, { now: NOW, onProgress: (p) => progress.push(p) });
    expect(report).toEqual({
      tableName: TABLE, sheetName: report.sheetName, count: 3, added: 3, updated: 0, removed: 0, userColumns: [], keptEdits: 0, conflicts: 0,
      discardedEdits: 0, amounts: report.amounts, malformed: 0, typed: { kept: [], replaced: 0 },
    });
    expect(report.sheetName).toBe(s.excel.model.table(TABLE)!.sheet.name);
    expect(tableView(s.excel, TABLE).values("Card ID")).toEqual(["r1", "r2", "r3"]);
    expect(tableView(s.excel, snapshotTableOf(TABLE)).values("Record ID")).toEqual(["r1", "r2", "r3"]);
    expect(JSON.parse(String(s.excel.model.settings.get(TABLES_SETTING)))).toEqual([TABLE]);
    expect(JSON.parse(String(s.excel.model.settings.get(SETTING_PREFIX + TABLE))).loadedAt).toBe("2026-11-24T09:30:00.000Z");
    expect(progress.filter((p) => p.phase === "write")).toEqual([{ phase: "write", done: 3, total: 3 }]);
  });

  it("shows its progress against the service's count of records, page after page", async () => {
    const s = setup((request) => ({ body: pageOf(request.url, 250) }));
    const progress: LoadProgress[] = [];
    await loadTable(s.client, s.workbook, PARAMS, { now: NOW, onProgress: (p) => progress.push(p) });
    const writes = progress.filter((p) => p.phase === "write");
    expect(writes.every((p) => p.total === 250)).toBe(true);
    expect(writes.at(-1)).toEqual({ phase: "write", done: 250, total: 250 });
    expect(tableView(s.excel, TABLE).rows).toHaveLength(250);
  });

  it("shows as the total what it fetched where the service gives no count", async () => {
    const s = setup((request) => ({ body: { ...pageOf(request.url, 3), count: null } }));
    const progress: LoadProgress[] = [];
    await loadTable(s.client, s.workbook, PARAMS, { now: NOW, onProgress: (p) => progress.push(p) });
    expect(progress.filter((p) => p.phase === "write")).toEqual([{ phase: "write", done: 3, total: 3 }]);
  });

  it("counts records that do not match the API, loaded as rows of their own", async () => {
    const s = setup((request) => {
      const page = pageOf(request.url, 3) as { results: Record<string, unknown>[] };
      page.results[1].billing_day = "not a day";
      return { body: page };
    });
    const report = await loadTable(s.client, s.workbook, PARAMS, { now: NOW });
    expect([report.count, report.malformed]).toEqual([3, 1]);
    expect(tableView(s.excel, TABLE).values("Card ID")).toEqual(["r1", "r2", "r3"]);
  });

  it("cancelled before it starts: nothing is written", async () => {
    const s = setup((request) => ({ body: pageOf(request.url, 3) }));
    const cancel = new AbortController();
    cancel.abort();
    const error = await loadTable(s.client, s.workbook, PARAMS, { now: NOW, signal: cancel.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe("Cancelled.");
    expect(s.wire.requests.length).toBeLessThanOrEqual(1);
    expect(s.left()).toEqual(NOTHING);
  });

  it("cancelled after its first page: the table and snapshot written so far are taken back", async () => {
    const cancel = new AbortController();
    const s = setup((request) => {
      if (pageNumber(request.url) === 2) cancel.abort();
      return { body: pageOf(request.url, 250) };
    });
    const error = await loadTable(s.client, s.workbook, PARAMS, { now: NOW, signal: cancel.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/cancel/i);
    expect(s.left()).toEqual(NOTHING);
  });

  it("cancelled once every page is in: still nothing is left", async () => {
    const cancel = new AbortController();
    const s = setup((request) => ({ body: pageOf(request.url, 3) }));
    const error = await loadTable(s.client, s.workbook, PARAMS, {
      now: NOW, signal: cancel.signal, onProgress: (p) => { if (p.phase === "write") cancel.abort(); },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe("Cancelled.");
    expect(s.left()).toEqual(NOTHING);
  });

  it("a page refused by the service: the error is the load's, and nothing is left", async () => {
    const s = setup((request) => (pageNumber(request.url) === 2 ? { status: 400, body: { detail: "bad page" } } : { body: pageOf(request.url, 250) }));
    await expect(loadTable(s.client, s.workbook, PARAMS, { now: NOW })).rejects.toThrow();
    expect(s.left()).toEqual(NOTHING);
  });
});
