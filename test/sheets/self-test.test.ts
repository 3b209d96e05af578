/** "Check this Excel" passes in the strict in-memory Excel, cleans up after itself, and fails in an Excel that parses text. */
import { functionFeatures, runSelfTest } from "../../src/sheets/excel";
import * as tableCreation from "../../src/sheets/excel/create-table";
import { isSetSupported, profileOf, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { FakeExcel } from "../../src/workbench/fake-excel";
import type { Members } from "../../src/workbench/fake-excel/protocol/host-object";
import { NullHostObject } from "../../src/workbench/fake-excel/protocol/null-object";
import { RangeObject } from "../../src/workbench/fake-excel/protocol/range";
import { WorksheetObject } from "../../src/workbench/fake-excel/protocol/worksheet";
import { withMembers } from "../support/host-members";
import { FakeExcelError } from "../../src/workbench/fake-excel/errors";

/** An Excel whose valuesAsJson writes store each cell as `change` makes it (or refuse it: `change` throws). */
const onWrite = (change: (cell: Excel.CellValue) => Excel.CellValue) => (own: Members): Members => {
  const typed = own.scalars.ValuesAsJson;
  const set = (grid: unknown) => typed.set!((grid as Excel.CellValue[][]).map((line) => line.map(change)));
  return { ...own, scalars: { ...own.scalars, ValuesAsJson: { ...typed, set } } };
};

/** The self-test's report in an Excel whose ranges behave as `patch` makes them. */
const reportIn = (patch: (own: Members) => Members, host: string) => withMembers(RangeObject, patch, () => runSelfTest(new FakeExcel(), host));
const resultOf = (report: { results: { name: string; passed: boolean; detail: string }[] }, name: string) => {
  const found = report.results.find((r) => r.name === name)!;
  return [found.passed, found.detail];
};

/** The workbook's sheets as Excel lists them: names and visibilities, in tab order. */
const sheetsOf = (excel: FakeExcel) => excel.model.sheets.map((s) => `${s.name} (${s.visibility})`);

/** A workbook a person already works in: sheets of every visibility, one of them very hidden by another add-in. */
async function usedWorkbook(): Promise<FakeExcel> {
  const excel = new FakeExcel();
  await excel.run(async (context) => {
    context.workbook.worksheets.add("Archive").visibility = "Hidden";
    context.workbook.worksheets.add("Other add-in").visibility = "VeryHidden";
    context.workbook.worksheets.add("Budget");
    await context.sync();
  });
  return excel;
}

describe("the self-test", () => {
  it("passes every check in the in-memory Excel and leaves the workbook's sheets exactly as they were, every visibility", async () => {
    const excel = await usedWorkbook();
    const before = sheetsOf(excel);
    const setupRuns = excel.runs.length;
    const report = await runSelfTest(excel, "in-memory Excel");
    // The change-event checks report what Excel told (test/sheets/self-test-events.test.ts).
    const events = ["Excel tells of a write in a table", "Excel tells of rows deleted from a table", "Excel tells of a sort of a table"];
    expect(report.results.filter((r) => !events.includes(r.name)).map((r) => [r.name, r.passed, r.detail])).toEqual(report.results.filter((r) => !events.includes(r.name)).map((r) => [r.name, true, "as written"]));
    expect(report.results.map((r) => r.name)).toEqual([
      "Text stays text in every column kind", "Numbers, dates and formats as written", "A full cell, and a text too long for one",
      "Statuses written back by a sync", "A block of several megabytes", "The journal grows by appending", "An empty cell is blank",
      "A sheet holding data is never written over", ...events, "The workbook is left as it was",
    ]);
    // What each pass proves, as Diagnostics shows it beside the check.
    expect(report.results.map((r) => r.proves)).toEqual([
      "service text never becomes a formula, a number, a date or a boolean, in text, amount, date and timestamp columns",
      "amounts stay signed numbers, dates and timestamps stay date serials, each column keeps its number format",
      "32,767 characters are stored whole; a longer text is cut with a visible marker, never refused",
      "the cells a sync writes (server values, statuses, fills) keep their text exactly, in any column",
      "large loads are split under Excel's 5 MB request and response limits, and every row arrives in order",
      "rows appended below a table land after its last row, as the journal's do",
      "a cell the add-in empties (an Empty value) is blank to Excel: ISBLANK is TRUE and its value type is Empty",
      "a load refuses a sheet of its table's name that holds a value anywhere, and takes the same sheet once it is blank",
      "the add-in's own write of a cell raises Table.onChanged (RangeEdited, that cell) before Preview's next request, and the edit marks hold its row",
      "rows leaving a table raise an event that makes the edit marks incomplete, so Preview reads every row again",
      "a sort of a table's rows makes the edit marks incomplete (Worksheet.onRowSorted), so Preview reads every row again; the pass says whether Excel also raised Table.onChanged",
      "every temporary sheet is gone, visible or very hidden, and every other sheet kept its name and visibility",
    ]);
    expect(report).toMatchObject({ host: "in-memory Excel", passed: 12, failed: 0, features: [] });
    expect(sheetsOf(excel)).toEqual(before);
    expect(before).toEqual(["Sheet1 (Visible)", "Archive (Hidden)", "Other add-in (VeryHidden)", "Budget (Visible)"]);
    expect(excel.model.tables).toEqual([]);
    expect(excel.runs.slice(setupRuns).every((o) => o.delayForCellEdit === true)).toBe(true);
    // The multi-megabyte block really is split both ways.
    expect(excel.stats.requestBytes.filter((b) => b > 2_000_000).length).toBeGreaterThanOrEqual(3);
    expect(excel.stats.responseBytes.filter((b) => b > 2_000_000).length).toBeGreaterThanOrEqual(3);
    expect(excel.stats.refusedResponses).toBe(0);
  });

  it("fails, naming the cell, in an Excel where typed text is parsed like values (what it exists to catch)", async () => {
    const excel = new FakeExcel();
    // Excel's answer to a valuesAsJson write, replaced by what a `values` write does with the basic values.
    const lenient = (own: Members): Members => {
      const values = own.scalars.Values;
      return { ...own, scalars: { ...own.scalars, ValuesAsJson: { ...own.scalars.ValuesAsJson, set: (grid: unknown) => values.set!((grid as Excel.CellValue[][]).map((row) => row.map((cell) => (cell.type === "Empty" ? "" : cell.basicValue)))) } } };
    };
    const report = await withMembers(RangeObject, lenient, () => runSelfTest(excel, "a lenient Excel"));
    expect(report.results.map((r) => [r.name, r.passed, r.detail])).toEqual([
      ["Text stays text in every column kind", false, 'row 1, column 1: wrote "=1+1", read 2 (and 67 more cells)'],
      ["Numbers, dates and formats as written", false, 'row 1, column 1: wrote "0042", read 42 (and 1 more cell)'],
      ["A full cell, and a text too long for one", true, "as written"],
      ["Statuses written back by a sync", false, 'row 1, column 1: wrote "=1+1", read 2 (and 16 more cells)'],
      ["A block of several megabytes", true, "as written"],
      ["The journal grows by appending", false, 'row 2, column 1: wrote "=2+2", read 4'],
      ["An empty cell is blank", true, "as written"],
      ["A sheet holding data is never written over", true, "as written"],
      ["Excel tells of a write in a table", true, "told as RangeEdited A3, before the change's own request completed"],
      ["Excel tells of rows deleted from a table", true, "told as RowDeleted A4:D4, before the change's own request completed"],
      ["Excel tells of a sort of a table", true, "Worksheet.onRowSorted or Table.onChanged ended the marks before the change's own request completed; no Table.onChanged"],
      ["The workbook is left as it was", true, "as written"],
    ]);
    expect([report.passed, report.failed]).toEqual([8, 4]);
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
  });

  // What the text check writes: each a text some Excel could take for a formula, a number, a date, a boolean or an
  // error, or change (a quote prefix, a full-width sign, characters outside Latin-1). docs/excel-checks.md lists them.
  const PROBES = [
    "=1+1", '=HYPERLINK("http://example.invalid","click")', "=cmd|' /C calc'!A0", "+1+1", "-1+1", "@SUM(1)", " =1+1", "\t=1+1", "\r=1+1",
    "\uFF1D1+1", "00123", "1E5", "12,345", "50%", "2026-11-01", "11/1/2026", "TRUE", "#N/A", "'quoted", "経費精算",
  ];
  it.each(PROBES.map((text, row) => [row + 1, text]))("catches an Excel that changes only the text of row %i (%j), naming it", async (row, text) => {
    const changesOne = onWrite((cell) => (cell.type === "String" && cell.basicValue === text ? { ...cell, basicValue: `${text}?` } : cell));
    const report = await reportIn(changesOne, "an Excel that changes one text");
    expect(resultOf(report, "Text stays text in every column kind")).toEqual([false, `row ${row}, column 1: wrote ${JSON.stringify(text)}, read ${JSON.stringify(`${text}?`)} (and 3 more cells)`]);
    expect(resultOf(report, "Statuses written back by a sync")[0]).toBe(false);
  });

  it("fails in an Excel where an Empty write leaves something in the cell (office-js #6248), naming the column", async () => {
    // An Empty value stored as an empty string: not blank to Excel.
    const fillsEmpty = onWrite((cell) => (cell.type === "Empty" ? { type: "String", basicValue: "" } : cell));
    const report = await reportIn(fillsEmpty, "an Excel that fills empty cells");
    expect(resultOf(report, "An empty cell is blank")).toEqual([false, "column 1: value type String, ISBLANK false"]);
  });

  it("fails its last check, listing the sheets, in an Excel where the add-in's very hidden sheets could not be deleted (the old clean-up)", async () => {
    const excel = await usedWorkbook();
    const before = sheetsOf(excel);
    // The clean-up as it was: delete() straight on a very hidden sheet, which Excel refuses (d.ts, Worksheet.delete).
    const spy = jest.spyOn(tableCreation, "deleteSheet").mockImplementation((sheet) => sheet.delete());
    try {
      const report = await runSelfTest(excel, "in-memory Excel");
      const last = report.results.at(-1)!;
      expect(last.name).toBe("The workbook is left as it was");
      expect(last.passed).toBe(false);
      expect(last.detail).toMatch(/after: .*SpendSync check \w+ \(VeryHidden\)/);
      expect(sheetsOf(excel)).not.toEqual(before);
    } finally {
      spy.mockRestore();
    }
  });

  it("fails, naming the cell it wrote, in an Excel whose sheet reports no used range while it holds a value", async () => {
    const excel = new FakeExcel();
    const blind = (own: Members): Members => ({ ...own, methods: { ...own.methods, GetUsedRangeOrNullObject: () => new NullHostObject("Range", "no used range") } });
    const report = await withMembers(WorksheetObject, blind, () => runSelfTest(excel, "a blind Excel"));
    const taken = report.results.find((r) => r.name === "A sheet holding data is never written over")!;
    expect([taken.passed, taken.detail]).toEqual([false, "a sheet holding AD100 was written over"]);
    expect(report.results.filter((r) => !r.passed).map((r) => r.name)).toEqual(["A sheet holding data is never written over"]);
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
  });

  it("catches an Excel that drops a number's sign, naming the amount", async () => {
    const report = await reportIn(onWrite((cell) => (cell.type === "Double" ? { ...cell, basicValue: Math.abs(cell.basicValue) } : cell)), "an unsigned Excel");
    expect(resultOf(report, "Numbers, dates and formats as written")).toEqual([false, "row 1, column 2: wrote -1234.5, read 1234.5"]);
    expect(report.results.filter((r) => !r.passed).map((r) => r.name)).toEqual(["Numbers, dates and formats as written", "The journal grows by appending"]);
  });

  it("catches an Excel that keeps one character fewer than 32,767, in the full cell and in the cut one, each shown in its first 80 characters", async () => {
    const cuts = onWrite((cell) => (cell.type === "String" && cell.basicValue.length > 32_766 ? { ...cell, basicValue: cell.basicValue.slice(0, 32_766) } : cell));
    const report = await reportIn(cuts, "an Excel of shorter cells");
    const x80 = `"${"x".repeat(79)}`;
    expect(resultOf(report, "A full cell, and a text too long for one")).toEqual([false, `row 1, column 1: wrote ${x80}, read ${x80} (and 1 more cell)`]);
    expect(report.failed).toBe(1);
  });

  it("catches an Excel that refuses a text of 32,767 characters, with Excel's own error", async () => {
    const refuses = onWrite((cell) => {
      if (cell.type === "String" && cell.basicValue.length > 32_000) throw new FakeExcelError("InvalidArgument", "The argument is invalid or missing or has an incorrect format.");
      return cell;
    });
    const report = await reportIn(refuses, "an Excel that refuses full cells");
    expect(resultOf(report, "A full cell, and a text too long for one")).toEqual([false, "RichApi.Error: The argument is invalid or missing or has an incorrect format."]);
    expect(report.failed).toBe(1);
  });

  it("lists the function data-type features each Excel reports, with their requirement sets", () => {
    const features = (id: ProfileId) => functionFeatures({ isSetSupported: (name, version) => isSetSupported(profileOf(id), name, version) })
      .map((f) => `${f.available ? "has" : "lacks"} ${f.set}`);
    const effects = (id: ProfileId) => functionFeatures({ isSetSupported: (name, version) => isSetSupported(profileOf(id), name, version) }).map((f) => [f.name, f.effect]);
    expect(effects("office-2024")).toEqual([
      ["Data types from =SPEND functions", "plain values: dates as serial numbers, a record as a header row and its row"],
      ["Number formats inside values", "not used (no data types from functions here)"],
      ["Formula value preview", "Excel asks for no previews"],
    ]);
    expect(effects("m365-2302")).toEqual([
      ["Data types from =SPEND functions", "dates and amounts spill formatted; a record is an entity with a card"],
      ["Number formats inside values", "numbers carry their format as FormattedNumber values (the form before 1.19)"],
      ["Formula value preview", "Excel asks for no previews"],
    ]);
    expect(effects("web").map(([, effect]) => effect)).toEqual([
      "dates and amounts spill formatted; a record is an entity with a card", "numbers carry their format as Double values",
      "a preview answers from the cache, never calling the service",
    ]);
    expect(features("web")).toEqual(["has CustomFunctionsRuntime 1.4", "has ExcelApi 1.19", "has CustomFunctionsRuntime 1.5"]);
  });
});
