/**
 * A refresh that writes only what changed: a record the service changed gets its cells written again, except a
 * cell someone typed over (neither what was loaded nor what the service has now), which is kept and marked
 * (or replaced, if the person says so) and reported; a cell typed over in a record the service did not change
 * is left and not reported; new records are added below, records gone are marked; the user's own columns are
 * named in the report and never written.
 */
import { SpendClient } from "../../src/api";
import { loadTable, refreshTable, tableNameOf, type LoadParams, type TypedCell } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { EDITED_FILL } from "../../src/sheets/port/marks";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { fakeTransport, pageOf } from "../support/fake-transport";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");

/** Three cards loaded; `service` changes what the service answers from then on. */
async function loaded() {
  let total = 3;
  let change: (card: Record<string, unknown>) => void = () => undefined;
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport((request) => {
    const page = pageOf(request.url, total) as { results: Record<string, unknown>[] };
    page.results.forEach((card) => change(card));
    return { body: page };
  });
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await loadTable(client, workbook, PARAMS, { now: NOW });
  const cell = (header: string, row: number) => {
    const t = excel.model.table(TABLE)!;
    return t.sheet.ensure(t.area.row + 1 + row, t.area.column + tableView(excel, TABLE).column(header));
  };
  return {
    excel, workbook, client, cell,
    service: (records: number, edit: (card: Record<string, unknown>) => void = () => undefined) => {
      total = records;
      change = edit;
    },
    view: () => tableView(excel, TABLE),
  };
}

describe("refreshing only what changed", () => {
  it("keeps a value typed over a changed record's cell, marks it and reports it, and writes the service's other changes", async () => {
    const s = await loaded();
    s.service(3, (card) => { if (card.id === "r2") card.billing_day = 9; });
    s.cell("Bank ID", 1).value = "typed";
    const asked: (readonly TypedCell[])[] = [];
    const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW, onTyped: async (typed) => { asked.push(typed); return "keep"; } });
    const typed = [{ id: "r2", row: 1, header: "Bank ID", typed: "typed", service: "b1" }];
    expect(asked).toEqual([typed]);
    expect(s.view().values("Bank ID")).toEqual(["b1", "typed", "b1"]);
    expect(s.view().values("Billing day")).toEqual([5, 9, 5]);
    expect(s.view().fill("Bank ID", 1)).toBe(EDITED_FILL);
    expect([report.updated, report.added, report.removed, report.typed, report.refreshed]).toEqual([1, 0, 0, { kept: typed, replaced: 0 }, { whole: false }]);
  });

  it("replaces it with the service's value when asked to, clearing its mark", async () => {
    const s = await loaded();
    s.service(3, (card) => { if (card.id === "r2") card.billing_day = 9; });
    s.cell("Bank ID", 1).value = "typed";
    s.cell("Bank ID", 1).fill = EDITED_FILL;
    const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW, onTyped: async () => "replace" });
    expect(s.view().values("Bank ID")).toEqual(["b1", "b1", "b1"]);
    expect(s.view().fill("Bank ID", 1)).toBeUndefined();
    expect(report.typed).toEqual({ kept: [], replaced: 1 });
  });

  it("keeps typed values when nobody is asked, and never asks when none was typed", async () => {
    const s = await loaded();
    s.service(3, (card) => { if (card.id !== "r1") card.billing_mode = "manual"; });
    s.cell("Bank ID", 2).value = "typed";
    const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    expect(s.view().values("Bank ID")).toEqual(["b1", "b1", "typed"]);
    expect(s.view().values("Billing mode")).toEqual(["bank_movements", "manual", "manual"]);
    expect(report.typed).toEqual({ kept: [{ id: "r3", row: 2, header: "Bank ID", typed: "typed", service: "b1" }], replaced: 0 });
    let asked = 0;
    const quiet = await refreshTable(s.client, s.workbook, TABLE, { now: NOW, onTyped: async () => { asked++; return "replace"; } });
    expect([asked, quiet.updated, quiet.typed]).toEqual([0, 0, { kept: [], replaced: 0 }]);
  });

  it("does not take for typed a cell that already holds the service's new value", async () => {
    const s = await loaded();
    s.service(3, (card) => { if (card.id === "r2") card.billing_day = 9; });
    s.cell("Billing day", 1).value = 9;
    const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    expect([report.updated, report.typed]).toEqual([1, { kept: [], replaced: 0 }]);
    expect(s.view().values("Billing day")).toEqual([5, 9, 5]);
  });

  it("writes each record in its own row though the person sorted the table while the pages travelled; gives up if rows keep moving", async () => {
    const s = await loaded();
    s.service(3, (card) => { card.billing_day = Number(String(card.id).slice(1)) * 10; });
    /** Swaps body rows 0 and 1 (every cell), as a sort would. */
    const sort = () => {
      const t = s.excel.model.table(TABLE)!;
      for (let c = 0; c < t.area.columnCount; c++) {
        const a = t.sheet.ensure(t.area.row + 1, t.area.column + c);
        const b = t.sheet.ensure(t.area.row + 2, t.area.column + c);
        [a.value, b.value] = [b.value, a.value];
      }
    };
    let sorts = 1;
    const sorting = Object.create(s.workbook) as ExcelWorkbook;
    sorting.readColumns = async (name, headers) => {
      const read = await s.workbook.readColumns(name, headers);
      if (name === TABLE && headers.length > 0 && sorts-- > 0) sort();
      return read;
    };
    const report = await refreshTable(s.client, sorting, TABLE, { now: NOW });
    expect(report.updated).toBe(3);
    expect(s.view().values("Card ID")).toEqual(["r2", "r1", "r3"]);
    expect(s.view().values("Billing day")).toEqual([20, 10, 30]);
    s.service(3, (card) => { card.billing_day = 1; });
    sorts = 10;
    await expect(refreshTable(s.client, sorting, TABLE, { now: NOW })).rejects.toThrow(
      `The rows of ${TABLE} kept moving while it was refreshed (sorted or filled?); nothing was written. Refresh again.`,
    );
    expect(sorts).toBe(7); // sorted after the first read and two more (two moves tolerated); the third move stops it
    expect(s.view().values("Billing day").sort()).toEqual([10, 20, 30]);
  });

  it("leaves a value typed over a record the service did not change, and does not report it", async () => {
    const s = await loaded();
    s.cell("Bank ID", 0).value = "typed";
    const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW, onTyped: async () => "replace" });
    expect(s.view().values("Bank ID")).toEqual(["typed", "b1", "b1"]);
    expect([report.updated, report.typed]).toEqual([0, { kept: [], replaced: 0 }]);
  });

  it("adds new records below, marks those gone, and names the user's own columns without writing them", async () => {
    const s = await loaded();
    const t = s.excel.model.table(TABLE)!;
    t.sheet.ensure(t.area.row, t.area.column + t.area.columnCount).value = "My notes";
    t.sheet.ensure(t.area.row + 1, t.area.column + t.area.columnCount).value = "keep me";
    t.area.columnCount++;
    s.service(2);
    const gone = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    expect([gone.count, gone.added, gone.removed, gone.userColumns]).toEqual([2, 0, 1, ["My notes"]]);
    expect(String(s.view().values("Sync status")[2])).toBe("Not returned by the service any more for this table's query (refresh 2026-11-24 09:30 UTC)");
    s.service(4);
    const back = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    expect([back.count, back.added, back.removed]).toEqual([4, 1, 0]);
    expect(s.view().values("Card ID")).toEqual(["r1", "r2", "r3", "r4"]);
    expect(s.view().values("Sync status")).toEqual(["", "", "", ""]);
    expect(s.view().values("My notes")).toEqual(["keep me", "", "", ""]);
  });
});
