/**
 * The benchmark's Excel in a worker thread (bench/remote-excel.ts) must be the in-memory Excel, only
 * elsewhere: the same load leaves the same workbook, through requests of the same sizes, and Excel's
 * refusals and Office.js's PropertyNotLoaded reach the add-in as they do in-process.
 */
import { loadTable, snapshotSheetOf, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { RemoteExcel, dumpOf } from "../../bench/remote-excel";
import { withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
let remote: RemoteExcel;
beforeAll(async () => {
  f = await withExcel({ scale: 4 });
  remote = new RemoteExcel();
});
afterAll(async () => {
  await remote.close();
  await f.sandbox.close();
});

const sorted = (sizes: number[]) => [...sizes].sort((a, b) => a - b);

describe("the in-memory Excel in a worker thread", () => {
  it("leaves the same workbook as in-process after a load, through requests of the same sizes", async () => {
    const params: LoadParams = { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub };
    await remote.reset();
    const there = await loadTable(f.client, new ExcelWorkbook(remote), params);
    const local = new FakeExcel();
    const here = await loadTable(f.client, new ExcelWorkbook(local), params);
    expect(there).toEqual(here);
    expect(here.count).toBe(f.sandbox.store.expensesOf(f.sub).length);
    const dump = await remote.dump();
    expect(dump).toEqual(dumpOf(local.model));
    expect(dump.sheets.map((s) => s.name)).toContain(snapshotSheetOf(here.tableName));
    const stats = await remote.stats();
    expect(stats.syncs).toBe(local.stats.syncs);
    // The sizes the worker takes from the text it received are the sizes the in-process Excel counts.
    expect(sorted(stats.requestBytes)).toEqual(sorted(local.stats.requestBytes));
    expect(stats.cells).toBe(dump.sheets.reduce((n, s) => n + s.cells.length, 0));
  });

  it("refuses a request over the payload limit with Excel's code, and an unloaded property with PropertyNotLoaded", async () => {
    await remote.reset();
    const big = [["x".repeat(30_000)]];
    const refused = remote.run({}, async (context) => {
      const sheet = context.workbook.worksheets.add("Big");
      for (let r = 0; r < 200; r++) sheet.getRangeByIndexes(r, 0, 1, 1).values = big;
      await context.sync();
    });
    await expect(refused).rejects.toMatchObject({ code: "RequestPayloadSizeLimitExceeded" });
    await expect(remote.run({}, async (context) => {
      const sheet = context.workbook.worksheets.getItemOrNullObject("Sheet1");
      // eslint-disable-next-line office-addins/call-sync-before-read -- the mistake under test: Excel refuses it
      return sheet.name;
    })).rejects.toMatchObject({ code: "PropertyNotLoaded" });
    await expect(remote.run({}, async (context) => {
      const sheet = context.workbook.worksheets.getItemOrNullObject("Sheet1");
      sheet.load("name");
      await context.sync();
      return [sheet.name, sheet.isNullObject];
    })).resolves.toEqual(["Sheet1", false]);
    await expect(remote.run({}, async (context) => {
      const sheet = context.workbook.worksheets.getItemOrNullObject("No such sheet");
      await context.sync();
      return sheet.isNullObject;
    })).resolves.toBe(true);
  });
});
