/**
 * `Table.sort.apply` on the in-memory Excel, through Microsoft's client (docs/excel-checks.md, "Change events":
 * R-tablesort-apply-moves-table-rows): the self-test sorts its test table to see what Excel tells of a sort.
 */
import { FakeExcel } from "../../src/workbench/fake-excel";

/** A table "T" at B1:C4 with a note beside it in D2, sorted by `fields`; the sheet's B1:D4 afterwards. */
async function sorted(fields: Excel.SortField[]): Promise<unknown[][]> {
  const excel = new FakeExcel();
  return excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    sheet.getRange("B1:D4").values = [["Id", "Amount", ""], ["r1", 2, "beside r1"], ["r2", 3, ""], ["r3", 1, ""]];
    const table = sheet.tables.add("Sheet1!B1:C4", true);
    table.sort.apply(fields);
    const after = sheet.getRange("B1:D4").load("values");
    await context.sync();
    return after.values;
  });
}

describe("Table.sort.apply", () => {
  it("sorts the table's body by a column's offset from its first column, moving only the table's cells", async () => {
    expect(await sorted([{ key: 1, ascending: false }])).toEqual([["Id", "Amount", ""], ["r2", 3, "beside r1"], ["r1", 2, ""], ["r3", 1, ""]]);
    expect((await sorted([{ key: 1 }])).map((row) => row[0])).toEqual(["Id", "r3", "r1", "r2"]);
  });

  it("refuses a key outside the table", async () => {
    await expect(sorted([{ key: 2 }])).rejects.toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });
});
