/**
 * Range.untrack (d.ts 39605): "Release the memory associated with this object, if it has previously been
 * tracked ... You'll need to call context.sync() before the memory release takes effect." Microsoft's client
 * sends the release; the in-memory Excel holds the range until it arrives, and not after.
 */
import { FakeExcel } from "../../src/workbench/fake-excel";

const code = (c: string) => expect.objectContaining({ code: c });

describe("an untracked range", () => {
  it("is released once the next request reaches Excel: Excel holds it no more, and the range is InvalidObjectPath in a later request", async () => {
    const excel = new FakeExcel();
    const held: number[] = [];
    await expect(excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2");
      range.load("address");
      await context.sync();
      held.push(excel.host.heldReferences); // kept by Excel.run's auto-tracking
      range.untrack();
      await context.sync();
      held.push(excel.host.heldReferences);
      range.values = [[1, 2], [3, 4]];
      await context.sync();
    })).rejects.toThrow(code("InvalidObjectPath"));
    expect(held).toEqual([1, 0]);
    expect(excel.model.sheets[0].cell(0, 0)).toBeUndefined();
  });

  it("untracked before its first request: its writes land, Excel never holds it, and the run's cleanup has nothing of it to release", async () => {
    const excel = new FakeExcel();
    let held = -1;
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      for (let row = 0; row < 200; row += 2) {
        const range = sheet.getRangeByIndexes(row, 0, 1, 1);
        range.values = [[row]];
        range.format.fill.color = "#FFC000";
        range.untrack();
      }
      await context.sync();
      held = excel.host.heldReferences;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(held).toBe(0);
    const cells = Array.from({ length: 200 }, (_, row) => excel.model.sheets[0].cell(row, 0));
    expect(cells.map((c) => c?.value ?? "")).toEqual(Array.from({ length: 200 }, (_, row) => (row % 2 ? "" : row)));
    expect(cells.filter((c) => c?.fill === "#FFC000")).toHaveLength(100);
    // Office.js's cleanup request at the run's end releases what the run kept: none of the 100 ranges.
    expect(excel.stats.requests.filter((r) => r.cleanup)).toEqual([]);
  });
});
