import { loadTable, type ExcelHost, ExcelWorkbook } from "../../src/sheets";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
import { withExcel } from "../support/excel";

describe("the in-memory Excel is faithful where it matters", () => {
  it("a property read before load and sync throws PropertyNotLoaded", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const range = ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:B2");
      expect(() => range.values).toThrow(/The property 'values' is not available/);
      range.load("values");
      expect(() => range.values).toThrow(expect.objectContaining({ code: "PropertyNotLoaded" }));
      await ctx.sync();
      expect(range.values).toEqual([["", ""], ["", ""]]);
    });
  });

  it("values must match the range's dimensions (the error comes at sync)", async () => {
    const excel = new FakeExcel();
    await expect(
      excel.run(async (ctx) => {
        ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:B2").values = [["a", "b", "c"]];
        await ctx.sync();
      }),
    ).rejects.toMatchObject({ code: "InvalidArgument" });
  });

  it("a naive string becomes a formula; in a text-formatted cell it stays text", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:D1").values = [['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote"]];
      const text = sheet.getRange("A2:D2");
      text.numberFormat = [["@", "@", "@", "@"]];
      text.values = [['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote"]];
      await ctx.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect(sheet.cell(0, 0)?.formula).toBe('=HYPERLINK("http://x","y")');
    expect(sheet.cell(0, 1)?.formula).toBe("=-5+3");
    expect(sheet.cell(0, 2)?.value).toBe(42);
    expect(sheet.cell(0, 3)?.value).toBe("note");
    expect([0, 1, 2, 3].map((c) => sheet.cell(1, c)?.value)).toEqual(['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote"]);
    expect(sheet.cell(1, 0)?.formula).toBeUndefined();
  });

  it("a request over 5 MB throws RequestPayloadSizeLimitExceeded, and nothing of it is applied", async () => {
    const excel = new FakeExcel();
    const big = Array.from({ length: 60_000 }, (_, i) => [`row ${i} `.padEnd(100, "x")]);
    await expect(
      excel.run(async (ctx) => {
        ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:A60000").values = big;
        await ctx.sync();
      }),
    ).rejects.toMatchObject({ code: "RequestPayloadSizeLimitExceeded" });
    expect(excel.stats.requestBytes[0]).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toBeUndefined();
  });

  it("counts syncs and request sizes, and null objects answer after sync", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const missing = ctx.workbook.worksheets.getItemOrNullObject("Nope");
      expect(() => missing.isNullObject).toThrow();
      await ctx.sync();
      expect(missing.isNullObject).toBe(true);
      ctx.workbook.worksheets.add("Data").getRange("A1").values = [[1]];
      await ctx.sync();
    });
    expect(excel.stats.syncs).toBe(2);
    expect(excel.stats.requestBytes).toHaveLength(2);
  });

  it("a very hidden sheet needs another visible one; onChanged hears the user's edits", async () => {
    const excel = new FakeExcel();
    await expect(
      excel.run(async (ctx) => {
        ctx.workbook.worksheets.getItem("Sheet1").visibility = "VeryHidden";
        await ctx.sync();
      }),
    ).rejects.toMatchObject({ code: "InvalidOperation" });
    const heard: string[] = [];
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").onChanged.add(async (e) => void heard.push(e.address));
      await ctx.sync();
    });
    excel.user.type("Sheet1", "C3", "hello");
    expect(heard).toEqual(["C3"]);
  });
});

describe("large loads stay within Excel's limits", () => {
  it("5,000 expenses: several chunked requests, none over the limit, calculation suspended for each", async () => {
    const f = await withExcel({ scale: 17 });
    try {
      const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
      expect(report.count).toBe(f.sandbox.store.expensesOf(f.sub).length);
      expect(report.count).toBeGreaterThanOrEqual(5000);
      expect(f.excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
      expect(f.excel.stats.calculationSuspensions).toBeGreaterThan(1);
      // Syncs grow with cells per chunk, not with rows: far fewer than one per hundred rows.
      expect(f.excel.stats.syncs).toBeLessThan(report.count / 100);
    } finally {
      await f.sandbox.close();
    }
  });

  it("the adapter reads a table back in chunks", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel as unknown as ExcelHost);
    const rows = Array.from({ length: 3000 }, (_, i) => [`id-${i}`, i, "x".repeat(50)]);
    await workbook.writeTable({
      sheetName: "Data", tableName: "Big", header: ["ID", "N", "Text"], rows, numberFormats: ["@", "0", "@"],
      editable: [false, false, false], dropdowns: [null, null, null],
    });
    const read = await workbook.readTable("Big");
    expect(read!.rows).toEqual(rows);
  });
});
