/**
 * The in-memory Excel as a host of Office.js's wire protocol, driven by Microsoft's own client library (its
 * Excel.run, proxies, load tracking, batching and object lifetimes): each rule of docs/excel-checks.md that
 * the host enforces, seen as the add-in sees it.
 */
import { loadTable } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { officeJs } from "../../src/workbench/office-js/library";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { DEFAULT_PROFILE, profileOf } from "../../src/workbench/fake-excel/profiles";
import { CELL_TEXT_LIMIT, FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
import { autofitWidth } from "../../src/workbench/fake-excel/protocol/range-format";
import { withExcel } from "../support/excel";

const code = (c: string) => expect.objectContaining({ code: c });

describe("requests: what reaches Excel and what it answers", () => {
  it("a property read before load and sync throws PropertyNotLoaded (Microsoft's client); after them it holds Excel's answer", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2");
      expect(() => range.values).toThrow(code("PropertyNotLoaded"));
      range.load("values");
      expect(() => range.values).toThrow(code("PropertyNotLoaded"));
      await context.sync();
      expect(range.values).toEqual([["", ""], ["", ""]]);
    });
  });

  it("an action that fails stops its request: the actions before it stay done, those after it never run, and the error names Excel's code", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1").values = [["before"]];
      sheet.getRange("A2:B2").values = [["a", "b", "c"]];
      sheet.getRange("A3").values = [["after"]];
      await context.sync();
    })).rejects.toThrow(code("InvalidArgument"));
    expect([excel.user.valueAt("Sheet1", "A1"), excel.user.valueAt("Sheet1", "A2"), excel.user.valueAt("Sheet1", "A3")]).toEqual(["before", "", ""]);
  });

  it("a request and an answer are measured as the UTF-8 bytes of their JSON as sent; over 5,000,000 either is refused, and a refused request changes nothing", async () => {
    const excel = new FakeExcel();
    const cjk = "経費精算".repeat(300); // 1,200 characters, 3,600 bytes
    const rows = Array.from({ length: 1500 }, () => [{ type: "String", basicValue: cjk } as Excel.CellValue]);
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:A1500").valuesAsJson = rows;
      await context.sync();
    })).rejects.toThrow(code("RequestPayloadSizeLimitExceeded"));
    const refused = excel.stats.requests.find((r) => r.refused === "RequestPayloadSizeLimitExceeded")!;
    expect(refused.bytes).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(refused.bytes).toBeLessThan(PAYLOAD_LIMIT_BYTES * 1.2);
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toBeUndefined();
    // In two halves it fits; read back in one answer it does not, and the values stay unread.
    for (const [from, to] of [[1, 750], [751, 1500]]) {
      await excel.run(async (context) => {
        context.workbook.worksheets.getItem("Sheet1").getRange(`A${from}:A${to}`).valuesAsJson = rows.slice(from - 1, to);
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- two requests on purpose: each half fits
        await context.sync();
      });
    }
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:A1500").load("values");
      await expect(context.sync()).rejects.toThrow(code("ResponsePayloadSizeLimitExceeded"));
      expect(() => range.values).toThrow(code("PropertyNotLoaded"));
    });
    expect(excel.stats.refusedResponses).toBe(1);
    // What the host counted is the JSON Office.js sent: a small write is several hundred bytes of paths and actions.
    excel.resetStats();
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("C1").values = [["x"]];
      await context.sync();
    });
    expect(excel.stats.requestBytes[0]).toBeGreaterThan(400);
  });

  it("writes over 1,500 cells are split by Office.js into _ValidateArraySize and per-row ranges; they land whole", async () => {
    const excel = new FakeExcel();
    const values = Array.from({ length: 600 }, (_, r) => [r, `t${r}`, r * 2]);
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:C600");
      range.numberFormat = values.map(() => ["0", "@", "0.00"]);
      range.values = values;
      await context.sync();
    });
    expect(excel.stats.count("Method _ValidateArraySize")).toBe(2);
    expect(excel.stats.count("SetProperty Values")).toBe(2); // 500 rows of 3 columns each
    expect(excel.user.valueAt("Sheet1", "B600")).toBe("t599");
    expect(excel.model.sheet("Sheet1")!.cell(599, 2)?.numberFormat).toBe("0.00");
  });

  it("a property just set reads back without a load (the client keeps it), and Excel's own reading needs a load", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1");
      range.values = [["0042"]];
      expect(range.values).toEqual([["0042"]]);
      range.load("values");
      await context.sync();
      expect(range.values).toEqual([[42]]);
    });
  });

  it("delayForCellEdit travels as a request flag only when Excel.run gets it in an options object", async () => {
    const excel = new FakeExcel();
    const write = (options?: Excel.RunOptions) => {
      const batch = async (context: Excel.RequestContext) => {
        context.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [[1]];
        await context.sync();
      };
      return options ? excel.run(options, batch) : excel.run(batch);
    };
    await write();
    await write({ delayForCellEdit: false });
    await write({ delayForCellEdit: true });
    expect(excel.stats.requestFlags.map((flags) => (flags & 64) !== 0)).toEqual([false, false, true]);
  });

  it("a batch fails while the user edits a cell, unless its run waits for the edit to end", async () => {
    const excel = new FakeExcel();
    const edit = excel.user.beginCellEdit("Sheet1", "B2");
    const write = (options: Excel.RunOptions) => excel.run(options, async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [[1]];
      await context.sync();
    });
    await expect(write({})).rejects.toThrow(code("InvalidOperationInCellEditMode"));
    let done = false;
    const waiting = write({ delayForCellEdit: true }).then(() => (done = true));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    expect(excel.user.valueAt("Sheet1", "A1")).toBe("");
    edit.end();
    await waiting;
    expect(excel.user.valueAt("Sheet1", "A1")).toBe(1);
  });
});

describe("object lifetimes: an object is usable later only as Excel's answer allows", () => {
  it("a range reused in a later Excel.run gets InvalidObjectPath from Microsoft's client, and Excel holds no reference after a run", async () => {
    const excel = new FakeExcel();
    let kept: Excel.Range | undefined;
    await excel.run(async (context) => {
      kept = context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2");
      kept.load("address");
      await context.sync();
      kept.values = [[1, 2], [3, 4]]; // usable in a later sync of the same run: Excel kept it
      await context.sync();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(excel.host.heldReferences).toBe(0);
    await expect(excel.run(async (context) => {
      kept!.load("values");
      await context.sync();
    })).rejects.toThrow(code("InvalidObjectPath"));
    await expect(excel.run(async () => {
      kept!.load("values");
      await kept!.context.sync();
    })).rejects.toThrow(code("InvalidObjectPath"));
  });

  it("outside Excel.run nothing is kept: a range from one sync is InvalidObjectPath in the next; a table Excel answered with its id stays usable", async () => {
    const excel = new FakeExcel();
    const { Excel: library } = officeJs();
    const context = new library.RequestContext(excel.url);
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    const range = sheet.getRangeByIndexes(0, 0, 2, 2);
    range.values = [["A", "B"], [1, 2]];
    const table = sheet.tables.add("Sheet1!A1:B2", true);
    await context.sync();
    expect(() => range.load("values")).toThrow(code("InvalidObjectPath"));
    table.load("name");
    await context.sync();
    expect(table.name).toBe("Table1");
  });

  it("loading a property of a null object answers null, not ItemNotFound; isNullObject is known after any sync; acting on it is refused", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const missing = context.workbook.tables.getItemOrNullObject("Nope");
      expect(() => missing.isNullObject).toThrow(code("PropertyNotLoaded"));
      missing.load("name");
      await context.sync();
      expect(missing.isNullObject).toBe(true);
      expect(missing.name).toBeUndefined();
      const sheet = context.workbook.worksheets.getItemOrNullObject("Nope");
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [[1]];
      await context.sync();
      expect(sheet.isNullObject).toBe(true);
      sheet.delete();
      await expect(context.sync()).rejects.toThrow(code("ItemNotFound"));
    });
  });
});

describe("cells: what each way of writing makes of a value", () => {
  it("through values, formula prefixes become formulas even in a Text cell; number-like text is converted (strict reading)", async () => {
    const excel = new FakeExcel();
    const input = ['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote", " =1+1", "\uFF1D1+1", "@SUM(A1)", "1E5", "TRUE", "2026-11-01"];
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:J1").values = [input];
      const text = sheet.getRange("A2:J2");
      text.numberFormat = [input.map(() => "@")];
      text.values = [input];
      await context.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    for (const row of [0, 1]) {
      const cells = input.map((_, c) => sheet.cell(row, c)!);
      expect(cells.map((c) => c.formula)).toEqual(['=HYPERLINK("http://x","y")', "=-5+3", undefined, undefined, "=1+1", "=1+1", "=SUM(A1)", undefined, undefined, undefined]);
      expect(cells.slice(2).map((c) => c.value)).toEqual([42, "note", 2, 2, 0, 100000, true, 46327]);
    }
  });

  it("through valuesAsJson (ExcelApi 1.16, our one shim on the client), a String is exactly that text; null there is refused", async () => {
    const excel = new FakeExcel();
    const input = ['=HYPERLINK("http://x","y")', "-5+3", "0042", "\tnote", "1E5", "TRUE", "2026-11-01", "+1"];
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:H1").valuesAsJson = [input.map((basicValue) => ({ type: "String", basicValue }) as Excel.CellValue)];
      await context.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect(input.map((_, c) => sheet.cell(0, c)?.value)).toEqual(input);
    expect(input.map((_, c) => sheet.cell(0, c)?.formula)).toEqual(input.map(() => undefined));
    expect(excel.stats.count("SetProperty ValuesAsJson")).toBe(1);
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:B1").valuesAsJson = [[{ type: "String", basicValue: "x" }, null as unknown as Excel.CellValue]];
      await context.sync();
    })).rejects.toThrow(code("InvalidArgument"));
    expect(sheet.cell(0, 0)?.value).toBe(input[0]);
  });

  it("an Empty write leaves a truly blank cell (ISBLANK TRUE, valueTypes Empty); a String of no characters does not (strict)", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:B1").values = [["x", "y"]];
      sheet.getRange("A1:B1").valuesAsJson = [[{ type: "Empty", basicValue: "" }, { type: "String", basicValue: "" }]];
      sheet.getRange("C1:D1").formulas = [["=ISBLANK(A1)", "=ISBLANK(B1)"]];
      const read = sheet.getRange("A1:D1").load("values, valueTypes, formulas");
      await context.sync();
      expect(read.values[0]).toEqual(["", "", true, false]);
      expect(read.valueTypes[0].slice(0, 2)).toEqual(["Empty", "String"]);
      expect(read.formulas[0].slice(0, 2)).toEqual(["", ""]);
    });
  });

  it("errors and entities round-trip whole through valuesAsJson; values reads their basic value and valueTypes says Error", async () => {
    const excel = new FakeExcel();
    const entity: Excel.EntityCellValue = { type: "Entity", text: "Expense 1001", properties: { Amount: { type: "Double", basicValue: 12.5 } } };
    const error: Excel.CellValue = { type: "Error", errorType: "NotAvailable" } as Excel.CellValue;
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:B1");
      range.valuesAsJson = [[entity, error]];
      // eslint-disable-next-line office-addins/no-navigational-load -- valuesAsJson is a scalar (ExcelApi 1.16); the plugin's list predates it
      range.load("values, valueTypes, valuesAsJson");
      await context.sync();
      expect(range.values[0]).toEqual(["#VALUE!", "#N/A"]);
      expect(range.valueTypes[0]).toEqual(["Error", "Error"]);
      expect(range.valuesAsJson[0][0]).toEqual(entity);
      expect(range.valuesAsJson[0][1]).toMatchObject({ type: "Error", errorType: "NotAvailable" });
    });
  });

  it("null in a 2-D array leaves a cell's value and format alone; '' clears the value and resets the format to General; a lone value is refused", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:C1");
      range.numberFormat = [["0.00", "yyyy-mm-dd", "@"]];
      range.values = [[1.5, 46000, "keep"]];
      await context.sync();
      range.values = [[null, "", null]];
      range.numberFormat = [[null, "", null]];
      await context.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect([0, 1, 2].map((c) => [sheet.cell(0, c)?.value, sheet.cell(0, c)?.numberFormat])).toEqual([[1.5, "0.00"], ["", "General"], ["keep", "@"]]);
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:B1").values = "x" as unknown as string[][];
      await context.sync();
    })).rejects.toThrow(code("InvalidArgument"));
  });

  it("a cell holds 32,767 characters at most", async () => {
    const excel = new FakeExcel();
    const write = (text: string) => excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").valuesAsJson = [[{ type: "String", basicValue: text }]];
      await context.sync();
    });
    await write("x".repeat(CELL_TEXT_LIMIT));
    expect(excel.user.valueAt("Sheet1", "A1")).toHaveLength(32_767);
    await expect(write("y".repeat(CELL_TEXT_LIMIT + 1))).rejects.toThrow(code("InvalidArgument"));
    expect(excel.user.valueAt("Sheet1", "A1")).toBe("x".repeat(CELL_TEXT_LIMIT));
  });

  it("a range outside the sheet's 1,048,576 rows and 16,384 columns is refused", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(1_048_575, 0, 2, 1).values = [[1], [2]];
      await context.sync();
    })).rejects.toThrow(code("InvalidArgument"));
  });
});

describe("sheets, tables, validation and calculation", () => {
  it("a very hidden sheet needs another visible one, and can't be deleted until it is hidden or visible (d.ts, Worksheet.delete)", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").visibility = "VeryHidden";
      await context.sync();
    })).rejects.toThrow(code("InvalidOperation"));
    await excel.run(async (context) => {
      context.workbook.worksheets.add("Secret").visibility = "VeryHidden";
      await context.sync();
    });
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Secret").delete();
      await context.sync();
    })).rejects.toThrow(code("InvalidOperation"));
    expect(excel.model.sheets.map((s) => [s.name, s.visibility])).toEqual([["Sheet1", "Visible"], ["Secret", "VeryHidden"]]);
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Secret");
      sheet.visibility = "Hidden";
      sheet.delete();
      await context.sync();
    });
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
  });

  it("tables: headers made unique, no overlap, a Total Row outside the body, resize keeps the header row and overlaps", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add("Data");
      sheet.getRange("A1:C3").values = [["Amount", "amount", ""], [1, 2, 3], [4, 5, 6]];
      const table = sheet.tables.add("Data!A1:C3", true);
      table.showTotals = true;
      await context.sync();
      const body = table.getDataBodyRange().load("rowCount, address");
      const whole = table.getRange().load("rowCount");
      await context.sync();
      expect([body.rowCount, body.address, whole.rowCount]).toEqual([2, "Data!A2:C3", 4]);
      sheet.tables.add("Data!B2:D5", true);
      await expect(context.sync()).rejects.toThrow(code("MergedRangeConflict"));
      // Sheet1 is the active sheet: an address without a sheet name is not the table's sheet.
      table.resize("A1:C6");
      await expect(context.sync()).rejects.toThrow(code("InvalidArgument"));
      table.resize("Data!A2:C6");
      await expect(context.sync()).rejects.toThrow(code("InvalidArgument"));
      table.resize("Data!A1:C6");
      await context.sync();
    });
    const t = excel.model.table("Table1")!;
    expect([0, 1, 2].map((c) => t.sheet.cell(0, c)?.value)).toEqual(["Amount", "amount2", "Column3"]);
    expect(t.area.rowCount).toBe(6);
  });

  it("clearing data validation on part of a validated range keeps the rule on the rest", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("B2:B11").dataValidation.rule = { list: { inCellDropDown: true, source: "a,b" } };
      sheet.getRange("B5:B6").dataValidation.clear();
      await context.sync();
    });
    const sheet = excel.model.sheet("Sheet1")!;
    expect([1, 3, 4, 5, 6, 10].map((row) => sheet.validationAt(row, 1) !== undefined)).toEqual([true, true, false, false, true, true]);
  });

  it("suspended calculation stays pending until a later request calculates; a calculation in the suspending request does not count", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      context.application.suspendApiCalculationUntilNextSync();
      context.workbook.worksheets.getItem("Sheet1").getRange("B2:C2").values = [[1, 2]];
      context.application.calculate("Recalculate");
      await context.sync();
    });
    expect(excel.model.recalculationPending).toBe(true);
    expect(excel.stats.calculationSuspensions).toBe(1);
    await excel.run(async (context) => {
      context.application.calculate("Recalculate");
      await context.sync();
    });
    expect(excel.model.recalculationPending).toBe(false);
  });
});

describe("more rules from the reference (docs/excel-checks.md has each one's source)", () => {
  afterEach(() => useExcelProfile(DEFAULT_PROFILE));

  it("a malformed cell value is a GeneralException (the error table's code for the data types APIs); an entity's properties must be cell values", async () => {
    const excel = new FakeExcel();
    const write = (value: unknown) => excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").valuesAsJson = [[value as Excel.CellValue]];
      await context.sync();
    });
    await expect(write({ basicValue: "x" })).rejects.toThrow(code("GeneralException"));
    await expect(write({ type: "Entity", text: "E", properties: { Amount: 12 } })).rejects.toThrow(code("GeneralException"));
    await expect(write({ type: "Double", basicValue: Number.NaN })).rejects.toThrow(code("GeneralException"));
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toBeUndefined();
  });

  it("a cell value with writable: false is ignored without an error (d.ts, CellValueExtraProperties.writable)", async () => {
    const excel = new FakeExcel();
    excel.user.type("Sheet1", "A1", "mine");
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1:B1").valuesAsJson = [[
        { type: "String", basicValue: "overwrite", writable: false } as Excel.CellValue, { type: "String", basicValue: "new" },
      ]];
      await context.sync();
    });
    expect([excel.user.valueAt("Sheet1", "A1"), excel.user.valueAt("Sheet1", "B1")]).toEqual(["mine", "new"]);
  });

  it("Excel on the web refuses an operation on more than 33,554,000 cells (OperationCellsExceedLimit); a desktop Excel does not", async () => {
    const clearAll = (excel: FakeExcel) => excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange().clear();
      await context.sync();
    });
    useExcelProfile("web");
    const web = new FakeExcel();
    web.user.type("Sheet1", "A1", "kept");
    await expect(clearAll(web)).rejects.toThrow(code("OperationCellsExceedLimit"));
    expect(web.user.valueAt("Sheet1", "A1")).toBe("kept");
    useExcelProfile("m365-current");
    const desktop = new FakeExcel();
    desktop.user.type("Sheet1", "A1", "gone");
    await clearAll(desktop);
    expect(desktop.user.valueAt("Sheet1", "A1")).toBe("");
  });

  it("tables.getItem of a name no table has fails its request with ItemNotFound there: what came before stays done, nothing after runs", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1").values = [["before"]];
      context.workbook.tables.getItem("NoSuchTable").getHeaderRowRange().load("values");
      sheet.getRange("A2").values = [["after"]];
      await context.sync();
    })).rejects.toThrow(code("ItemNotFound"));
    expect([excel.user.valueAt("Sheet1", "A1"), excel.user.valueAt("Sheet1", "A2")]).toEqual(["before", ""]);
    // The adapter's locateTable reads that as "no such table" (null), in one round trip.
    expect(await new ExcelWorkbook(excel).readColumns("NoSuchTable", [])).toBeNull();
    expect(excel.stats.syncs).toBe(2);
  });

  it("a range's used part (getUsedRangeOrNullObject, ExcelApi 1.4) covers its cells holding anything; with valuesOnly, values only; none is a null object", async () => {
    const excel = new FakeExcel();
    const used = (address: string, valuesOnly: boolean) => excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange(address).getUsedRangeOrNullObject(valuesOnly).load("address");
      await context.sync();
      return range.isNullObject ? null : range.address;
    });
    excel.user.type("Sheet1", "B3", "x");
    excel.user.type("Sheet1", "D5", "=1+1");
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("C8").format.fill.color = "#FF0000";
      await context.sync();
    });
    expect(await used("A1:Z100", true)).toBe("Sheet1!B3:D5");
    expect(await used("A1:Z100", false)).toBe("Sheet1!B3:D8");
    expect(await used("C4:Z100", true)).toBe("Sheet1!D5");
    expect(await used("A6:Z100", true)).toBeNull();
    expect(await used("A6:Z100", false)).toBe("Sheet1!C8");
    expect(await used("E1:Z100", false)).toBeNull();
  });

  it("a sheet's used range (Worksheet.getUsedRangeOrNullObject, ExcelApi 1.4): values, or values and formats; a blank sheet is a null object", async () => {
    const excel = new FakeExcel();
    const used = (valuesOnly: boolean) => excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getUsedRangeOrNullObject(valuesOnly).load("address");
      await context.sync();
      return range.isNullObject ? null : range.address;
    });
    expect([await used(true), await used(false)]).toEqual([null, null]);
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("F9").format.fill.color = "#FF0000";
      await context.sync();
    });
    expect([await used(true), await used(false)]).toEqual([null, "Sheet1!F9"]);
    excel.user.type("Sheet1", "B3", "x");
    expect([await used(true), await used(false)]).toEqual(["Sheet1!B3", "Sheet1!B3:F9"]);
  });

  it("reading more than 5,000,000 cells at once fails with RangeExceedsLimit", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 1_000_001, 5).load("values");
      await context.sync();
    })).rejects.toThrow(code("RangeExceedsLimit"));
  });

  it("getRow and getColumn take an index inside the range; select needs the range's sheet active; frozen panes need a visible sheet", async () => {
    const excel = new FakeExcel();
    excel.model.addSheet("Other");
    const fails = (batch: (context: Excel.RequestContext) => void, expected: string) => expect(excel.run(async (context) => {
      batch(context);
      await context.sync();
    })).rejects.toThrow(code(expected));
    await fails((c) => void (c.workbook.worksheets.getItem("Sheet1").getRange("A1:B2").getRow(2).values = [[1, 2]]), "InvalidArgument");
    await fails((c) => void (c.workbook.worksheets.getItem("Sheet1").getRange("A1:B2").getColumn(-1).values = [[1], [2]]), "InvalidArgument");
    await fails((c) => c.workbook.worksheets.getItem("Other").getRange("A1").select(), "InvalidOperation");
    await excel.run(async (context) => {
      const other = context.workbook.worksheets.getItem("Other");
      other.activate();
      other.getRange("A1").select();
      other.visibility = "Hidden";
      await context.sync();
    });
    await fails((c) => c.workbook.worksheets.getItem("Other").freezePanes.freezeRows(1), "InvalidOperation");
  });

  it("a table style outside Excel's names is refused; a data validation rule over cells with another rule is refused until cleared", async () => {
    const excel = new FakeExcel();
    await expect(excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").tables.add("Sheet1!A1:B2", true).style = "TableStyleLight22";
      await context.sync();
    })).rejects.toThrow(code("InvalidArgument"));
    await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("D1:D5");
      range.dataValidation.rule = { list: { inCellDropDown: true, source: "a,b" } };
      await context.sync();
      range.dataValidation.rule = { list: { inCellDropDown: true, source: "a,b,c" } };
      await expect(context.sync()).rejects.toThrow(code("InvalidOperation"));
      range.dataValidation.clear();
      range.dataValidation.rule = { list: { inCellDropDown: true, source: "a,b,c" } };
      await context.sync();
    });
    expect(excel.model.sheet("Sheet1")!.validationAt(2, 3)?.list.source).toBe("a,b,c");
  });

  it("names: a sheet's has at most 31 characters, none of \\ / ? * [ ] :, and is unique in any case; a table's is Excel's kind of name, no cell reference, unique", async () => {
    const excel = new FakeExcel();
    const attempt = (batch: (context: Excel.RequestContext) => void) => excel.run(async (context) => {
      batch(context);
      await context.sync();
    });
    await expect(attempt((c) => c.workbook.worksheets.add("x".repeat(32)))).rejects.toThrow(code("InvalidArgument"));
    for (const bad of ["Q1\\Q2", "Q1/Q2", "Q1?", "Q*", "[Q1]", "Q1:Q2"]) {
      await expect(attempt((c) => c.workbook.worksheets.add(bad))).rejects.toThrow(code("InvalidArgument"));
    }
    await attempt((c) => void c.workbook.worksheets.add("x".repeat(31)).delete());
    await expect(attempt((c) => c.workbook.worksheets.add("sheet1"))).rejects.toThrow(code("ItemAlreadyExists"));
    await attempt((c) => void (c.workbook.worksheets.getItem("Sheet1").tables.add("Sheet1!A1:A2", true).name = "Expenses_2026.Q1"));
    for (const bad of ["2026Expenses", "Expenses 2026", "A1", "R1C1", "c"]) {
      await expect(attempt((c) => void (c.workbook.tables.getItem("Expenses_2026.Q1").name = bad))).rejects.toThrow(code("InvalidArgument"));
    }
    await attempt((c) => void c.workbook.worksheets.getItem("Sheet1").tables.add("Sheet1!C1:C2", true));
    await expect(attempt((c) => void (c.workbook.tables.getItem("Table2").name = "EXPENSES_2026.q1"))).rejects.toThrow(code("ItemAlreadyExists"));
    expect(excel.model.tables.map((t) => t.name)).toEqual(["Expenses_2026.Q1", "Table2"]);
  });

  it("settings: add sets or replaces a value (JSON), no value is refused; widths and fills take only what Excel takes; a deleted table leaves its cells", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      context.workbook.settings.add("k", "one");
      context.workbook.settings.add("k", "two");
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:A2").values = [["Head"], ["kept"]];
      sheet.tables.add("Sheet1!A1:A2", true).delete();
      await context.sync();
    });
    expect(excel.model.settings.get("k")).toBe("two");
    expect([excel.model.tables.length, excel.user.valueAt("Sheet1", "A2")]).toEqual([0, "kept"]);
    const attempt = (batch: (context: Excel.RequestContext) => void) => excel.run(async (context) => {
      batch(context);
      await context.sync();
    });
    // No value: Microsoft's client refuses it before Excel sees it (it serialises a setting's value as JSON).
    await expect(attempt((c) => void c.workbook.settings.add("k", undefined as unknown as string))).rejects.toThrow();
    expect(excel.model.settings.get("k")).toBe("two");
    await expect(attempt((c) => void (c.workbook.worksheets.getItem("Sheet1").getRange("B1").format.columnWidth = -5))).rejects.toThrow(code("InvalidArgument"));
    await expect(attempt((c) => void (c.workbook.worksheets.getItem("Sheet1").getRange("B1").format.fill.color = null as unknown as string))).rejects.toThrow(code("InvalidArgument"));
  });

  it("where the host does not report DelayForCellEdit, Office.js sends no delay flag, and a run that asked to wait fails in cell edit", async () => {
    const current = profileOf(DEFAULT_PROFILE);
    useExcelProfile({ ...current, sets: Object.fromEntries(Object.entries(current.sets).filter(([name]) => name !== "DelayForCellEdit")) });
    const excel = new FakeExcel();
    const edit = excel.user.beginCellEdit("Sheet1", "C3");
    await expect(excel.run({ delayForCellEdit: true }, async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [[1]];
      await context.sync();
    })).rejects.toThrow(code("InvalidOperationInCellEditMode"));
    expect(excel.stats.requestFlags.every((flags) => (flags & 64) === 0)).toBe(true);
    edit.end();
  });

  it("Microsoft's client refuses an object of one request context in another, and a batch that returns no promise", async () => {
    const excel = new FakeExcel();
    let range: Excel.Range | undefined;
    await excel.run(async (context) => {
      range = context.workbook.worksheets.getItem("Sheet1").getRange("A1");
      await context.sync();
    });
    await expect(excel.run(async (context) => {
      context.load(range!, "values");
      await context.sync();
    })).rejects.toThrow(code("InvalidRequestContext"));
    await expect(excel.run((() => undefined) as unknown as (context: Excel.RequestContext) => Promise<void>)).rejects.toThrow(code("RunMustReturnPromise"));
  });
});

describe("large loads stay within Excel's limits", () => {
  it("5,000 expenses: several chunked requests, none over the limit, calculation suspended for each", async () => {
    const f = await withExcel({ scale: 17 });
    try {
      const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
      expect(report.count).toBe(f.sandbox.store.expensesOf(f.sub).length);
      expect(report.count).toBeGreaterThanOrEqual(5000);
      expect(f.excel.stats.requests.every((r) => r.bytes <= PAYLOAD_LIMIT_BYTES)).toBe(true);
      expect(f.excel.stats.calculationSuspensions).toBeGreaterThan(1);
      // Requests grow with cells per chunk, not with rows: far fewer than one per hundred rows.
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

describe("rules the ledger proves one by one (docs/excel-checks.md, `npm run ledger`)", () => {
  it("a setting's value reads back as it was added: text, a number, an object; a Date as a Date (the client keeps it as text)", async () => {
    const excel = new FakeExcel();
    const when = new Date(Date.UTC(2026, 10, 1, 9, 30));
    const values: Record<string, unknown> = { text: "Expenses_1", count: 42, table: { resource: "expenses", rows: [1, 2] }, when };
    await excel.run(async (context) => {
      for (const [key, value] of Object.entries(values)) context.workbook.settings.add(key, value as string);
      await context.sync();
    });
    const read = await excel.run(async (context) => {
      const settings = Object.keys(values).map((key) => context.workbook.settings.getItem(key).load("value"));
      await context.sync();
      return settings.map((setting) => setting.value);
    });
    expect(read).toEqual(Object.values(values));
  });

  it("worksheets.load lists every sheet in tab order, hidden and very hidden ones too", async () => {
    const excel = new FakeExcel();
    excel.model.addSheet("Hidden").visibility = "Hidden";
    excel.model.addSheet("Secret").visibility = "VeryHidden";
    excel.model.addSheet("Last");
    const listed = await excel.run(async (context) => {
      const sheets = context.workbook.worksheets.load("items/name, items/visibility");
      await context.sync();
      return sheets.items.map((sheet) => `${sheet.name} ${sheet.visibility}`);
    });
    expect(listed).toEqual(["Sheet1 Visible", "Hidden Hidden", "Secret VeryHidden", "Last Visible"]);
  });

  it("formulas reads a cell's formula, or its value where it has none; numberFormat reads each cell's own format", async () => {
    const excel = new FakeExcel();
    const read = await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:C1");
      range.formulas = [["=SUM(B1:C1)", 12.5, "text"]];
      range.numberFormat = [["0.00", "#,##0.000", "@"]];
      range.load("formulas, numberFormat");
      await context.sync();
      return [range.formulas, range.numberFormat];
    });
    expect(read).toEqual([[["=SUM(B1:C1)", 12.5, "text"]], [["0.00", "#,##0.000", "@"]]]);
  });

  it("autofitColumns fits each column to its widest cell as shown: a timestamp by its format, an amount with its separators, the header too", async () => {
    const excel = new FakeExcel();
    const widths = await excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:C2");
      range.values = [["Paid at", "Amount", "A long header over a short value"], [46000.5, 1234567.891, "x"]];
      range.numberFormat = [["General", "General", "General"], ["yyyy-mm-dd hh:mm:ss", "#,##0.00", "General"]];
      range.format.autofitColumns();
      const columns = [0, 1, 2].map((c) => range.getColumn(c).format.load("columnWidth"));
      await context.sync();
      return columns.map((format) => format.columnWidth);
    });
    // "2026-01-08 12:00:00" is 19 characters, "1,234,567.89" 12; the third column's header is the widest cell.
    expect(widths).toEqual([autofitWidth(19), autofitWidth(12), autofitWidth("A long header over a short value".length)]);
  });

  it("a sheet renamed keeps its id: the id read before the rename still finds it, and no other sheet", async () => {
    const excel = new FakeExcel();
    const id = await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add("Before").load("id");
      await context.sync();
      return sheet.id;
    });
    const after = await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Before").name = "After";
      await context.sync();
      const sheet = context.workbook.worksheets.getItem(id).load("id, name");
      await context.sync();
      return [sheet.id, sheet.name];
    });
    expect(after).toEqual([id, "After"]);
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1", "After"]);
  });

  it("a hidden sheet can't be activated (InvalidOperation), and the active sheet stays the one it was; a visible one can", async () => {
    const excel = new FakeExcel();
    excel.model.addSheet("Hidden").visibility = "Hidden";
    excel.model.addSheet("VeryHidden").visibility = "VeryHidden";
    for (const name of ["Hidden", "VeryHidden"]) {
      await expect(excel.run(async (context) => {
        context.workbook.worksheets.getItem(name).activate();
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one run per sheet on purpose: each is refused
        await context.sync();
      })).rejects.toThrow(code("InvalidOperation"));
      expect(excel.model.activeSheet?.name).toBe("Sheet1");
    }
    excel.model.addSheet("Shown");
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Shown").activate();
      await context.sync();
    });
    expect(excel.model.activeSheet?.name).toBe("Shown");
  });

  it("a table added without a sheet name is on the active sheet, not the first one (TableCollection.add)", async () => {
    const excel = new FakeExcel();
    excel.model.addSheet("Second");
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Second").activate();
      context.workbook.tables.add("B2:C4", true);
      await context.sync();
    });
    const table = excel.model.tables[0];
    expect([table.sheet.name, table.area]).toEqual(["Second", { row: 1, column: 1, rowCount: 3, columnCount: 2 }]);
    expect(excel.model.sheet("Sheet1")!.cell(1, 1)).toBeUndefined();
  });

  it("a range's rowIndex and columnIndex count from zero, rowCount and columnCount are its size", async () => {
    const excel = new FakeExcel();
    const read = await excel.run(async (context) => {
      const ranges = ["A1", "C5:F6", "XFD1048576"].map((address) => context.workbook.worksheets.getItem("Sheet1").getRange(address).load("rowIndex, columnIndex, rowCount, columnCount"));
      await context.sync();
      return ranges.map((r) => [r.rowIndex, r.columnIndex, r.rowCount, r.columnCount]);
    });
    expect(read).toEqual([[0, 0, 1, 1], [4, 2, 2, 4], [1_048_575, 16_383, 1, 1]]);
  });

  it("fill.color = '' and fill.clear() both reset the background (blank-null article); null is refused", async () => {
    const excel = new FakeExcel();
    const run = (batch: (range: Excel.Range) => void) => excel.run(async (context) => {
      batch(context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2"));
      await context.sync();
    });
    const fills = () => [[0, 0], [1, 1]].map(([r, c]) => excel.model.sheet("Sheet1")!.cell(r, c)?.fill);
    await run((range) => void (range.format.fill.color = "#FFEB9C"));
    expect(fills()).toEqual(["#FFEB9C", "#FFEB9C"]);
    await run((range) => void (range.format.fill.color = ""));
    expect(fills()).toEqual([undefined, undefined]);
    await run((range) => void (range.format.fill.color = "yellow"));
    await run((range) => range.format.fill.clear());
    expect(fills()).toEqual([undefined, undefined]);
    await run((range) => void (range.format.fill.color = "#C6EFCE"));
    await expect(run((range) => void (range.format.fill.color = null as unknown as string))).rejects.toThrow(code("InvalidArgument"));
    expect(fills()).toEqual(["#C6EFCE", "#C6EFCE"]);
  });

  it("a list source over 255 characters is refused (strict), one of 255 is taken", async () => {
    const excel = new FakeExcel();
    const source = (length: number) => "draft,pending,approved,".repeat(20).slice(0, length);
    const setRule = (address: string, text: string) => excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange(address).dataValidation.rule = { list: { inCellDropDown: true, source: text } };
      await context.sync();
    });
    await expect(setRule("A1:A5", source(256))).rejects.toThrow(code("InvalidArgument"));
    expect(excel.model.sheet("Sheet1")!.validationAt(0, 0)).toBeUndefined();
    await setRule("B1:B5", source(255));
    expect(excel.model.sheet("Sheet1")!.validationAt(0, 1)?.list.source).toHaveLength(255);
  });

  it("Application.calculate takes Recalculate, Full or FullRebuild only: another type is InvalidArgument and leaves calculation pending", async () => {
    const excel = new FakeExcel();
    const calculate = (type: string) => excel.run(async (context) => {
      context.application.calculate(type as Excel.CalculationType);
      await context.sync();
    });
    for (const type of ["Recalculate", "Full", "FullRebuild"]) {
      excel.model.recalculationPending = true;
      await calculate(type);
      expect([type, excel.model.recalculationPending]).toEqual([type, false]);
    }
    for (const type of ["recalculate", "Partial", ""]) {
      excel.model.recalculationPending = true;
      await expect(calculate(type)).rejects.toThrow(code("InvalidArgument"));
      expect([type, excel.model.recalculationPending]).toEqual([type, true]);
    }
  });

  it("context.workbook.application is the application of context.application: a suspension through one holds a calculation through the other", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      context.application.suspendApiCalculationUntilNextSync();
      context.workbook.application.calculate("Full");
      await context.sync();
    });
    expect(excel.model.recalculationPending).toBe(true);
    excel.model.recalculationPending = false;
    await excel.run(async (context) => {
      context.workbook.application.suspendApiCalculationUntilNextSync();
      context.application.calculate("Full");
      await context.sync();
    });
    expect([excel.model.recalculationPending, excel.stats.calculationSuspensions]).toEqual([true, 2]);
    await excel.run(async (context) => {
      context.workbook.application.calculate("Full");
      await context.sync();
    });
    expect(excel.model.recalculationPending).toBe(false);
  });
});
