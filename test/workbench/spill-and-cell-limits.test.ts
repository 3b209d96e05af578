/**
 * Spill and cell limits (issue 42), in the in-memory Excel and in what the =SPEND functions give it:
 * - a text over 32,767 characters: the functions cut it with the tables' marker; the in-memory Excel shows
 *   #VALUE! for a result that holds one, as Excel's own functions do (REPT; strict for a custom function);
 * - a result of more than one cell spilling into a table is #SPILL! "Spill range in table";
 * - RangeFormat.autofitColumns measures the whole column, not the range's rows (office-js #5999), and the
 *   adapter's widths still come out between their floor and the cap.
 */
import { Session, memoryStorage } from "../../src/api";
import * as fns from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { cutMarker, fitCell } from "../../src/sheets/port/cells";
import { WIDTH_CAP } from "../../src/sheets/port/cells";
import { CELL_TEXT_LIMIT, FakeExcel } from "../../src/workbench/fake-excel";
import { shownResult } from "../../src/workbench/fake-excel/function-results";
import { DEFAULT_PROFILE, profileOf, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { autofitWidth } from "../../src/workbench/fake-excel/protocol/range-format";
import { Entries } from "../../src/workbench/entry";
import { evaluate } from "../../src/workbench/formula";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError } from "../support/custom-functions";
import { withExcel, type ExcelFixture } from "../support/excel";

describe("a text longer than a cell holds", () => {
  let f: ExcelFixture;
  const long = "Taxi from the airport, ".repeat(2_000); // 46,000 characters
  beforeAll(async () => {
    f = await withExcel();
    const session = new Session(memoryStorage());
    session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    useSession(session);
    const registry = { EXPENSES: fns.expenses, EXPENSE: fns.expense };
    Object.assign(globalThis, { CustomFunctions: { registry, Error: FunctionError, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } } });
    f.sandbox.store.expensesOf(f.sub)[0].description = long;
  });
  afterAll(async () => {
    await f.sandbox.close();
    useExcelProfile(DEFAULT_PROFILE);
  });

  it("the in-memory Excel: a result holding a text over 32,767 characters is #VALUE! whole, in a cell or an entity; 32,767 is shown", () => {
    const profile = profileOf("m365-current");
    const full = "x".repeat(CELL_TEXT_LIMIT);
    expect(shownResult(profile, [["a", full]]).grid).toEqual([["a", full]]);
    const over = shownResult(profile, [["a", `${full}x`]]);
    expect([over.grid, over.refused]).toEqual([[["#VALUE!"]], `The result holds a text of ${CELL_TEXT_LIMIT + 1} characters; a cell holds at most ${CELL_TEXT_LIMIT}.`]);
    const entity = { type: "Entity", text: "Expense 1", properties: { Description: { type: "String", basicValue: `${full}x` } } };
    expect(shownResult(profile, [[entity]]).grid).toEqual([["#VALUE!"]]);
    expect(shownResult(profile, [[{ type: "String", basicValue: `${full}x` }]]).grid).toEqual([["#VALUE!"]]);
  });

  it.each<ProfileId>(["m365-current", "office-2024"])("%s: a list, a record and a field spill the long description cut to 32,767 characters with the marker", async (id) => {
    useExcelProfile(id);
    const e = f.sandbox.store.expensesOf(f.sub)[0];
    const cut = fitCell(long);
    expect([cut.length, cut.endsWith(cutMarker(long.length))]).toEqual([CELL_TEXT_LIMIT, true]);
    const list = await evaluate(`=SPEND.EXPENSES("${f.sub}")`, () => null);
    expect(list.error).toBeUndefined();
    const at = list.grid[0].indexOf("Description");
    expect(list.grid.find((row) => row[0] === e.id)![at]).toBe(cut);
    const field = await evaluate(`=SPEND.EXPENSE("${f.sub}", "${e.id}", "description")`, () => null);
    expect([field.error, field.grid]).toEqual([undefined, [[cut]]]);
    const record = await evaluate(`=SPEND.EXPENSE("${f.sub}", "${e.id}")`, () => null);
    expect(record.error).toBeUndefined();
    // Plain: a header row and the row; with data types: the entity, whose card shows the cut text.
    if (id === "office-2024") expect(record.grid[1][record.grid[0].indexOf("Description")]).toBe(cut);
    else expect(record.card).toContain(`Description ${cut}`);
  });
});

describe("a formula that spills into a table", () => {
  beforeAll(() => Object.assign(globalThis, {
    CustomFunctions: {
      registry: { GRID: async (rows: number) => Array.from({ length: Number(rows) }, (_, r) => [`r${r}`, r]), ONE: async () => [["one"]] }, Error: FunctionError,
    },
  }));

  /** Sheet1 with a table over B2:C4 (a header and two rows). */
  function withTable(): FakeExcel {
    const excel = new FakeExcel();
    const sheet = excel.model.sheet("Sheet1")!;
    [["Name", "Amount"], ["a", 1], ["b", 2]].forEach((row, r) => row.forEach((v, c) => (sheet.ensure(1 + r, 1 + c).value = v)));
    excel.model.tables.push({ id: "1", name: "Costs", sheet, area: { row: 1, column: 1, rowCount: 3, columnCount: 2 }, showFilterButton: true, showTotals: false, style: "TableStyleMedium2" });
    return excel;
  }

  it("typed in a table's cell, a result of more than one cell is #SPILL! \"Spill range in table\" and writes nothing; a single cell is its value", async () => {
    const excel = withTable();
    const entries = new Entries(excel, () => undefined);
    // A blank body cell of the table, so that nothing but the table is in the way.
    excel.model.tables[0].area.rowCount = 5;
    await entries.calculate("Sheet1", "B5", "=SPEND.GRID(2)");
    expect([excel.user.valueAt("Sheet1", "B5"), excel.user.valueAt("Sheet1", "B6"), excel.user.valueAt("Sheet1", "C5")]).toEqual(["#SPILL!", "", ""]);
    expect(excel.user.spillAt("Sheet1", "B5")).toMatchObject({ inTable: "Costs", area: "B5" });
    expect(entries.messageOf("Sheet1", "B5")?.text).toMatch(/^#SPILL! Spill range in table: the result \(2 × 2\) would spill into the table Costs, and spilled array formulas aren't supported in Excel tables/);
    await entries.calculate("Sheet1", "B6", "=SPEND.ONE()");
    expect(excel.user.spillAt("Sheet1", "B6")).toMatchObject({ inTable: undefined, area: "B6" });
    expect(excel.user.valueAt("Sheet1", "B6")).toBe("one");
  });

  it("outside the table, a result that would run into its empty cells is #SPILL! for the table too; clear of it, it spills", async () => {
    const excel = withTable();
    excel.model.tables[0].area.rowCount = 5;
    const entries = new Entries(excel, () => undefined);
    await entries.calculate("Sheet1", "A5", "=SPEND.GRID(1)");
    expect(excel.user.spillAt("Sheet1", "A5")).toMatchObject({ inTable: "Costs", area: "A5" });
    await entries.calculate("Sheet1", "E2", "=SPEND.GRID(3)");
    expect(excel.user.spillAt("Sheet1", "E2")).toMatchObject({ inTable: undefined, blockedBy: undefined, area: "E2:F4" });
  });
});

describe("autofit measures the whole column", () => {
  it("a one-cell range's autofit is as wide as the longest text anywhere in its column, formatted as shown", async () => {
    const excel = new FakeExcel();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A1:A3").values = [["a note much longer than the cell below it"], ["aa"], [""]];
      sheet.getRange("B9").values = [[1234567.5]];
      sheet.getRange("B9").numberFormat = [["#,##0.00"]];
      sheet.getRange("A2:B2").format.autofitColumns();
      await context.sync();
    });
    const widths = excel.model.sheet("Sheet1")!.columnWidths;
    expect([widths.get(0), widths.get(1)]).toEqual([autofitWidth("a note much longer than the cell below it".length), autofitWidth("1,234,567.50".length)]);
  });

  it("the adapter: a table written on a sheet with a long note in a column comes out no wider than the cap there, its other columns fitted to themselves", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const spec = {
      sheetName: "Sheet1", tableName: "Notes", header: ["Note", "Amount"], rows: [["short", 12.5], ["tiny", 3]], numberFormats: [null, "#,##0.00"],
      editable: [false, false], dropdowns: [null, null], widths: [60, 60],
    };
    await workbook.writeTable(spec);
    const widths = excel.model.sheet("Sheet1")!.columnWidths;
    const alone = [widths.get(0), widths.get(1)];
    expect(alone).toEqual([Math.max(60, autofitWidth("short".length)), Math.max(60, autofitWidth("Amount".length))]);
    // A person's note far below the table, in its first column: Excel's autofit reads it when the table is written again.
    excel.user.type("Sheet1", "A900", "n".repeat(400));
    await workbook.writeTable(spec);
    expect([widths.get(0), widths.get(1)]).toEqual([WIDTH_CAP, alone[1]]);
  });
});
