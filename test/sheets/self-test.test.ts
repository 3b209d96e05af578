/** "Check this Excel" passes in the strict in-memory Excel, cleans up after itself, and fails in an Excel that parses text. */
import { runSelfTest } from "../../src/sheets";
import { FakeExcel } from "../../src/workbench/fake-excel";
import type { Members } from "../../src/workbench/fake-excel/protocol/host-object";
import { RangeObject } from "../../src/workbench/fake-excel/protocol/range";

describe("the self-test", () => {
  it("passes every check in the in-memory Excel and leaves no sheet or table behind", async () => {
    const excel = new FakeExcel();
    const report = await runSelfTest(excel, "in-memory Excel");
    expect(report.results.map((r) => [r.name, r.passed, r.detail])).toEqual(report.results.map((r) => [r.name, true, "as written"]));
    expect(report.results).toHaveLength(6);
    expect(report).toMatchObject({ host: "in-memory Excel", passed: 6, failed: 0 });
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
    expect(excel.model.tables).toEqual([]);
    expect(excel.runs.every((o) => o.delayForCellEdit === true)).toBe(true);
    // The multi-megabyte block really is split both ways.
    expect(excel.stats.requestBytes.filter((b) => b > 2_000_000).length).toBeGreaterThanOrEqual(3);
    expect(excel.stats.responseBytes.filter((b) => b > 2_000_000).length).toBeGreaterThanOrEqual(3);
    expect(excel.stats.refusedResponses).toBe(0);
  });

  it("fails, naming the cell, in an Excel where typed text is parsed like values (what it exists to catch)", async () => {
    const excel = new FakeExcel();
    // Excel's answer to a valuesAsJson write, replaced by what a `values` write does with the basic values.
    const members: (this: RangeObject) => Members = Reflect.get(RangeObject.prototype, "members");
    const spy = jest.spyOn(RangeObject.prototype as unknown as { members: () => Members }, "members");
    spy.mockImplementation(function (this: RangeObject) {
      const own = members.call(this);
      const values = own.scalars.Values;
      return { ...own, scalars: { ...own.scalars, ValuesAsJson: { ...own.scalars.ValuesAsJson, set: (grid: unknown) => values.set!((grid as Excel.CellValue[][]).map((row) => row.map((cell) => (cell.type === "Empty" ? "" : cell.basicValue)))) } } };
    });
    try {
      const report = await runSelfTest(excel, "a lenient Excel");
      const text = report.results.find((r) => r.name === "Text stays text in every column kind")!;
      expect(text.passed).toBe(false);
      expect(text.detail).toMatch(/^row 1, column 1: wrote "=1\+1", read "#FORMULA\(=1\+1\)"/);
      expect(report.failed).toBeGreaterThanOrEqual(1);
      expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
