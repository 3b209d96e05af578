/**
 * Opening a table for Preview and Sync states (sync-table.ts openSyncTable) on a stand-in workbook: what it refuses,
 * each with what to do (a table Spend Sync did not load, a read-only resource, a table gone, a column missing), and
 * what it reads: each row's id, raw cells, canonical values and status, without the wholly empty rows. Pure apart
 * from the stand-in.
 */
import { SETTING_PREFIX, sourceOf, type CellValue, type ColumnsRead, type LoadParams, type Workbook } from "../../src/sheets";
import { isMarkedGone, openSyncTable } from "../../src/sync";

const T = "SpendAllowances_sub1";
const ALLOWANCES = { resource: "allowances", enterpriseId: "ent-1", subsidiaryId: "sub-1" } as LoadParams;

function standIn(params: LoadParams | null, rows: Record<string, CellValue>[] | null, options: { drop?: string; snapshot?: string[][] } = {}) {
  const layout = params && (params.resource === "allowances" || params.resource === "expenses") ? sourceOf(params).columns : [];
  const header = layout.map((c) => c.header).filter((h) => h !== options.drop);
  const snapHeader = ["Record ID", "state", "accounted_id", "paid_id", "paid_at", "read_only"];
  const asked: string[][] = [];
  const workbook = {
    readSetting: async (key: string) => (params && key === SETTING_PREFIX + T ? JSON.stringify({ params, columns: header, loadedAt: "2026-11-20T10:00:00.000Z" }) : null),
    readColumns: async (name: string, headers: readonly string[]): Promise<ColumnsRead | null> => {
      asked.push([name, ...headers]);
      if (name === T) {
        if (!rows) return null;
        return { sheetName: "S", header, rowCount: rows.length, columns: new Map(headers.filter((h) => header.includes(h)).map((h) => [h, rows.map((r) => r[h] ?? "")])) };
      }
      const snap = options.snapshot ?? [];
      return { sheetName: "Snap", header: snapHeader, rowCount: snap.length, columns: new Map(headers.map((h) => [h, snap.map((r) => r[snapHeader.indexOf(h)] ?? "")])) };
    },
  } as unknown as Workbook;
  return { workbook, asked, header };
}

describe("what it refuses, saying what to do", () => {
  it("a table Spend Sync did not load", async () => {
    const refused = openSyncTable(standIn(null, []).workbook, T);
    await expect(refused).rejects.toThrow(`The table ${T} was not loaded by Spend Sync (this workbook has no load parameters for it), so it has nothing to sync.`);
    await expect(refused).rejects.toMatchObject({ name: "SyncSetupError" });
  });

  it("a table an older version loaded, whose stored parameters this one cannot read: said so, not called a stranger", async () => {
    // A table of a version that named its resource otherwise: no kind of this one's registry to parse it as.
    const older = { resource: "expense", enterpriseId: "ent-1", subsidiary: "sub-1" } as unknown as LoadParams;
    const refused = openSyncTable(standIn(older, []).workbook, T);
    await expect(refused).rejects.toThrow(`The table ${T} was loaded by an older version of Spend Sync, whose load parameters this version cannot read, so it cannot be synced. Load the data again into a new table, and make the changes there.`);
    await expect(refused).rejects.toMatchObject({ name: "SyncSetupError" });
  });

  it("a table an older version loaded before a parameter had its default: opened, its query parsed with the default", async () => {
    // Stored before expand was a parameter: the query lacks it, and is parsed once, at open, with its default.
    const older = { resource: "allowances", enterpriseId: "ent-1", subsidiaryId: "sub-1" } as LoadParams;
    const table = await openSyncTable(standIn(older, []).workbook, T);
    expect(table.query.params).toEqual({ ...older, expand: [] });
    expect(table.query.tracked?.subsidiaryId).toBe("sub-1");
  });

  it.each([
    [{ resource: "cards", enterpriseId: "ent-1" }, "cards"],
    [{ resource: "movements", enterpriseId: "ent-1", cardId: "c", billingPeriodId: "b" }, "movements"],
  ])("a %j table: read-only", async (params, name) => {
    await expect(openSyncTable(standIn(params as LoadParams, []).workbook, T)).rejects.toThrow(
      `Only allowances and expenses have states to sync; the ${name} table is read-only.`);
  });

  it("a table gone from the workbook", async () => {
    await expect(openSyncTable(standIn(ALLOWANCES, null).workbook, T)).rejects.toThrow(`The table ${T} is gone from the workbook; load it again.`);
  });

  it.each(["Paid ID", "Sync status", "Updated (UTC)"])("a column the user deleted: %s", async (drop) => {
    const s = standIn(ALLOWANCES, [], { drop });
    expect(sourceOf(ALLOWANCES).columns.map((c) => c.header)).toContain(drop);
    await expect(openSyncTable(s.workbook, T)).rejects.toThrow(
      `The column "${drop}" is missing from the table ${T} (renamed or deleted?). Put it back, or load the table again.`);
  });
});

describe("what it reads", () => {
  const layout = sourceOf(ALLOWANCES).columns;
  const h = (key: string) => layout.find((c) => c.key === key)!.header;

  it("each row's id, raw cells, canonical values and status; wholly empty rows left out, an id-less row with values kept", async () => {
    const rows = [
      { [h("id")]: " a1 ", [h("state")]: "Accounted", [h("accounted_id")]: " ACC-1 ", [h("paid_at")]: "", [h("status")]: "Will send" },
      { [h("id")]: "", [h("state")]: "" },
      { [h("id")]: "", [h("state")]: "paid" },
    ];
    const s = standIn(ALLOWANCES, rows, { snapshot: [["a1", "approved", "", "", "", ""]] });
    const t = await openSyncTable(s.workbook, T);
    expect([t.tableName, t.resource, t.subsidiaryId, t.params]).toEqual([T, "allowance", "sub-1", { ...ALLOWANCES, expand: [] }]);
    expect(t.rows).toEqual([
      { row: 0, id: "a1", raw: { state: "Accounted", accounted_id: " ACC-1 ", paid_id: "", paid_at: "" }, desired: { state: "accounted", accounted_id: "ACC-1", paid_id: "", paid_at: "" }, status: "Will send" },
      { row: 2, id: "", raw: { state: "paid", accounted_id: "", paid_id: "", paid_at: "" }, desired: { state: "paid", accounted_id: "", paid_id: "", paid_at: "" }, status: "" },
    ]);
    expect(s.asked[0]).toEqual([T, h("id"), h("state"), h("accounted_id"), h("paid_id"), h("paid_at"), h("status")]);
    expect(t.headers).toEqual({ id: h("id"), state: h("state"), accounted_id: h("accounted_id"), paid_id: h("paid_id"), paid_at: h("paid_at"), status: h("status"), updated_at: h("updated_at") });
    expect(t.columns).toEqual(Object.fromEntries(Object.entries(t.headers).map(([k, header]) => [k, s.header.indexOf(header)])));
    expect(t.snapshot.snapshot.get("a1")).toEqual({ state: "approved", accounted_id: "", paid_id: "", paid_at: "" });
  });

  it("an expense table: resource expense, and no Updated at among its headers", async () => {
    const expenses = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-9" } as LoadParams;
    const t = await openSyncTable(standIn(expenses, []).workbook, T);
    expect([t.resource, t.subsidiaryId, "updated_at" in t.headers]).toEqual(["expense", "sub-9", false]);
  });

  it("a status Refresh wrote for a record its query no longer returns marks the row gone; others do not", () => {
    const row = (status: string) => ({ row: 0, id: "a", raw: { state: "", accounted_id: "", paid_id: "", paid_at: "" }, desired: { state: "", accounted_id: "", paid_id: "", paid_at: "" }, status });
    expect(isMarkedGone(row("Not returned by the service any more for this table's query (2026-11-21 10:00 UTC)."))).toBe(true);
    expect(isMarkedGone(row("Applied 2026-11-21 10:00 UTC: approved → accounted"))).toBe(false);
    expect(isMarkedGone(row(""))).toBe(false);
  });
});
