/** What a person does in Excel's grid, through FakeExcel.user: typing, paste, fill down, Delete, spills. */
import { FakeExcel } from "../../src/workbench/fake-excel";
import { shiftFormula } from "../../src/workbench/fake-excel/shift-formula";

function sheetWithStates(): FakeExcel {
  const excel = new FakeExcel();
  const sheet = excel.model.sheet("Sheet1")!;
  sheet.validations.push({ area: { row: 1, column: 1, rowCount: 30, columnCount: 1 }, list: { inCellDropDown: true, source: "draft,pending,approved,accounted,paid,rejected" } });
  return excel;
}

const value = (excel: FakeExcel, at: string) => excel.user.valueAt("Sheet1", at);

describe("typing, pasting and filling, as in Excel's grid", () => {
  it("typing outside a dropdown's list is refused with the allowed values named; the cell keeps its value; another case is accepted as typed", () => {
    const excel = sheetWithStates();
    excel.user.type("Sheet1", "B2", "approved");
    expect(() => excel.user.type("Sheet1", "B2", "payed")).toThrow(
      "This value doesn't match the data validation restrictions defined for this cell. Allowed: draft, pending, approved, accounted, paid, rejected.");
    expect(value(excel, "B2")).toBe("approved");
    excel.user.type("Sheet1", "B2", "Paid");
    expect(value(excel, "B2")).toBe("Paid");
  });

  it("paste skips data validation and takes the pasted cells' rule away (strict); a pasted block lands from its top-left cell", () => {
    const excel = sheetWithStates();
    excel.user.pasteBlock("Sheet1", "B2", [["Paid", "PAY-1"], ["done", "PAY-2"]]);
    expect([value(excel, "B2"), value(excel, "C2"), value(excel, "B3"), value(excel, "C3")]).toEqual(["Paid", "PAY-1", "done", "PAY-2"]);
    const sheet = excel.model.sheet("Sheet1")!;
    expect([1, 2, 3, 30].map((row) => sheet.validationAt(row, 1) !== undefined)).toEqual([false, false, true, true]);
    excel.user.type("Sheet1", "B2", "anything");
    expect(value(excel, "B2")).toBe("anything");
  });

  it("typing respects a Text cell and a leading apostrophe; elsewhere number-like text becomes a number", () => {
    const excel = new FakeExcel();
    excel.model.sheet("Sheet1")!.ensure(0, 0).numberFormat = "@";
    excel.user.type("Sheet1", "A1", "00123");
    excel.user.type("Sheet1", "A2", "'00123");
    excel.user.type("Sheet1", "A3", "00123");
    expect([value(excel, "A1"), value(excel, "A2"), value(excel, "A3")]).toEqual(["00123", "00123", 123]);
  });

  it("Ctrl+D copies the top row down (value and format, no validation); on one row it copies the row above", () => {
    const excel = sheetWithStates();
    const sheet = excel.model.sheet("Sheet1")!;
    for (let r = 1; r <= 20; r++) excel.user.type("Sheet1", `B${r + 1}`, "approved");
    excel.user.paste("Sheet1", "B2", "paid");
    sheet.ensure(1, 1).fill = "#FFF4CE";
    expect(excel.user.fillDown("Sheet1", "B2:B21")).toEqual([]);
    expect(Array.from({ length: 20 }, (_, i) => value(excel, `B${i + 2}`))).toEqual(Array(20).fill("paid"));
    expect(sheet.cell(20, 1)?.fill).toBe("#FFF4CE");
    expect(value(excel, "B22")).toBe("");
    excel.user.fillDown("Sheet1", "B22");
    expect(value(excel, "B22")).toBe("paid");
  });

  it("filling a formula moves its relative references and hands the cells back to be calculated", () => {
    const excel = new FakeExcel();
    excel.user.spill("Sheet1", "B1", '=SPEND.EXPENSE($A$1, A1, "state")', [["paid"]]);
    expect(excel.user.fillDown("Sheet1", "B1:B3")).toEqual(["B2", "B3"]);
    expect(excel.model.sheet("Sheet1")!.cell(2, 1)?.formula).toBe('=SPEND.EXPENSE($A$1, A3, "state")');
    expect(shiftFormula('=SPEND.CARD(B2, "A1", LOG10(2))', -1)).toBe('=SPEND.CARD(B1, "A1", LOG10(2))');
    expect(shiftFormula("=SPEND.CARD(B1)", -1)).toBe("=SPEND.CARD(#REF!)");
  });

  it("Delete clears values and formulas but keeps formats and validation", () => {
    const excel = sheetWithStates();
    const sheet = excel.model.sheet("Sheet1")!;
    sheet.ensure(1, 1).numberFormat = "@";
    excel.user.type("Sheet1", "B2", "paid");
    excel.user.type("Sheet1", "C2", "=1+1");
    excel.user.clear("Sheet1", "B2:C2");
    expect([value(excel, "B2"), value(excel, "C2"), sheet.cell(1, 2)?.formula, sheet.cell(1, 1)?.numberFormat]).toEqual(["", "", undefined, "@"]);
    expect(() => excel.user.type("Sheet1", "B2", "nope")).toThrow(/Allowed: draft/);
  });
});

describe("spills, as Excel's dynamic arrays", () => {
  const grid = [["Id", "State"], ["e1", "paid"], ["e2", "approved"]];

  it("a spill over a non-empty cell shows #SPILL! at its anchor and overwrites nothing; clearing the cell lets it spill", () => {
    const excel = new FakeExcel();
    excel.user.type("Sheet1", "C3", "mine");
    const info = excel.user.spill("Sheet1", "B1", "=SPEND.X()", grid);
    expect(info).toMatchObject({ anchor: "B1", blockedBy: "C3", area: "B1", rows: 3, columns: 2 });
    expect([value(excel, "B1"), value(excel, "B2"), value(excel, "C3")]).toEqual(["#SPILL!", "", "mine"]);
    excel.user.clear("Sheet1", "C3");
    expect(excel.user.spillAt("Sheet1", "C3")).toMatchObject({ anchor: "B1", area: "B1:C3", blockedBy: undefined });
    expect([value(excel, "B1"), value(excel, "C3")]).toEqual(["Id", "approved"]);
  });

  it("clearing or replacing a formula removes its spill; a shorter result leaves no stale cells", () => {
    const excel = new FakeExcel();
    excel.user.spill("Sheet1", "A1", "=SPEND.X()", grid);
    excel.user.spill("Sheet1", "A1", "=SPEND.Y()", [["only"]]);
    expect([value(excel, "A1"), value(excel, "B1"), value(excel, "A3")]).toEqual(["only", "", ""]);
    excel.user.spill("Sheet1", "A1", "=SPEND.X()", grid);
    excel.user.type("Sheet1", "A1", "plain");
    expect([value(excel, "A1"), value(excel, "B3")]).toEqual(["plain", ""]);
    excel.user.spill("Sheet1", "A1", "=SPEND.X()", grid);
    excel.user.clear("Sheet1", "A1");
    expect([value(excel, "A1"), value(excel, "A2"), excel.user.formulas()]).toEqual(["", "", []]);
  });

  it("typing into a spilled cell blocks the formula (#SPILL!); Delete on a spilled cell does nothing", () => {
    const excel = new FakeExcel();
    excel.user.spill("Sheet1", "A1", "=SPEND.X()", grid);
    excel.user.clear("Sheet1", "B2");
    expect(value(excel, "B2")).toBe("paid");
    excel.user.type("Sheet1", "B2", "mine");
    expect([value(excel, "A1"), value(excel, "A2"), value(excel, "B2")]).toEqual(["#SPILL!", "", "mine"]);
    expect(excel.user.spillAt("Sheet1", "A1")?.blockedBy).toBe("B2");
    excel.user.clear("Sheet1", "B2");
    expect([value(excel, "A1"), value(excel, "B2")]).toEqual(["Id", "paid"]);
  });
});

describe("where the person is: the active sheet and its selection", () => {
  it("a click on a tab and a cell makes that sheet active and that block its selection, which getSelectedRange answers; each sheet keeps its own; a hidden sheet can't be selected on", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      context.workbook.worksheets.add("Two");
      context.workbook.worksheets.add("Hidden").visibility = "Hidden";
      await context.sync();
    });
    const selected = () => excel.run(async (context) => {
      const range = context.workbook.getSelectedRange().load("address");
      const sheet = context.workbook.worksheets.getActiveWorksheet().load("name");
      await context.sync();
      return [sheet.name, range.address];
    });
    expect(await selected()).toEqual(["Sheet1", "Sheet1!A1"]);
    excel.user.select("Two", "C3:D9");
    expect(await selected()).toEqual(["Two", "Two!C3:D9"]);
    excel.user.select("Sheet1", "B2");
    expect(await selected()).toEqual(["Sheet1", "Sheet1!B2"]);
    // Back on Two (the add-in activates it), its own selection is still there.
    await excel.run(async (context) => {
      context.workbook.worksheets.getItem("Two").activate();
      await context.sync();
    });
    expect(await selected()).toEqual(["Two", "Two!C3:D9"]);
    excel.user.select("Sheet1", "B2");
    expect(() => excel.user.select("Hidden", "A1")).toThrow("The sheet 'Hidden' is hidden: a person can't select on it.");
    expect(await selected()).toEqual(["Sheet1", "Sheet1!B2"]);
  });
});
