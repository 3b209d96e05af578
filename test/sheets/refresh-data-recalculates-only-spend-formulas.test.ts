/**
 * Refresh data (the ribbon) and Refresh All (the taskpane) recalculate Spend Sync's own formulas, in this workbook
 * only: a person with a large forecast open beside ours does not wait for it, their own formulas and other
 * add-ins' functions are not called again, and a cell being edited delays the recalculation instead of failing it.
 * Through Microsoft's Office.js client against the in-memory Excel, which counts every calculation per formula
 * cell and per open workbook (src/workbench/fake-excel/calculation.ts).
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { callsSpend } from "../../src/sheets/excel/recalc";
import { FakeExcel, UserActions, WorkbookModel } from "../../src/workbench/fake-excel";
import { calculationsOf } from "../../src/workbench/fake-excel/calculation";

/** Every formula cell of `model` with how many times it was calculated, as "Sheet!A1": count. */
function counts(model: WorkbookModel): Record<string, number> {
  const out: Record<string, number> = {};
  for (const sheet of model.sheets) {
    for (const [row, line] of sheet.cells) {
      for (const [column, cell] of line) {
        if (cell.formula === undefined) continue;
        const address = `${String.fromCharCode(65 + column)}${row + 1}`;
        out[`${sheet.name}!${address}`] = calculationsOf(model, sheet.name, address);
      }
    }
  }
  return out;
}

/** Our workbook: =SPEND formulas beside a person's own, and a second workbook open with its own formulas and another add-in's function. */
function twoWorkbooks() {
  const excel = new FakeExcel();
  const { user } = excel;
  user.type("Sheet1", "A1", "12");
  user.type("Sheet1", "A2", "=SUM(A1)");
  user.spill("Sheet1", "B1", '=SPEND.EXPENSES("paid")', [["Expense ID", "Amount"], ["e-1", 10], ["e-2", 20]]);
  user.type("Sheet1", "D1", '=IFERROR(spend.expense(A1),"")');
  user.type("Sheet1", "D2", '=IF(A1>0,"SPEND.EXPENSE(x)","")');
  const forecast = new WorkbookModel("Forecast");
  const theirs = new UserActions(forecast);
  theirs.type("Forecast", "A1", "=SUM(B1:B9)");
  theirs.type("Forecast", "A2", '=CONTOSO.PRICE("MSFT")');
  excel.host.otherWorkbooks.push(forecast);
  return { excel, forecast, workbook: new ExcelWorkbook(excel) };
}

describe("Refresh data recalculates Spend Sync's formulas in this workbook, and nothing else", () => {
  it("calls each =SPEND formula of this workbook once; the person's =SUM, the other open workbook's formulas and another add-in's function are not calculated", async () => {
    const { excel, forecast, workbook } = twoWorkbooks();
    expect(await workbook.recalculateSpendFormulas()).toBe(2);
    expect(counts(excel.model)).toEqual({ "Sheet1!A2": 0, "Sheet1!B1": 1, "Sheet1!D1": 1, "Sheet1!D2": 0 });
    expect(counts(forecast)).toEqual({ "Forecast!A1": 0, "Forecast!A2": 0 });
    expect(excel.stats.count("Method Calculate")).toBe(2);
  });

  it("finds them on every sheet, a hidden and a very hidden one too, and calculates a spilled formula through its anchor", async () => {
    const excel = new FakeExcel();
    for (const [name, visibility] of [["Summary", "Visible"], ["Workings", "Hidden"], ["Vault", "VeryHidden"]] as const) {
      excel.model.addSheet(name).visibility = visibility;
      excel.user.type(name, "C3", `=SPEND.CARD("${name}")`);
      excel.user.type(name, "C4", "=C3&\"!\"");
    }
    excel.user.spill("Summary", "E2", "=SPEND.CARDS()", [["Card"], ["c-1"], ["c-2"], ["c-3"]]);
    const workbook = new ExcelWorkbook(excel);
    expect(await workbook.recalculateSpendFormulas()).toBe(4);
    expect(counts(excel.model)).toEqual({
      "Summary!C3": 1, "Summary!C4": 0, "Summary!E2": 1,
      "Workings!C3": 1, "Workings!C4": 0, "Vault!C3": 1, "Vault!C4": 0,
    });
    // The spill's other cells hold its values, not the formula: Excel finds and calculates the anchor alone.
    expect(excel.model.sheet("Summary")!.cell(2, 4)).toMatchObject({ value: "c-1", formula: undefined });
  });

  it("a workbook with no =SPEND formula is sent no calculation at all", async () => {
    const { excel, forecast, workbook } = twoWorkbooks();
    excel.user.clear("Sheet1", "B1:D2");
    excel.model.addSheet("Blank");
    expect(await workbook.recalculateSpendFormulas()).toBe(0);
    expect(excel.stats.count("Method Calculate")).toBe(0);
    expect(excel.stats.syncs).toBe(2);
    expect({ ...counts(excel.model), ...counts(forecast) }).toEqual({ "Sheet1!A2": 0, "Forecast!A1": 0, "Forecast!A2": 0 });
  });

  it("takes three requests however many sheets and formulas: a column of =SPEND cells is one calculation", async () => {
    const requests: number[] = [];
    for (const sheets of [1, 12]) {
      const excel = new FakeExcel();
      for (let s = 1; s < sheets; s++) excel.model.addSheet(`S${s}`);
      for (const sheet of excel.model.sheets) {
        for (let row = 1; row <= 40; row++) excel.user.type(sheet.name, `B${row}`, `=SPEND.EXPENSE(A${row})`);
        excel.user.type(sheet.name, "B41", "=SUM(A1:A40)");
        excel.user.type(sheet.name, "B42", "=SPEND.EXPENSE(A42)");
      }
      const workbook = new ExcelWorkbook(excel);
      expect(await workbook.recalculateSpendFormulas()).toBe(41 * sheets);
      // Two runs per sheet (B1:B40 and B42): the =SUM between them is left alone.
      expect(excel.stats.count("Method Calculate")).toBe(2 * sheets);
      expect(calculationsOf(excel.model, excel.model.sheets[sheets - 1].name, "B41")).toBe(0);
      expect(calculationsOf(excel.model, excel.model.sheets[sheets - 1].name, "B40")).toBe(1);
      requests.push(excel.stats.syncs);
    }
    expect(requests).toEqual([3, 3]);
  });

  it("formulas weighing more than one answer may carry (5 MB) are read in parts: each =SPEND formula is still calculated once, and no answer is refused", async () => {
    const excel = new FakeExcel();
    const sheet = excel.model.sheets[0];
    const rows = 30_000;
    const pad = "x".repeat(80);
    for (let r = 0; r < rows; r++) {
      Object.assign(sheet.ensure(r, 0), { formula: `=SPEND.EXPENSE("${pad}",B${r + 1})`, value: "" });
      Object.assign(sheet.ensure(r, 1), { formula: `=LEN("${pad}")+${r}`, value: "" });
    }
    const workbook = new ExcelWorkbook(excel);
    expect(await workbook.recalculateSpendFormulas()).toBe(rows);
    expect([calculationsOf(excel.model, "Sheet1", "A1"), calculationsOf(excel.model, "Sheet1", `A${rows}`), calculationsOf(excel.model, "Sheet1", "B7")]).toEqual([1, 1, 0]);
    // The one read of them all was refused as too large; the parts then all fit, each under 5 MB.
    expect(excel.stats.refusedResponses).toBe(1);
    expect(excel.largestResponseBytes).toBeLessThan(5_000_000);
    // The sheets, the refused read, the places, 3 parts of at most 20,000 cells (60,000 formulas), the calculations.
    expect(excel.stats.syncs).toBe(7);
    // Column A read in three parts is still one run of =SPEND cells: one calculation.
    expect(excel.stats.count("Method Calculate")).toBe(1);
  });

  it("a part still too large for an answer is read again in halves, down to what Excel accepts", async () => {
    const excel = new FakeExcel();
    const sheet = excel.model.sheets[0];
    // 1,000 formulas of 8,000 characters (8 MB): the 1,000 cells of one part are refused, then halves, until 500 KB parts.
    const long = "y".repeat(8_000);
    for (let r = 0; r < 1_000; r++) Object.assign(sheet.ensure(r, 2), { formula: `=IF(A${r + 1},SPEND.CARD("${long}"),0)`, value: "" });
    const workbook = new ExcelWorkbook(excel);
    expect(await workbook.recalculateSpendFormulas()).toBe(1_000);
    expect([calculationsOf(excel.model, "Sheet1", "C1"), calculationsOf(excel.model, "Sheet1", "C1000")]).toEqual([1, 1]);
    expect(excel.largestResponseBytes).toBeLessThan(5_000_000);
    expect(excel.stats.count("Method Calculate")).toBe(1);
  });

  it("a cell being edited delays the recalculation, which then completes, instead of failing it", async () => {
    const { excel, workbook } = twoWorkbooks();
    const edit = excel.user.beginCellEdit("Sheet1", "A1");
    let done = false;
    const recalculated = workbook.recalculateSpendFormulas().finally(() => (done = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect([done, edit.waiting]).toEqual([false, 1]);
    expect(calculationsOf(excel.model, "Sheet1", "B1")).toBe(0);
    edit.end();
    expect(await recalculated).toBe(2);
    expect(calculationsOf(excel.model, "Sheet1", "B1")).toBe(1);
    expect(excel.stats.requests.filter((r) => r.refused).map((r) => r.refused)).toEqual([]);
    expect(excel.runs.map((options) => options.delayForCellEdit)).toEqual([true]);
    expect(excel.stats.requestFlags.every((flags) => (flags & 64) === 64)).toBe(true);
  });
});

describe("which formulas are Spend Sync's", () => {
  it.each([
    ["=SPEND.EXPENSES()", true],
    ['=IFERROR(SPEND.EXPENSES("paid"),"")', true],
    ["=spend.Expense(A1)", true],
    ["=@SPEND.CARDS()", true],
    ["=SUM(A1)", false],
    ['="SPEND.EXPENSES()"', false],
    ['=IF(A1,"say SPEND.X(1)",1)', false],
    ["='SPEND.X(1)'!A1", false],
    ["=MYSPEND.EXPENSES()", false],
    ["=CONTOSO.SPEND.EXPENSES()", false],
    ["=SPENDING.TOTAL(A1)", false],
  ])("%s calls a SPEND. function: %s", (formula, ours) => {
    expect(callsSpend(formula)).toBe(ours);
  });
});
