/**
 * Preview asks which tracked cells of its edited rows hold formulas, errors and formats (describeCells). Each asked
 * cell is an operation of its own in the request (about 800 bytes), so 1,500 edited rows of four columns already
 * weigh 5 MB, which Excel on the web refuses: the cells are asked in as many requests as they take.
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";

describe("the cells of 3,000 edited rows are described within Excel's 5 MB requests", () => {
  it("every cell answered, the last rows' too, no request refused or over 5 MB", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const header = ["ID", "State", "Accounted ID", "Paid ID", "Paid at"];
    await workbook.writeTable({
      sheetName: "Data", tableName: "T", header, rows: Array.from({ length: 3000 }, (_, i) => [`id-${i}`, "approved", "", `PAY-${i}`, ""]),
      numberFormats: header.map(() => "@"), editable: header.map(() => true), dropdowns: header.map(() => null),
    });
    excel.resetStats();
    const rows = Array.from({ length: 3000 }, (_, i) => i);
    const cells = (await workbook.describeCells("T", header.slice(1), rows))!;
    expect(header.slice(1).map((h) => cells.get(h)?.size)).toEqual([3000, 3000, 3000, 3000]);
    expect(cells.get("Accounted ID")!.get(2998)).toEqual({ address: "C3000", formula: false, error: false, format: "@" });
    expect(cells.get("Paid at")!.get(2999)).toEqual({ address: "E3001", formula: false, error: false, format: "@" });
    expect(cells.get("State")!.get(0)).toEqual({ address: "B2", formula: false, error: false, format: "@" });
    expect(excel.stats.requests.every((r) => r.refused === undefined)).toBe(true);
    expect(Math.max(...excel.stats.requests.map((r) => r.bytes))).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
  });
});
