/**
 * Load and Refresh of a small table (two cards, in the in-memory Excel): a table Refresh can write in part is
 * written in part; one it cannot is rewritten whole, and the report says why (asked to, no record of its
 * load, Spend Sync's columns changed, a column missing). Refresh All goes through the loaded tables in order,
 * reporting a table deleted as gone and one that fails as failed, without stopping; a cancel stops it.
 * What the workbook keeps of a load: its parameters (never the key) and the list of loaded tables.
 */
import { SpendClient } from "../../src/api";
import { SETTING_PREFIX, TABLES_SETTING, loadTable, refreshAll, refreshTable, listLoadedTables, readStoredTable, stampOf, hashedPlaces, keepParams, tableNameOf, type Load, type LoadParams, type Workbook } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { fakeTransport, pageOf } from "../support/fake-transport";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const NOW = () => new Date("2026-11-24T09:30:45.678Z");

function setup(total = 2) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport((request) => ({ body: pageOf(request.url, total) }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  return { excel, workbook, client, table: tableNameOf(PARAMS) };
}

async function loadedCards(total = 2) {
  const s = setup(total);
  await loadTable(s.client, s.workbook, PARAMS, { now: NOW });
  return s;
}

describe("refresh: in part or whole", () => {
  it("writes only what changed when it can", async () => {
    const s = await loadedCards();
    const report = await refreshTable(s.client, s.workbook, s.table, { now: NOW });
    expect(report.refreshed).toEqual({ whole: false });
    expect(tableView(s.excel, s.table).values("Card ID")).toEqual(["r1", "r2"]);
  });

  it("rewrites the table whole when asked to", async () => {
    const s = await loadedCards();
    expect((await refreshTable(s.client, s.workbook, s.table, { now: NOW, wholeTable: true })).refreshed).toEqual({ whole: true, why: "asked to" });
  });

  it("rewrites the table whole when the workbook has no record of its load", async () => {
    const s = await loadedCards();
    const progress: string[] = [];
    expect((await loadTable(s.client, s.workbook, PARAMS, { now: NOW })).refreshed).toEqual({ whole: false });
    s.excel.model.settings.delete(SETTING_PREFIX + s.table);
    expect((await loadTable(s.client, s.workbook, PARAMS, { now: NOW, onProgress: (p) => progress.push(p.phase) })).refreshed).toEqual({ whole: true, why: "the workbook has no record of how it was loaded" });
    expect([...new Set(progress)]).toEqual(["fetch", "write"]);
  });

  it("rewrites the table whole when Spend Sync's columns for it changed since its load", async () => {
    const s = await loadedCards();
    const key = SETTING_PREFIX + s.table;
    const stored = JSON.parse(String(s.excel.model.settings.get(key)));
    s.excel.model.settings.set(key, JSON.stringify({ ...stored, columns: [...stored.columns.slice(0, -1), "Old name"] }));
    expect((await refreshTable(s.client, s.workbook, s.table, { now: NOW })).refreshed).toEqual({ whole: true, why: "Spend Sync's columns for this table changed since it was loaded" });
  });

  it("rewrites the table whole when its snapshot has no fingerprints (an earlier version loaded it), and writes them", async () => {
    const s = await loadedCards();
    const snap = s.excel.model.table(`Snap_${s.table}`)!;
    snap.sheet.ensure(snap.area.row, snap.area.column + 7).value = "old";
    expect((await refreshTable(s.client, s.workbook, s.table, { now: NOW })).refreshed).toEqual({ whole: true, why: "it was loaded by an earlier version of Spend Sync" });
    expect((await refreshTable(s.client, s.workbook, s.table, { now: NOW })).refreshed).toEqual({ whole: false });
  });

  it("rewrites the table whole, naming them, when its columns are missing", async () => {
    const s = await loadedCards();
    const t = s.excel.model.table(s.table)!;
    const header = tableView(s.excel, s.table).header;
    t.sheet.ensure(t.area.row, t.area.column + header.indexOf("Billing day")).value = "Day";
    expect((await refreshTable(s.client, s.workbook, s.table, { now: NOW })).refreshed).toEqual({ whole: true, why: 'its column "Billing day" is missing' });
    const again = await loadedCards();
    const u = again.excel.model.table(again.table)!;
    u.sheet.ensure(u.area.row, u.area.column + header.indexOf("Billing day")).value = "Day";
    u.sheet.ensure(u.area.row, u.area.column + header.indexOf("Billing mode")).value = "Mode";
    expect((await refreshTable(again.client, again.workbook, again.table, { now: NOW })).refreshed).toEqual({ whole: true, why: 'its columns "Billing day", "Billing mode" are missing' });
  });

  it("refreshes a table by the name it was loaded with, where today's name of its query differs", async () => {
    const s = await loadedCards();
    const old = "CardsOfOld";
    s.excel.model.table(s.table)!.name = old;
    s.excel.model.table(`Snap_${s.table}`)!.name = `Snap_${old}`;
    const key = (name: string) => SETTING_PREFIX + name;
    s.excel.model.settings.set(key(old), s.excel.model.settings.get(key(s.table)));
    s.excel.model.settings.delete(key(s.table));
    s.excel.model.settings.set(TABLES_SETTING, JSON.stringify([old]));
    const report = await refreshTable(s.client, s.workbook, old, { now: NOW });
    expect([report.tableName, report.refreshed]).toEqual([old, { whole: false }]);
    expect(s.excel.model.tables.map((t) => t.name).sort()).toEqual([old, `Snap_${old}`]);
    expect(tableView(s.excel, old).values("Card ID")).toEqual(["r1", "r2"]);
  });

  it("refuses a table of another enterprise, and one Spend Sync did not load", async () => {
    const s = setup();
    await expect(loadTable(s.client, s.workbook, { ...PARAMS, enterpriseId: "ent-2" })).rejects.toThrow(
      "This table belongs to enterprise ent-2; you are connected to ent-1. Connect to that enterprise to refresh it.",
    );
    await expect(refreshTable(s.client, s.workbook, "Mine")).rejects.toThrow(
      "The table Mine was not loaded by Spend Sync (no load parameters in this workbook), so it cannot be refreshed.",
    );
  });
});

describe("refresh all", () => {
  it("goes through the loaded tables in order: refreshed, gone, failed; telling each start, progress and outcome", async () => {
    const s = await loadedCards();
    s.excel.model.settings.set(TABLES_SETTING, JSON.stringify(["Deleted", s.table, "Foreign"]));
    await s.workbook.writeTable({ sheetName: "X", tableName: "Foreign", header: ["A"], rows: [["1"]], numberFormats: ["@"], editable: [false], dropdowns: [null] });
    const heard: string[] = [];
    const outcomes = await refreshAll(s.client, s.workbook, {
      now: NOW,
      wholeTable: true,
      onTable: (name, index, total) => heard.push(`start ${name} ${index}/${total}`),
      onProgress: (name, p) => heard.push(`progress ${name} ${p.phase}`),
      onOutcome: (o) => heard.push(`outcome ${o.tableName} ${o.kind}`),
    });
    expect(outcomes.map((o) => [o.tableName, o.kind])).toEqual([["Deleted", "gone"], [s.table, "refreshed"], ["Foreign", "failed"]]);
    expect(outcomes[1].kind === "refreshed" && outcomes[1].report.refreshed).toEqual({ whole: true, why: "asked to" });
    expect(outcomes[2].kind === "failed" && String(outcomes[2].error)).toBe(
      "WorkbookError: The table Foreign was not loaded by Spend Sync (no load parameters in this workbook), so it cannot be refreshed.",
    );
    expect([...new Set(heard)]).toEqual([
      "start Deleted 0/3", "outcome Deleted gone",
      `start ${s.table} 1/3`, `progress ${s.table} fetch`, `progress ${s.table} write`, `outcome ${s.table} refreshed`,
      "start Foreign 2/3", "outcome Foreign failed",
    ]);
  });

  it("stops before the next table once cancelled", async () => {
    const s = await loadedCards();
    const cancel = new AbortController();
    s.excel.model.settings.set(TABLES_SETTING, JSON.stringify(["Deleted", "Other"]));
    const outcomes = await refreshAll(s.client, s.workbook, { signal: cancel.signal, onOutcome: () => cancel.abort() });
    expect(outcomes).toEqual([{ tableName: "Deleted", kind: "gone" }]);
  });
});

describe("what the workbook keeps of a load", () => {
  /** A workbook of settings only. */
  function settingsOnly(initial: Record<string, string> = {}) {
    const settings = new Map(Object.entries(initial));
    const workbook = { readSetting: async (key: string) => settings.get(key) ?? null, writeSetting: async (key: string, value: string) => void settings.set(key, value) } as unknown as Workbook;
    return { settings, workbook };
  }

  it("keeps the load's parameters, columns and time, and adds the table to the list once", async () => {
    const { settings, workbook } = settingsOnly();
    const load = { workbook, params: PARAMS, layout: ["Card ID", "Bank ID"], now: NOW(), tableName: "T", loadedTables: ["A"] } as unknown as Load;
    await keepParams(load);
    expect(JSON.parse(settings.get(`${SETTING_PREFIX}T`)!)).toEqual({ params: { resource: "cards", enterpriseId: "ent-1" }, columns: ["Card ID", "Bank ID"], loadedAt: "2026-11-24T09:30:45.678Z" });
    expect(JSON.parse(settings.get(TABLES_SETTING)!)).toEqual(["A", "T"]);
    settings.delete(TABLES_SETTING);
    await keepParams({ ...load, loadedTables: ["T"] });
    expect(settings.has(TABLES_SETTING)).toBe(false);
    expect(await readStoredTable(workbook, "T")).toEqual({ params: { resource: "cards", enterpriseId: "ent-1", expand: [] }, columns: ["Card ID", "Bank ID"], loadedAt: "2026-11-24T09:30:45.678Z" });
  });

  it("reads no parameters where none or something else is kept", async () => {
    const { workbook } = settingsOnly({ [`${SETTING_PREFIX}Bad`]: JSON.stringify({ params: { resource: "cards" }, columns: [], loadedAt: "x" }) });
    expect(await readStoredTable(workbook, "None")).toBeNull();
    expect(await readStoredTable(workbook, "Bad")).toBeNull();
  });

  it("lists the loaded tables' names, and none where the list is missing, not JSON or not a list", async () => {
    expect(await listLoadedTables(settingsOnly({ [TABLES_SETTING]: JSON.stringify(["A", 3, "B", null]) }).workbook)).toEqual(["A", "B"]);
    expect(await listLoadedTables(settingsOnly().workbook)).toEqual([]);
    expect(await listLoadedTables(settingsOnly({ [TABLES_SETTING]: "not json" }).workbook)).toEqual([]);
    expect(await listLoadedTables(settingsOnly({ [TABLES_SETTING]: JSON.stringify({ 0: "A" }) }).workbook)).toEqual([]);
    expect(await listLoadedTables(settingsOnly({ [TABLES_SETTING]: "" }).workbook)).toEqual([]);
  });

  it("stamps a refresh to the minute in UTC, and fingerprints every column but the editable ones and the status", () => {
    expect(stampOf(NOW())).toBe("2026-11-24 09:30 UTC");
    expect(hashedPlaces([{ key: "id" }, { key: "state", editable: true }, { key: "status" }, { key: "amount", editable: false }])).toEqual([0, 3]);
  });
});
