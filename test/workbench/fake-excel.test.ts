import { loadTable, ExcelWorkbook } from "../../src/sheets";
import { CELL_TEXT_LIMIT, FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
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

  it("through values, formula prefixes become formulas even in a Text cell; number-like text is converted (strict reading)", async () => {
    const excel = new FakeExcel();
    const input = ['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote", " =1+1", "\uFF1D1+1", "@SUM(A1)", "1E5", "TRUE", "2026-11-01"];
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:J1").values = [input];
      const text = sheet.getRange("A2:J2");
      text.numberFormat = [input.map(() => "@")];
      text.values = [input];
      await ctx.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    for (const row of [0, 1]) {
      const cells = input.map((_, c) => sheet.cell(row, c)!);
      expect(cells.map((c) => c.formula)).toEqual(['=HYPERLINK("http://x","y")', "=-5+3", undefined, undefined, "=1+1", "=1+1", "=SUM(A1)", undefined, undefined, undefined]);
      expect(cells.slice(2).map((c) => c.value)).toEqual([42, "note", "#FORMULA(=1+1)", "#FORMULA(=1+1)", "#FORMULA(=SUM(A1))", 100000, true, 46327]);
    }
  });

  it("through valuesAsJson, a String cell value is stored as exactly that text; null there is refused", async () => {
    const excel = new FakeExcel();
    const input = ['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote", "1E5", "TRUE", "2026-11-01", "+1"];
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:H1").valuesAsJson = [input.map((basicValue) => ({ type: "String", basicValue }) as Excel.CellValue)];
      await ctx.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect(input.map((_, c) => sheet.cell(0, c)?.value)).toEqual(input);
    expect(input.map((_, c) => sheet.cell(0, c)?.formula)).toEqual(input.map(() => undefined));
    await expect(excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:B1").valuesAsJson = [[{ type: "String", basicValue: "x" }, null as unknown as Excel.CellValue]];
      await ctx.sync();
    })).rejects.toMatchObject({ code: "InvalidArgument" });
    expect(sheet.cell(0, 0)?.value).toBe(input[0]);
  });

  it("null in a 2-D array leaves a cell's value and format alone; '' clears the value and resets the format to General", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const range = ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:C1");
      range.numberFormat = [["0.00", "yyyy-mm-dd", "@"]];
      range.values = [[1.5, 46000, "keep"]];
      await ctx.sync();
      range.values = [[null, "", null]];
      range.numberFormat = [[null, "", null]];
      await ctx.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect([0, 1, 2].map((c) => [sheet.cell(0, c)?.value, sheet.cell(0, c)?.numberFormat])).toEqual([[1.5, "0.00"], ["", "General"], ["keep", "@"]]);
    await expect(excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:B1").values = "x" as unknown as string[][];
      await ctx.sync();
    })).rejects.toMatchObject({ code: "InvalidArgument" });
  });

  it("a cell holds 32,767 characters at most", async () => {
    const excel = new FakeExcel();
    const write = (text: string) => excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1").valuesAsJson = [[{ type: "String", basicValue: text }]];
      await ctx.sync();
    });
    await write("x".repeat(CELL_TEXT_LIMIT));
    expect(excel.user.valueAt("Sheet1", "A1")).toHaveLength(32_767);
    await expect(write("y".repeat(CELL_TEXT_LIMIT + 1))).rejects.toMatchObject({ code: "InvalidArgument" });
    expect(excel.user.valueAt("Sheet1", "A1")).toBe("x".repeat(CELL_TEXT_LIMIT));
  });

  it("requests and responses are measured in UTF-8 bytes: 1.8 M CJK characters (3.6 MB as UTF-16 units) are refused both ways", async () => {
    const excel = new FakeExcel();
    const cjk = "経費精算".repeat(300); // 1,200 characters, 3,600 bytes
    const rows = Array.from({ length: 1500 }, () => [{ type: "String", basicValue: cjk } as Excel.CellValue]);
    await expect(excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:A1500").valuesAsJson = rows;
      await ctx.sync();
    })).rejects.toMatchObject({ code: "RequestPayloadSizeLimitExceeded" });
    expect(excel.stats.requestBytes[0]).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(excel.stats.requestBytes[0]).toBeLessThan(PAYLOAD_LIMIT_BYTES * 1.2);
    // Written in two halves it fits; read back in one response it does not, and the values stay unreadable.
    for (const [from, to] of [[1, 750], [751, 1500]]) {
      await excel.run(async (ctx) => {
        ctx.workbook.worksheets.getItem("Sheet1").getRange(`A${from}:A${to}`).valuesAsJson = rows.slice(from - 1, to);
        await ctx.sync();
      });
    }
    await excel.run(async (ctx) => {
      const range = ctx.workbook.worksheets.getItem("Sheet1").getRange("A1:A1500").load("values");
      await expect(ctx.sync()).rejects.toMatchObject({ code: "ResponsePayloadSizeLimitExceeded" });
      expect(() => range.values).toThrow(expect.objectContaining({ code: "PropertyNotLoaded" }));
    });
  });

  it("a batch fails while the user edits a cell, unless its run waits for the edit to end", async () => {
    const excel = new FakeExcel();
    const edit = excel.user.beginCellEdit("Sheet1", "B2");
    const write = (options: Excel.RunOptions) => excel.run(options, async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [[1]];
      await ctx.sync();
    });
    await expect(write({})).rejects.toMatchObject({ code: "InvalidOperationInCellEditMode" });
    let done = false;
    const waiting = write({ delayForCellEdit: true }).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    expect(excel.user.valueAt("Sheet1", "A1")).toBe("");
    edit.end();
    await waiting;
    expect(excel.user.valueAt("Sheet1", "A1")).toBe(1);
  });

  it("tables: headers made unique, no overlap, a Total Row outside the body, resize by an address on the table's sheet", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Data");
      sheet.getRange("A1:C3").values = [["Amount", "amount", ""], [1, 2, 3], [4, 5, 6]];
      const table = sheet.tables.add("Data!A1:C3", true);
      table.showTotals = true;
      await ctx.sync();
      const body = table.getDataBodyRange().load("rowCount, address");
      const whole = table.getRange().load("rowCount");
      await ctx.sync();
      expect([body.rowCount, body.address, whole.rowCount]).toEqual([2, "Data!A2:C3", 4]);
      sheet.tables.add("Data!B2:D5", true);
      await expect(ctx.sync()).rejects.toMatchObject({ code: "InvalidOperation" });
      // Sheet1 is the active sheet: an address without a sheet name is not the table's sheet.
      table.resize("A1:C6");
      await expect(ctx.sync()).rejects.toMatchObject({ code: "InvalidArgument" });
      table.resize("Data!A1:C6");
      await ctx.sync();
    });
    const t = excel.model.table("Table1")!;
    expect([0, 1, 2].map((c) => t.sheet.cell(0, c)?.value)).toEqual(["Amount", "amount2", "Column3"]);
    expect(t.area.rowCount).toBe(6);
  });

  it("onChanged fires for the add-in's own writes too; suspended calculation stays pending until calculate()", async () => {
    const excel = new FakeExcel();
    const heard: string[] = [];
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").onChanged.add((e) => void heard.push(`${e.address} ${e.triggerSource}`));
      await ctx.sync();
      ctx.application.suspendApiCalculationUntilNextSync();
      ctx.workbook.worksheets.getItem("Sheet1").getRange("B2:C2").values = [[1, 2]];
      await ctx.sync();
    });
    await Promise.resolve();
    expect(heard).toEqual(["B2:C2 ThisLocalAddin"]);
    expect(excel.model.recalculationPending).toBe(true);
    await excel.run(async (ctx) => {
      ctx.application.calculate("Recalculate");
      await ctx.sync();
    });
    expect(excel.model.recalculationPending).toBe(false);
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
    const workbook = new ExcelWorkbook(excel);
    const rows = Array.from({ length: 3000 }, (_, i) => [`id-${i}`, i, "x".repeat(50)]);
    await workbook.writeTable({
      sheetName: "Data", tableName: "Big", header: ["ID", "N", "Text"], rows, numberFormats: ["@", "0", "@"],
      editable: [false, false, false], dropdowns: [null, null, null],
    });
    const read = await workbook.readTable("Big");
    expect(read!.rows).toEqual(rows);
  });
});
