/**
 * A write of many scattered cells (an import's fills: a run per filled row of a column) must not leave Office.js
 * a range per run to release at the end of its Excel.run: that release scans its request once per range
 * (quadratic: 10 minutes of the add-in's CPU for a 100,000-cell import) and weighs over Excel on the web's 5 MB;
 * nor hold every range's proxy to the end (one Excel.run per request).
 */
import type { CellValue } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { EDITED_FILL } from "../../src/sheets/port/marks";
import { FakeExcel } from "../../src/workbench/fake-excel";

describe("a write of scattered cells", () => {
  it("3,000 runs of one cell: every value and fill lands, Excel is left holding no range, the runs' cleanups release only what finding the table took, a run per request", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const rows: CellValue[][] = Array.from({ length: 6_000 }, (_, i) => [`id-${i}`, "approved", ""]);
    await workbook.writeTable({
      sheetName: "Data", tableName: "T", header: ["ID", "State", "Paid ID"], rows, numberFormats: ["@", "@", "@"],
      editable: [false, true, true], dropdowns: [null, null, null],
    });
    excel.resetStats();
    const runsBefore = excel.runs.length;
    const filled = Array.from({ length: 3_000 }, (_, i) => i * 2);
    await workbook.writeCells("T", filled.flatMap((row) => [
      { row, column: 1, value: "paid", fill: EDITED_FILL },
      { row, column: 2, value: `TRF-${row}`, fill: EDITED_FILL },
    ]));
    await new Promise((resolve) => setImmediate(resolve));
    const t = excel.model.table("T")!;
    const cell = (row: number, column: number) => t.sheet.cell(t.area.row + 1 + row, t.area.column + column);
    expect(filled.map((row) => [cell(row, 1)?.value, cell(row, 2)?.value, cell(row, 1)?.fill, cell(row, 2)?.fill]))
      .toEqual(filled.map((row) => ["paid", `TRF-${row}`, EDITED_FILL, EDITED_FILL]));
    expect(cell(1, 1)?.value).toBe("approved");
    expect(cell(1, 1)?.fill).not.toBe(EDITED_FILL);
    expect(excel.host.heldReferences).toBe(0);
    // 6,000 runs written; what the run's end releases is the table's lookup, a handful of ranges at most.
    const released = excel.stats.requests.filter((r) => r.cleanup).reduce((sum, r) => sum + r.actions, 0);
    expect(released).toBeLessThan(20);
    // The fill of a run goes on the run's own range: one value and one fill per run, no more.
    const calls = excel.stats.requests.filter((r) => !r.cleanup).flatMap((r) => r.calls).filter((c) => !c.startsWith("Query"));
    expect(calls.filter((c) => c === "SetProperty ValuesAsJson")).toHaveLength(6_000);
    expect(calls.filter((c) => c === "SetProperty Color")).toHaveLength(6_000);
    // An Excel.run per request (the first also finds the table): Office.js holds a run's ranges until it ends.
    const work = excel.stats.requests.filter((r) => !r.cleanup).length;
    expect(work).toBeGreaterThan(2);
    expect(excel.runs.length - runsBefore).toBe(work - 1);
  });
});
