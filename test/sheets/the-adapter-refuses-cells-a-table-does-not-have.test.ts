/**
 * The adapter's refusals of what a table does not have: a body row or cell past its end (the table changed
 * under a caller, which must read again), rows added with a gap, a table gone, a journal of other columns, a
 * name taken. Each says which table and what to do, and nothing of the refused call is written. An empty
 * call asks Excel for nothing at all, whatever the table.
 */
import { snapshotStart, type TableWrite } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { tableView } from "../support/excel";

const HEADER = ["ID", "A", "B"];
const table = (): TableWrite => ({
  sheetName: "Data", tableName: "T", header: HEADER, rows: [["r1", "a1", 1], ["r2", "a2", 2], ["r3", "a3", 3]],
  numberFormats: ["@", "@", "0"], editable: [false, true, false], dropdowns: [null, null, null],
});

async function setup() {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  await workbook.writeTable(table());
  let runs = 0;
  const run = excel.run.bind(excel);
  excel.run = ((...args: Parameters<typeof excel.run>) => (runs++, run(...args))) as typeof excel.run;
  const view = () => ({ rows: tableView(excel, "T").rows, fills: [0, 1, 2].map((r) => tableView(excel, "T").fill("A", r)) });
  return { excel, workbook, view, runs: () => runs };
}

describe("rows and cells past a table's end", () => {
  it("reading a row the table does not have is refused with its number and the table's count; rows it has are read", async () => {
    const { workbook } = await setup();
    await expect(workbook.readRows("T", [0, 3], ["ID"])).rejects.toThrow("The table T has no body row 4 (it has 3); refresh again.");
    await expect(workbook.readRows("T", [-1], ["ID"])).rejects.toThrow("The table T has no body row 0 (it has 3); refresh again.");
    await expect(workbook.readRows("T", [1.5], ["ID"])).rejects.toThrow("The table T has no body row 2.5 (it has 3); refresh again.");
    expect(await workbook.readRows("T", [2, 0], ["B", "ID"])).toEqual([[3, "r3"], [1, "r1"]]);
    expect(await workbook.readRows("Gone", [0], ["ID"])).toBeNull();
    expect(await workbook.readTable("Gone")).toBeNull();
    expect(await workbook.readColumns("Gone", ["ID"])).toBeNull();
  });

  it("writing a cell the table does not have is refused, and none of the call's cells is written", async () => {
    const { workbook, view } = await setup();
    const before = view();
    const valid = { row: 0, column: 1, value: "changed", fill: "#FFFF00" };
    const refused: [{ row: number; column: number }, string][] = [
      [{ row: 3, column: 0 }, "row 4, column 1"],
      [{ row: -1, column: 0 }, "row 0, column 1"],
      [{ row: 0, column: 3 }, "row 1, column 4"],
      [{ row: 0, column: -1 }, "row 1, column 0"],
    ];
    for (const [cell, where] of refused) {
      await expect(workbook.writeCells("T", [valid, { ...cell, value: "x" }])).rejects.toThrow(
        `The table T has no body cell at ${where} (it has 3 rows, 3 columns); load it again.`,
      );
    }
    expect(view()).toEqual(before);
    await workbook.writeCells("T", [valid, { row: 2, column: 2, value: 30 }]);
    expect(view().rows).toEqual([["r1", "changed", 1], ["r2", "a2", 2], ["r3", "a3", 30]]);
  });

  it("rows added with a gap below the table, or before its first row, are refused and nothing is written; rows that follow it are added", async () => {
    const { workbook, view } = await setup();
    const before = view();
    const patch = (row: number) => ({ row, values: [`n${row}`, "x", row], formats: ["@", "@", "0"] });
    const update = (rows: number[]) => ({ header: HEADER, rows: [patch(0), ...rows.map(patch)], editable: [false, true, false], dropdowns: [null, null, null] });
    for (const rows of [[4], [3, 5], [-1], [0.5]]) {
      await expect(workbook.updateTable("T", update(rows))).rejects.toThrow("Rows added to T must follow its last row (3) with no gap.");
    }
    expect(view()).toEqual(before);
    await workbook.updateTable("T", update([4, 3]));
    expect(view().rows).toEqual([["n0", "x", 0], ["r2", "a2", 2], ["r3", "a3", 3], ["n3", "x", 3], ["n4", "x", 4]]);
  });
});

describe("a table that is gone, or not the one expected", () => {
  it("updating or writing cells of a table that is gone says to load it again", async () => {
    const { workbook } = await setup();
    await expect(workbook.updateTable("Gone", { header: HEADER, rows: [{ row: 0, values: ["x"], formats: [null] }], editable: [false], dropdowns: [null] })).rejects.toThrow(
      "The table Gone is gone from the workbook; load it again.",
    );
    await expect(workbook.writeCells("Gone", [{ row: 0, column: 0, value: "x" }])).rejects.toThrow("The table Gone is gone from the workbook; load it again.");
  });

  it("a journal of other columns is refused with both counts, and the table keeps its rows", async () => {
    const { workbook, view } = await setup();
    const before = view();
    await expect(workbook.appendRows({ sheetName: "Data", tableName: "T", header: ["ID", "A"], rows: [["x", "y"]], numberFormats: ["@", "@"] })).rejects.toThrow(
      "The table T has 3 columns, not 2; rename it to start a new one.",
    );
    expect(view()).toEqual(before);
  });

  it("a new table whose name is taken is refused: refresh it instead; a snapshot's own table is replaced", async () => {
    const { workbook, excel } = await setup();
    await expect(workbook.createTable({ ...table(), sheetName: "Other" })).rejects.toThrow("A table named T already exists in this workbook; refresh it instead.");
    expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1", "Data"]);
    const first = await workbook.createTable(snapshotStart("T"));
    await first.append([["r1", "", "", "", "", "", "", ""]]);
    await first.finish();
    const again = await workbook.createTable(snapshotStart("T"));
    await again.finish();
    expect(excel.model.tables.map((t) => t.name)).toEqual(["T", "Snap_T"]);
  });

  it("a snapshot's sheet that holds other tables is refused with every one of their names, and each stays", async () => {
    const { workbook, excel } = await setup();
    const start = snapshotStart("T");
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add(start.sheetName);
      sheet.getRangeByIndexes(0, 0, 2, 1).values = [["Mine"], ["keep me"]];
      sheet.tables.add(`'${start.sheetName}'!A1:A2`, true).name = "MyNotes";
      sheet.getRangeByIndexes(0, 3, 2, 1).values = [["Also"], ["mine"]];
      sheet.tables.add(`'${start.sheetName}'!D1:D2`, true).name = "MyList";
      await context.sync();
    });
    await expect(workbook.createTable(start)).rejects.toThrow(
      `The sheet '${start.sheetName}' holds the table MyNotes, MyList, so Spend Sync can't use it for Snap_T; rename that sheet and load again.`,
    );
    expect(excel.model.tables.map((t) => t.name)).toEqual(["T", "MyNotes", "MyList"]);
    expect(tableView(excel, "MyList").rows).toEqual([["mine"]]);
  });

  it("a snapshot's own table found on another sheet is replaced by the new one on its own sheet", async () => {
    const { workbook, excel } = await setup();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add("Moved");
      sheet.getRangeByIndexes(0, 0, 2, 1).values = [["Old"], ["stale"]];
      sheet.tables.add("'Moved'!A1:A2", true).name = "Snap_T";
      await context.sync();
    });
    const again = await workbook.createTable(snapshotStart("T"));
    await again.append([["r1", "", "", "", "", "", "", ""]]);
    await again.finish();
    expect(excel.model.tables.map((t) => [t.name, t.sheet.name])).toEqual([["T", "Data"], ["Snap_T", snapshotStart("T").sheetName]]);
    expect(tableView(excel, "Snap_T").rows).toEqual([["r1", "", "", "", "", "", "", ""]]);
    // Excel keeps a deleted table's cells (docs/excel-checks.md, Table.delete): they stay as plain cells.
    expect(excel.model.sheet("Moved")!.usedArea()).toEqual({ row: 0, column: 0, rowCount: 2, columnCount: 1 });
  });

  it("a new table's sheet that exists holding the person's values is not written over: refused with where they are", async () => {
    const { workbook, excel } = await setup();
    await excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add("Mine");
      sheet.getRange("B2:C3").values = [["last month", 120], ["kept", "=C2*2"]];
      await context.sync();
    });
    const before = excel.model.sheet("Mine")!.usedArea();
    await expect(workbook.createTable({ ...table(), sheetName: "Mine", tableName: "U" })).rejects.toThrow(
      "The sheet 'Mine' already holds data (B2:C3), so Spend Sync can't write U there. Nothing was written: rename that sheet or clear it, then load again.",
    );
    expect(excel.model.tables.map((t) => t.name)).toEqual(["T"]);
    expect(excel.model.sheet("Mine")!.usedArea()).toEqual(before);
    expect(excel.model.sheet("Mine")!.cell(1, 1)?.value).toBe("last month");
    expect(excel.model.sheet("Mine")!.cell(2, 2)?.formula).toBe("=C2*2");
  });

  it("calls with nothing to do ask Excel for nothing, even for a table that is gone", async () => {
    const { workbook, runs } = await setup();
    const before = runs();
    await workbook.updateTable("Gone", { header: HEADER, rows: [], editable: [], dropdowns: [] });
    await workbook.writeCells("Gone", []);
    await workbook.appendRows({ sheetName: "Data", tableName: "Gone", header: HEADER, rows: [], numberFormats: [] });
    expect(runs()).toBe(before);
  });
});
