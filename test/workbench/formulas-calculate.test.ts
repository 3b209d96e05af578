/**
 * The in-memory Excel calculates formulas (issue 47), read through Microsoft's Office.js client as the add-in
 * reads them: `values` the result, `formulas` the formula as written, `valuesAsJson` and `valueTypes` the
 * result's type (an error as Excel's Error value), structured references as Excel resolves them, and
 * calculation when Excel would do it (Automatic, Manual, suspended).
 */
import { FakeExcel } from "../../src/workbench/fake-excel";

/** A Bank sheet with a table Bank (Ref, Payment id, Paid on) and a Sheet1 to calculate on. */
async function withBank(): Promise<FakeExcel> {
  const excel = new FakeExcel();
  await excel.run(async (context) => {
    const bank = context.workbook.worksheets.add("Bank file");
    bank.getRange("A1:C5").values = [["Ref", "Payment id", "Paid on"], ["E-1001", "PAY-001", 46329.5], ["E-1002", "PAY-002", 46330], ["E-1003", "", 46331], ["E-1004", "PAY-004", 46332]];
    context.workbook.tables.add("'Bank file'!A1:C5", true).name = "Bank";
    await context.sync();
  });
  return excel;
}

/** Writes formulas into Sheet1!A1.. (one row) and reads them back every way. */
async function calculate(excel: FakeExcel, formulas: string[]) {
  return excel.run(async (context) => {
    const range = context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 1, formulas.length);
    range.formulas = [formulas];
    // eslint-disable-next-line office-addins/no-navigational-load -- valuesAsJson is a scalar (ExcelApi 1.16); the plugin's list predates it
    range.load(["values", "formulas", "valuesAsJson", "valueTypes", "text"]);
    await context.sync();
    return { values: range.values[0], formulas: range.formulas[0], json: range.valuesAsJson[0], types: range.valueTypes[0], text: range.text[0] };
  });
}

describe("formulas calculate, as Excel reads them back", () => {
  it("XLOOKUP, VLOOKUP and INDEX/MATCH into another sheet give the value found; formulas read back as written", async () => {
    const excel = await withBank();
    const formulas = [
      "=XLOOKUP(\"E-1002\",'Bank file'!A2:A5,'Bank file'!B2:B5)",
      "=VLOOKUP(\"E-1004\",'Bank file'!A2:C5,2,FALSE)",
      "=INDEX('Bank file'!C2:C5,MATCH(\"E-1001\",'Bank file'!A2:A5,0))",
      "=XLOOKUP(\"E-9999\",'Bank file'!A2:A5,'Bank file'!B2:B5,\"not paid\")",
    ];
    const read = await calculate(excel, formulas);
    expect(read.values).toEqual(["PAY-002", "PAY-004", 46329.5, "not paid"]);
    expect(read.formulas).toEqual(formulas);
    expect(read.types).toEqual(["String", "String", "Double", "String"]);
    expect(read.json).toEqual([{ type: "String", basicValue: "PAY-002" }, { type: "String", basicValue: "PAY-004" }, { type: "Double", basicValue: 46329.5 }, { type: "String", basicValue: "not paid" }]);
    expect(read.text).toEqual(["PAY-002", "PAY-004", "46329.5", "not paid"]);
  });

  it("a lookup that finds nothing is #N/A: values the error's text, valueTypes Error, valuesAsJson Excel's Error value", async () => {
    const excel = await withBank();
    const read = await calculate(excel, ["=XLOOKUP(\"E-9999\",Bank[Ref],Bank[Payment id])", "=1/0", "=NOSUCHFUNCTION(1)", '="#N/A"']);
    expect(read.values).toEqual(["#N/A", "#DIV/0!", "#NAME?", "#N/A"]);
    expect(read.types).toEqual(["Error", "Error", "Error", "String"]);
    expect(read.json.slice(0, 3)).toEqual([
      { type: "Error", basicValue: "#N/A", errorType: "NotAvailable" },
      { type: "Error", basicValue: "#DIV/0!", errorType: "Div0" },
      { type: "Error", basicValue: "#NAME?", errorType: "Name" },
    ]);
    // A text that reads like an error is a text (="#N/A"), never Excel's error.
    expect(read.json[3]).toEqual({ type: "String", basicValue: "#N/A" });
  });

  it("a formula that refers to an empty cell is 0, and an empty text from a formula is a String, never Empty", async () => {
    const excel = await withBank();
    const read = await calculate(excel, ["=XLOOKUP(\"E-1003\",Bank[Ref],Bank[Payment id])", "='Bank file'!Z99", '=""']);
    expect(read.values).toEqual([0, 0, ""]);
    expect(read.json).toEqual([{ type: "Double", basicValue: 0 }, { type: "Double", basicValue: 0 }, { type: "String", basicValue: "" }]);
    expect(read.types).toEqual(["Double", "Double", "String"]);
  });

  it("structured references: a column, #All, #Headers, a run of columns, [@Column] in the table's own row; a column the table lacks is #REF!", async () => {
    const excel = await withBank();
    const read = await calculate(excel, [
      "=ROWS(Bank[Ref])", "=ROWS(Bank[[#All],[Ref]])", "=INDEX(Bank[#Headers],1,2)", "=COLUMNS(Bank[[Ref]:[Paid on]])", "=ROWS(Bank)", "=Bank[No such]",
    ]);
    expect(read.values).toEqual([4, 5, "Payment id", 3, 4, "#REF!"]);
    // Beside the table, in its own rows, [@Column] is that row's cell; a table grows over a column typed beside it.
    await excel.run(async (context) => {
      const bank = context.workbook.worksheets.getItem("Bank file");
      bank.getRange("D1").values = [["Label"]];
      context.workbook.tables.getItem("Bank").resize("'Bank file'!A1:D5");
      bank.getRange("D2:D5").formulas = [["=[@Ref]&\"/\"&Bank[@[Payment id]]"], ["=[@Ref]&\"/\"&Bank[@[Payment id]]"], ["=[@Ref]&\"/\"&Bank[@[Payment id]]"], ["=[@Ref]&\"/\"&Bank[@[Payment id]]"]];
      await context.sync();
    });
    expect(excel.model.sheet("Bank file")!.cell(2, 3)!.value).toBe("E-1002/PAY-002");
    expect(excel.model.sheet("Bank file")!.cell(4, 3)!.value).toBe("E-1004/PAY-004");
  });

  it("values follow their inputs at once in Automatic mode, the same request included", async () => {
    const excel = await withBank();
    const seen = await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1").formulas = [["=XLOOKUP(\"E-1002\",Bank[Ref],Bank[Payment id])"]];
      const first = sheet.getRange("A1").load("values");
      await context.sync();
      const before = first.values[0][0];
      context.workbook.worksheets.getItem("Bank file").getRange("B3").values = [["PAY-002-B"]];
      const second = sheet.getRange("A1").load("values");
      await context.sync();
      return [before, second.values[0][0]];
    });
    expect(seen).toEqual(["PAY-002", "PAY-002-B"]);
  });
});

describe("calculation mode and suspended calculation", () => {
  /** Bank!B3 changed, then A1 (a lookup of it) read, in one run. */
  async function changeAndRead(excel: FakeExcel, value: string, before?: (context: Excel.RequestContext) => void) {
    return excel.run(async (context) => {
      before?.(context);
      context.workbook.worksheets.getItem("Bank file").getRange("B3").values = [[value]];
      await context.sync();
      const a1 = context.workbook.worksheets.getItem("Sheet1").getRange("A1").load("values");
      await context.sync();
      return a1.values[0][0];
    });
  }

  it("Manual: a formula entered takes its value; a change of its input does not reach it until Application.calculate or Range.calculate", async () => {
    const excel = await withBank();
    const mode = await excel.run(async (context) => {
      context.workbook.application.calculationMode = "Manual";
      const app = context.workbook.application.load("calculationMode");
      await context.sync();
      return app.calculationMode;
    });
    expect(mode).toBe("Manual");
    expect((await calculate(excel, ["=XLOOKUP(\"E-1002\",Bank[Ref],Bank[Payment id])"])).values).toEqual(["PAY-002"]);
    expect(await changeAndRead(excel, "PAY-X")).toBe("PAY-002");
    expect(await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").calculate();
      const a1 = context.workbook.worksheets.getItem("Sheet1").getRange("A1").load("values");
      await context.sync();
      return a1.values[0][0];
    })).toBe("PAY-X");
    expect(await changeAndRead(excel, "PAY-Y")).toBe("PAY-X");
    // A calculation before the change sees the value before it.
    expect(await changeAndRead(excel, "PAY-Z", (context) => context.workbook.application.calculate("Recalculate"))).toBe("PAY-Y");
    await excel.run(async (context) => {
      context.workbook.application.calculate("Recalculate");
      await context.sync();
    });
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)!.value).toBe("PAY-Z");
  });

  it("another calculation mode is InvalidArgument and changes nothing", async () => {
    const excel = await withBank();
    await expect(excel.run(async (context) => {
      (context.workbook.application as { calculationMode: string }).calculationMode = "Sometimes";
      await context.sync();
    })).rejects.toMatchObject({ code: "InvalidArgument" });
    expect(excel.model.calculationMode).toBe("Automatic");
  });

  it("Automatic, suspended: values stay as they were until the add-in calculates (its duty, d.ts)", async () => {
    const excel = await withBank();
    await calculate(excel, ["=XLOOKUP(\"E-1002\",Bank[Ref],Bank[Payment id])"]);
    expect(await changeAndRead(excel, "PAY-S", (context) => context.workbook.application.suspendApiCalculationUntilNextSync())).toBe("PAY-002");
    expect(await changeAndRead(excel, "PAY-T")).toBe("PAY-002");
    expect(await changeAndRead(excel, "PAY-U", (context) => context.workbook.application.calculate("Recalculate"))).toBe("PAY-U");
  });
});

describe("a person typing", () => {
  it("a lookup typed into a General cell is a formula with its value; into a Text cell it stays text, as in Excel", async () => {
    const excel = await withBank();
    excel.user.type("Sheet1", "A1", "=XLOOKUP(\"E-1004\",Bank[Ref],Bank[Payment id])");
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toMatchObject({ formula: "=XLOOKUP(\"E-1004\",Bank[Ref],Bank[Payment id])", value: "PAY-004" });
    excel.model.sheet("Sheet1")!.ensure(1, 0).numberFormat = "@";
    excel.user.type("Sheet1", "A2", "=XLOOKUP(\"E-1004\",Bank[Ref],Bank[Payment id])");
    expect(excel.model.sheet("Sheet1")!.cell(1, 0)).toMatchObject({ formula: undefined, value: "=XLOOKUP(\"E-1004\",Bank[Ref],Bank[Payment id])" });
    // The formula follows what the person changes in the bank's file.
    excel.user.type("Bank file", "B5", "PAY-004-NEW");
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)!.value).toBe("PAY-004-NEW");
  });

  it("a dropdown cell checks a formula by its result: one giving a listed value is taken, another refused and the cell left as it was", async () => {
    const excel = await withBank();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("B1").values = [["paid"]];
      sheet.getRange("A1").dataValidation.rule = { list: { inCellDropDown: true, source: "approved,accounted,paid" } };
      await context.sync();
    });
    excel.user.type("Sheet1", "A1", "=B1");
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toMatchObject({ formula: "=B1", value: "paid" });
    expect(() => excel.user.type("Sheet1", "A1", "=\"rejected\"")).toThrow(/data validation/);
    expect(excel.model.sheet("Sheet1")!.cell(0, 0)).toMatchObject({ formula: "=B1", value: "paid" });
  });
});
