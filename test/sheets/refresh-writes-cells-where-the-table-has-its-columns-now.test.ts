/**
 * A refresh's update writes only the cells it names, wherever the table has those columns now (moved,
 * Total Row, not at A1): undefined cells and the user's own columns are left alone; rows it adds go below
 * the body (the Total Row making way and coming back), take the editable fill and dropdowns, and are refused,
 * before anything is written, when cells there hold data. Rows are read back in the order asked.
 */
import { type CellValue, type TableUpdate } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { columnName, locateTable, sheetAddress } from "../../src/sheets/excel/locate";
import type { XContext } from "../../src/sheets/excel/api";
import { FakeExcel } from "../../src/workbench/fake-excel";

const HEADER = ["ID", "Name", "Amount", "Mine"];

/** Table T on sheet "My data" at C3 (header), 3 body rows, a Total Row reading "Total" in its first cell. */
function placed(totals = true) {
  const excel = new FakeExcel();
  const sheet = excel.model.addSheet("My data");
  const body: CellValue[][] = [["a", "Ann", 1, "m1"], ["b", "Bob", 2, "m2"], ["c", "Cy", 3, "m3"]];
  [HEADER, ...body].forEach((line, r) => line.forEach((v, c) => (sheet.ensure(2 + r, 2 + c).value = v)));
  if (totals) sheet.ensure(6, 2).value = "Total";
  excel.model.tables.push({ id: "{table-x}", name: "T", sheet, area: { row: 2, column: 2, rowCount: totals ? 5 : 4, columnCount: 4 }, showFilterButton: true, showTotals: totals, style: "" });
  return { excel, sheet, workbook: new ExcelWorkbook(excel) };
}

/** Rows of the table as a person sees them: values, and fills and formats of the body. */
function view(excel: FakeExcel) {
  const t = excel.model.table("T")!;
  const lines = Array.from({ length: t.area.rowCount }, (_, r) => Array.from({ length: t.area.columnCount }, (_, c) => t.sheet.cell(t.area.row + r, t.area.column + c)));
  return {
    at: `${columnName(t.area.column)}${t.area.row + 1}:${columnName(t.area.column + t.area.columnCount - 1)}${t.area.row + t.area.rowCount}`,
    totals: t.showTotals,
    values: lines.map((l) => l.map((cell) => cell?.value ?? "")),
    fills: lines.slice(1).map((l) => l.map((cell) => cell?.fill ?? "")),
    formats: lines.slice(1).map((l) => l.map((cell) => cell?.numberFormat ?? "")),
  };
}

const update = (rows: TableUpdate["rows"], extra: Partial<TableUpdate> = {}): TableUpdate => ({
  header: ["Amount", "ID", "Name"], rows, editable: [true, false, false], dropdowns: [null, null, ["Ann", "Bob"]], ...extra,
});

describe("addressing", () => {
  it("names columns A…Z, AA…ZZ, AAA… and quotes every sheet name", () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16_383].map(columnName)).toEqual(["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA", "XFD"]);
    expect(sheetAddress("Q1", 0, 0, 1, 1)).toBe("'Q1'!A1:A1");
    expect(sheetAddress("Bob's 'plan'", 4, 2, 3, 28)).toBe("'Bob''s ''plan'''!C5:AD7");
  });
});

describe("finding a table", () => {
  it("gives its sheet, header, place, body rows and Total Row; null where the workbook has none", async () => {
    const { excel } = placed();
    const at = await excel.run(async (context) => locateTable(context as unknown as XContext, "T"));
    expect({ ...at, table: undefined, sheet: undefined }).toEqual({
      table: undefined, sheet: undefined, sheetName: "My data", header: HEADER, top: 2, left: 2, columns: 4, bodyRows: 3, showTotals: true,
    });
    expect(await excel.run(async (context) => locateTable(context as unknown as XContext, "Nope"))).toBeNull();
  });

  it("passes on any other failure of the request", async () => {
    const failing = { code: "GeneralException", message: "Excel is busy" };
    const stub = {
      load: () => stub, getHeaderRowRange: () => stub, getDataBodyRange: () => stub, worksheet: null as unknown,
    };
    stub.worksheet = stub;
    const context = { workbook: { tables: { getItem: () => stub } }, sync: () => Promise.reject(failing) } as unknown as XContext;
    await expect(locateTable(context, "T")).rejects.toBe(failing);
  });
});

describe("an update", () => {
  it("writes the cells it names in the columns' places now, with their formats and fills, and leaves undefined cells and the user's column", async () => {
    const { excel, workbook } = placed();
    await workbook.updateTable("T", update([
      { row: 1, values: [20, undefined, "Bobby"], formats: ["0.00", null, "@"], fills: [null, undefined, "#FFFF00"] },
      { row: 0, values: [undefined, undefined, undefined], formats: [null, null, null], fills: ["#00FF00", undefined, undefined] },
    ]));
    const v = view(excel);
    expect(v.at).toBe("C3:F7");
    expect(v.values).toEqual([HEADER, ["a", "Ann", 1, "m1"], ["b", "Bobby", 20, "m2"], ["c", "Cy", 3, "m3"], ["Total", "", "", ""]]);
    expect(v.fills.slice(0, 3)).toEqual([["", "", "#00FF00", ""], ["", "#FFFF00", "", ""], ["", "", "", ""]]);
    expect(v.formats[1]).toEqual(["General", "@", "0.00", "General"]);
    expect(v.formats[0]).toEqual(["General", "General", "General", "General"]);
  });

  it("adds rows below the body: the Total Row moves down and stays, added cells take the editable fill and dropdowns", async () => {
    const { excel, sheet, workbook } = placed();
    const progress: string[] = [];
    await workbook.updateTable("T", update([
      { row: 4, values: [5, "e", "Eve"], formats: [null, null, null] },
      { row: 3, values: [4, "d", "Dan"], formats: [null, null, null] },
    ], { onProgress: (done, total) => progress.push(`${done}/${total}`) }));
    const v = view(excel);
    expect(v.at).toBe("C3:F9");
    expect(v.totals).toBe(true);
    expect(v.values).toEqual([HEADER, ["a", "Ann", 1, "m1"], ["b", "Bob", 2, "m2"], ["c", "Cy", 3, "m3"], ["d", "Dan", 4, ""], ["e", "Eve", 5, ""], ["Total", "", "", ""]]);
    expect(v.fills.slice(3, 5).map((l) => l.map((f) => (f === "" ? "" : "fill")))).toEqual([["", "", "fill", ""], ["", "", "fill", ""]]);
    expect(v.fills.slice(0, 3).flat().every((f) => f === "")).toBe(true);
    expect(sheet.validationAt(6, 3)?.list).toEqual({ inCellDropDown: true, source: "Ann,Bob" });
    expect(sheet.validationAt(7, 3)?.list).toEqual({ inCellDropDown: true, source: "Ann,Bob" });
    expect(sheet.validationAt(5, 3)).toBeUndefined();
    expect(sheet.validationAt(6, 2)).toBeUndefined();
    expect(sheet.validationAt(6, 4)).toBeUndefined();
    expect(progress).toEqual(["2/2"]);
  });

  it("adds rows below a table without a Total Row, which gets none", async () => {
    const { excel, workbook } = placed(false);
    await workbook.updateTable("T", update([{ row: 3, values: [4, "d", "Dan"], formats: [null, null, null] }]));
    const v = view(excel);
    expect(v.at).toBe("C3:F7");
    expect(v.totals).toBe(false);
    expect(v.values.slice(4)).toEqual([["d", "Dan", 4, ""]]);
  });

  it("refuses rows to add where cells below the Total Row hold data, and writes nothing", async () => {
    const { excel, sheet, workbook } = placed();
    sheet.ensure(8, 5).value = "note";
    sheet.ensure(7, 6).value = "beside"; // right of the table: not in the way
    const before = view(excel);
    await expect(workbook.updateTable("T", update([
      { row: 0, values: [9, undefined, undefined], formats: [null, null, null] },
      { row: 3, values: [4, "d", "Dan"], formats: [null, null, null] },
      { row: 4, values: [5, "e", "Eve"], formats: [null, null, null] },
    ]))).rejects.toThrow(
      "Refresh would add 2 rows below T, and 'My data'!F9 there holds data. Nothing was written: move those cells (or insert empty rows under the table), then refresh again.",
    );
    expect(view(excel)).toEqual(before);
    // One row added: the note two rows down is not in its way; the cell beside the table never is.
    await workbook.updateTable("T", update([{ row: 3, values: [4, "d", "Dan"], formats: [null, null, null] }]));
    expect(view(excel).values.slice(4)).toEqual([["d", "Dan", 4, ""], ["Total", "", "", ""]]);
  });

  it("is refused, and writes nothing, where a column it names is gone from the table", async () => {
    const { excel, workbook } = placed();
    const before = view(excel);
    await expect(workbook.updateTable("T", update([{ row: 0, values: [9, "a", "Al", "x"], formats: [null, null, null, null] }], { header: ["Amount", "ID", "Name", "Gone"] })))
      .rejects.toThrow('The table T has no column "Gone" any more; nothing was written. Refresh again (its columns come back).');
    expect(view(excel)).toEqual(before);
  });

  it("adds rows over cells below that hold only a format or fill, no value", async () => {
    const { excel, sheet, workbook } = placed();
    sheet.ensure(7, 3).fill = "#ABCDEF";
    sheet.ensure(7, 4).numberFormat = "0.00";
    await workbook.updateTable("T", update([{ row: 3, values: [4, "d", "Dan"], formats: [null, null, null] }]));
    expect(view(excel).values.slice(4)).toEqual([["d", "Dan", 4, ""], ["Total", "", "", ""]]);
  });

  it("reads rows back in the order asked, \"\" for a column the table lacks", async () => {
    const { workbook } = placed();
    expect(await workbook.readRows("T", [2, 0, 2], ["Mine", "Gone", "ID"])).toEqual([["m3", "", "c"], ["m1", "", "a"], ["m3", "", "c"]]);
    expect(await workbook.readRows("T", [], ["ID"])).toEqual([]);
    expect(await workbook.readRows("T", [1], ["Gone"])).toEqual([[""]]);
  });
});
