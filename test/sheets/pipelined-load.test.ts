/**
 * A first load writes pages into Excel as they arrive; a cancel or an error leaves nothing behind; a list
 * longer than a sheet is refused after its first page.
 */
import { SpendClient } from "../../src/api";
import type { RawRequest, RawResponse, Transport } from "../../src/api/transport";
import { SETTING_PREFIX, loadTable, sheetNameOf, snapshotSheetOf, snapshotTableOf, tableNameOf, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { fakeTransport, pageOf } from "../support/fake-transport";
import { clientWith } from "../support/sync";

let f: ExcelFixture;
beforeAll(async () => {
  f = await withExcel({ scale: 8 }); // 2,400 expenses in the first subsidiary: three pages of 1,000
});
afterAll(() => f.sandbox.close());

const pageOfUrl = (url: string) => Number(new URL(url).searchParams.get("page") ?? 1);

/** A client whose request for `page` waits until `open()` (and then answers as the sandbox does, or with `reply`). */
function heldAt(page: number, reply?: (request: RawRequest) => RawResponse) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked = false;
  const client = clientWith(f, (inner): Transport => async (request) => {
    if (pageOfUrl(request.url) !== page) return inner(request);
    asked = true;
    await Promise.race([gate, new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))]);
    return reply ? reply(request) : inner(request);
  });
  return { client, open, asked: () => asked };
}

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 5_000 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(what()).toBe(true);
}

function freshExcel() {
  const excel = new FakeExcel();
  return { excel, workbook: new ExcelWorkbook(excel) };
}

const params = (): LoadParams => ({ resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
const rowsIn = (excel: FakeExcel, tableName: string) => (excel.model.table(tableName) ? tableView(excel, tableName).rows.length : 0);

/** What a load leaves in the workbook: its table, sheet, snapshot and settings. */
function leftBehind(excel: FakeExcel) {
  return {
    tables: excel.model.tables.map((t) => t.name),
    sheets: excel.model.sheets.map((s) => s.name),
    settings: [...excel.model.settings.keys()].filter((k) => k.startsWith("spendsync.")),
  };
}

describe("a first load", () => {
  it("shows the first pages in the table while the last one is still on its way, then every record in order, formatted", async () => {
    const { excel, workbook } = freshExcel();
    const held = heldAt(3);
    const expenses = f.sandbox.store.expensesOf(f.sub);
    expect(expenses.length).toBe(2400);
    const loading = loadTable(held.client, workbook, params());
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    await until(() => rowsIn(excel, tableName) === 2000);
    expect(held.asked()).toBe(true);
    expect(tableView(excel, tableName).values("Expense ID")).toEqual(expenses.slice(0, 2000).map((e) => e.id));
    // The snapshot (hidden) exists from the start and goes to Excel in full requests only: the 2,000 rows so
    // far (about 0.2 MB) wait for more, so it still has just its one empty row.
    expect(tableView(excel, snapshotTableOf(tableName)).values("Record ID")).toEqual([""]);
    held.open();
    const report = await loading;
    expect(report).toMatchObject({ tableName, count: 2400, added: 2400, updated: 0, removed: 0 });
    const t = tableView(excel, tableName);
    expect(t.values("Expense ID")).toEqual(expenses.map((e) => e.id));
    expect(t.values("Amount")).toEqual(expenses.map((e) => e.amount));
    // The last row is dressed like the first: editable fill, dropdown, number formats.
    expect(t.fill("State", 2399)).toBe("#FFF4CE");
    expect(t.sheet.validationAt(1 + 2399, t.column("State"))?.list.source).toBe("draft,pending,approved,accounted,paid,rejected");
    expect(t.format("Date", 2399)).toBe("yyyy-mm-dd");
    expect(excel.model.recalculationPending).toBe(false);
    // The snapshot and the parameters are there, so Sync states and Refresh work on it.
    const snapshot = tableView(excel, snapshotTableOf(tableName));
    expect(snapshot.values("Record ID")).toEqual(expenses.map((e) => e.id));
    expect(snapshot.values("state")).toEqual(expenses.map((e) => e.state));
    expect(snapshot.sheet.visibility).toBe("VeryHidden");
    expect(excel.model.settings.has(SETTING_PREFIX + tableName)).toBe(true);
  });

  it("creates its table and snapshot while the first page travels, and takes both back if that page fails", async () => {
    const { excel, workbook } = freshExcel();
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    const held = heldAt(1, () => ({ status: 200, headers: new Headers(), text: "{\"count\": 2400, \"results\": \"not a list\"}" }));
    const loading = loadTable(held.client, workbook, params());
    loading.catch(() => undefined);
    await until(() => held.asked() && excel.model.table(tableName) !== undefined && excel.model.table(snapshotTableOf(tableName)) !== undefined);
    expect(tableView(excel, tableName).header[0]).toBe("Expense ID");
    held.open();
    await expect(loading).rejects.toMatchObject({ name: "SchemaError" });
    expect(leftBehind(excel)).toEqual({ tables: [], sheets: ["Sheet1"], settings: [] });
  });

  it("cancelled after two pages are in the table, leaves no table, no sheet, no snapshot and no setting", async () => {
    const { excel, workbook } = freshExcel();
    const before = leftBehind(excel);
    const held = heldAt(3);
    const controller = new AbortController();
    const loading = loadTable(held.client, workbook, params(), { signal: controller.signal });
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    await until(() => rowsIn(excel, tableName) === 2000);
    controller.abort();
    await expect(loading).rejects.toMatchObject({ name: "CancelledError" });
    expect(leftBehind(excel)).toEqual(before);
    expect(excel.model.recalculationPending).toBe(false);
  });

  it.each([1, 2, 3])("cancelled while page %i travels, leaves the workbook's sheets exactly as they were: names and visibilities, very hidden ones too", async (page) => {
    const { excel, workbook } = freshExcel();
    await excel.run(async (context) => {
      context.workbook.worksheets.add("Archive").visibility = "Hidden";
      context.workbook.worksheets.add("Other add-in").visibility = "VeryHidden";
      await context.sync();
    });
    const sheets = () => excel.model.sheets.map((s) => `${s.name} (${s.visibility})`);
    const before = sheets();
    const held = heldAt(page);
    const controller = new AbortController();
    const loading = loadTable(held.client, workbook, params(), { signal: controller.signal });
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    // While page 1 travels the new table has its one empty body row (an Excel table always has one).
    await until(() => held.asked() && rowsIn(excel, tableName) === Math.max(1, (page - 1) * 1000) && excel.model.table(snapshotTableOf(tableName)) !== undefined);
    controller.abort();
    await expect(loading).rejects.toMatchObject({ name: "CancelledError" });
    expect(sheets()).toEqual(before);
    expect(before).toEqual(["Sheet1 (Visible)", "Archive (Hidden)", "Other add-in (VeryHidden)"]);
    expect(excel.model.tables).toEqual([]);
  });

  it("failing at its last page, takes its table back but keeps a sheet of that name the user already had", async () => {
    const { excel, workbook } = freshExcel();
    const sheetName = `Expenses ${f.sub.replace(/-/g, "").slice(0, 8)}`;
    await excel.run(async (context) => {
      context.workbook.worksheets.add(sheetName);
      await context.sync();
    });
    const held = heldAt(3, () => ({ status: 200, headers: new Headers(), text: "{\"count\": 2400, \"results\": \"not a list\"}" }));
    const loading = loadTable(held.client, workbook, params());
    await until(() => excel.model.tables.length > 0 && tableView(excel, excel.model.tables[0].name).rows.length === 2000);
    held.open();
    await expect(loading).rejects.toMatchObject({ name: "SchemaError" });
    expect(leftBehind(excel)).toEqual({ tables: [], sheets: ["Sheet1", sheetName], settings: [] });
    expect(excel.model.sheet(sheetName)!.usedArea()).toBeNull();
  });

  it("never replaces a sheet of its snapshot's name that holds another table: it says so, and the sheet and its table stay", async () => {
    const { excel, workbook } = freshExcel();
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    const taken = snapshotSheetOf(tableName);
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add(taken);
      sheet.getRangeByIndexes(0, 0, 2, 1).values = [["Mine"], ["keep me"]];
      sheet.tables.add(`'${taken}'!A1:A2`, true).name = "MyNotes";
      await context.sync();
    });
    await expect(loadTable(f.client, workbook, params())).rejects.toThrow(`The sheet '${taken}' holds the table MyNotes, so Spend Sync can't use it for ${snapshotTableOf(tableName)}; rename that sheet and load again.`);
    expect(excel.model.tables.map((t) => t.name)).toEqual(["MyNotes"]);
    expect(tableView(excel, "MyNotes").rows).toEqual([["keep me"]]);
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1", taken]);
  });

  it("never writes over a sheet of its table's name that holds the person's values: it says where they are, and leaves nothing behind", async () => {
    const { excel, workbook } = freshExcel();
    const sheetName = sheetNameOf(params());
    await excel.run(async (context) => {
      context.workbook.worksheets.add(sheetName).getRange("A1:B2").values = [["Last month", "Total"], ["kept", 42]];
      await context.sync();
    });
    await expect(loadTable(f.client, workbook, params())).rejects.toThrow(
      `The sheet '${sheetName}' already holds data (A1:B2), so Spend Sync can't write ${tableNameOf(params())} there. Nothing was written: rename that sheet or clear it, then load again.`,
    );
    expect(leftBehind(excel)).toEqual({ tables: [], sheets: ["Sheet1", sheetName], settings: [] });
    expect([0, 1].map((r) => [0, 1].map((c) => excel.model.sheet(sheetName)!.cell(r, c)?.value))).toEqual([["Last month", "Total"], ["kept", 42]]);
    // Cleared, the same sheet takes the table.
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem(sheetName).getRange("A1:B2").clear();
      await context.sync();
    });
    const done = await loadTable(f.client, workbook, params());
    expect(done.sheetName).toBe(sheetName);
    expect(excel.model.table(done.tableName)!.sheet.name).toBe(sheetName);
  });

  it("gives tables whose long names differ only at the end snapshot sheets of their own", () => {
    const a = "SpendExpenses_1a2b3c4d_approved_from20260101";
    const b = "SpendExpenses_1a2b3c4d_approved_to20261231";
    expect(`Snap ${a}`.slice(0, 31)).toBe(`Snap ${b}`.slice(0, 31)); // what the old naming gave both
    expect(snapshotSheetOf(a)).not.toBe(snapshotSheetOf(b));
    for (const name of [a, b, "SpendCards"]) expect(snapshotSheetOf(name).length).toBeLessThanOrEqual(31);
    expect(snapshotSheetOf("SpendCards")).toBe("Snap SpendCards");
    expect(snapshotSheetOf(a)).toMatch(/^Snap SpendExpenses_1a2b [0-9a-z]{7}$/);
  });

  it("replaces a snapshot sheet left from before (its table deleted by hand) instead of refusing to start", async () => {
    const { excel, workbook } = freshExcel();
    const tableName = `SpendExpenses_${f.sub.replace(/-/g, "").slice(0, 8)}`;
    const stale = snapshotSheetOf(tableName);
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add(stale);
      sheet.getRangeByIndexes(0, 0, 3, 2).values = [["Record ID", "state"], ["gone-1", "draft"], ["gone-2", "paid"]];
      sheet.tables.add(`'${stale}'!A1:B3`, true).name = snapshotTableOf(tableName);
      sheet.getRangeByIndexes(5000, 0, 1, 1).values = [["far below"]];
      await context.sync();
    });
    const report = await loadTable(f.client, workbook, params());
    expect(report.count).toBe(2400);
    const snapshot = tableView(excel, snapshotTableOf(tableName));
    expect(snapshot.values("Record ID")).toEqual(f.sandbox.store.expensesOf(f.sub).map((e) => e.id));
    expect(snapshot.sheet.name).toBe(stale);
    expect(snapshot.sheet.visibility).toBe("VeryHidden");
    // The old sheet went whole: nothing of it is left below the new snapshot.
    expect(snapshot.sheet.usedArea(true)).toEqual({ row: 0, column: 0, rowCount: 2401, columnCount: 8 }); // id, four tracked values, read_only, digest, cells
    expect(excel.model.tables.map((t) => t.name).sort()).toEqual([snapshotTableOf(tableName), tableName].sort());
  });

  it("of a list longer than a sheet, is refused after its first page with the count and a hint to filter", async () => {
    const { excel, workbook } = freshExcel();
    const fake = fakeTransport((request) => ({ body: { ...pageOf(request.url, 300), count: 1_048_576 } }));
    const client = new SpendClient({ baseUrl: "http://127.0.0.1:9", enterpriseId: "ent-1", apiKey: "k", transport: fake.transport });
    const loading = loadTable(client, workbook, { resource: "cards", enterpriseId: "ent-1" });
    await expect(loading).rejects.toThrow(
      "The service says there are 1,048,576 corporate cards, more than a sheet can hold (1,048,575). Load a narrower selection (a state, a date range).",
    );
    expect(fake.requests).toHaveLength(1);
    expect(leftBehind(excel)).toEqual({ tables: [], sheets: ["Sheet1"], settings: [] });
  });
});

describe("a refresh", () => {
  it("of a loaded table still merges: unsynced edits kept, the records the server changed refreshed", async () => {
    const { excel, workbook } = freshExcel();
    const first = await loadTable(f.client, workbook, params());
    const t = tableView(excel, first.tableName);
    const row = t.values("State").indexOf("approved");
    excel.user.paste(t.sheet.name, t.address("Accounted ID", row), "ACC-KEPT");
    excel.user.paste(t.sheet.name, t.address("State", row), "accounted");
    const renamed = f.sandbox.store.expensesOf(f.sub).filter((_, i) => i !== row).slice(0, 3);
    for (const e of renamed) e.description = `Renamed ${e.expense_number}`;
    const again = await loadTable(f.client, workbook, params());
    expect(again).toMatchObject({ count: 2400, added: 0, updated: 3, removed: 0, keptEdits: 1, refreshed: { whole: false } });
    for (const e of renamed) expect(tableView(excel, first.tableName).values("Description")[t.values("Expense ID").indexOf(e.id)]).toBe(`Renamed ${e.expense_number}`);
    const after = tableView(excel, first.tableName);
    expect(after.values("Accounted ID")[row]).toBe("ACC-KEPT");
    expect(after.values("Expense ID")).toEqual(f.sandbox.store.expensesOf(f.sub).map((e) => e.id));
  });
});
