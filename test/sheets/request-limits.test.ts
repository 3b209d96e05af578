/**
 * Excel on the web refuses a request over 5 MB. Microsoft's Office.js client takes a context's queued actions a
 * few microtasks after `sync()` is called, so what the add-in queues before then travels in that same request:
 * each request is measured here as Office.js serialised it, for the three largest things the add-in writes.
 */
import { loadTable } from "../../src/sheets";
import { ExcelWorkbook, runSelfTest } from "../../src/sheets/excel";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
import { withExcel } from "../support/excel";

/** Every request Excel received, the add-in's and Office.js's own. */
const largest = (excel: FakeExcel) => Math.max(...excel.stats.requests.map((r) => r.bytes));

describe("every request Microsoft's client sends is at most 5,000,000 bytes", () => {
  it("a 51,000-row load of expenses with CJK descriptions", async () => {
    const f = await withExcel({ scale: 170 });
    try {
      const expenses = f.sandbox.store.expensesOf(f.sub);
      expenses.forEach((e, i) => Object.assign(e, { description: `${i} 出張の経費精算・東京営業所 `.repeat(4) }));
      const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
      expect(report.count).toBe(expenses.length);
      expect(report.count).toBeGreaterThanOrEqual(51_000);
      expect(f.excel.stats.requests.every((r) => r.refused === undefined)).toBe(true);
      expect(largest(f.excel)).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
      // The budget is really used (the snapshot's and the held rows' requests fill about 4 MB), never a byte over 5 MB.
      expect(largest(f.excel)).toBeGreaterThan(3_500_000);
      expect(f.excel.stats.requestBytes.reduce((sum, b) => sum + b, 0)).toBeGreaterThan(60_000_000);
    } finally {
      await f.sandbox.close();
    }
  }, 120_000);

  it("\"Check this Excel\" (its block of about 13 MB)", async () => {
    const excel = new FakeExcel();
    const report = await runSelfTest(excel, "in-memory Excel");
    expect(report.failed).toBe(0);
    expect(largest(excel)).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
    expect(excel.stats.requestBytes.filter((b) => b > 3_000_000).length).toBeGreaterThanOrEqual(3);
  });

  it("a sync's outcomes for 3,000 rows: statuses of 2,000 characters with alternating fills", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable({
      sheetName: "Data", tableName: "T", header: ["ID", "Status"], rows: Array.from({ length: 3000 }, (_, i) => [`id-${i}`, ""]),
      numberFormats: ["@", "@"], editable: [false, false], dropdowns: [null, null],
    });
    excel.resetStats();
    const status = (i: number) => `${i} 申請は却下されました: `.padEnd(2000, "理由");
    await workbook.writeCells("T", Array.from({ length: 3000 }, (_, row) => ({ row, column: 1, value: status(row), fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
    expect(largest(excel)).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
    expect(excel.stats.requests.reduce((sum, r) => sum + r.bytes, 0)).toBeGreaterThan(3000 * 6000);
  });
});

describe("why the adapter hands a chunk to a range only once the request before it is back", () => {
  it("a chunk queued right after an un-awaited sync() travels in the request already sent: two 3 MB chunks make one refused 6 MB request", async () => {
    const excel = new FakeExcel();
    const chunk = (from: number) => Array.from({ length: 1000 }, (_, i) => [{ type: "String", basicValue: `${from + i} `.padEnd(1000, "経") } as Excel.CellValue]);
    await expect(excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      // The old pipelined write: sync() called, not awaited, and the next chunk queued at once.
      sheet.getRangeByIndexes(0, 0, 1000, 1).valuesAsJson = chunk(0);
      const first = context.sync();
      sheet.getRangeByIndexes(1000, 0, 1000, 1).valuesAsJson = chunk(1000);
      const second = context.sync();
      await Promise.all([first, second]);
    })).rejects.toThrow(expect.objectContaining({ code: "RequestPayloadSizeLimitExceeded" }));
    const refused = excel.stats.requests.find((r) => r.refused === "RequestPayloadSizeLimitExceeded")!;
    expect(refused.bytes).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(refused.calls.filter((call) => call === "SetProperty ValuesAsJson")).toHaveLength(2);
  });
});
