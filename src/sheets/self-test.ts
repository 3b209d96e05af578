/**
 * "Check this Excel": proves in the user's own Excel what our machines cannot (there is no Excel here).
 * On a temporary very hidden sheet it writes, through the adapter exactly as a load and a sync do, the
 * text Excel could turn into formulas or other values, leading zeros, dates, a full cell, an oversized
 * text and a block of several megabytes; reads everything back; compares every value and format; and
 * deletes the sheet. The same code runs against the in-memory Excel in the tests (test/sheets/self-test).
 * docs/excel-checks.md says what each check proves.
 */
import type { ExcelHost, XContext } from "./excel/api";
import { ExcelWorkbook } from "./excel/adapter";
import { deleteSheet as removeSheet } from "./excel/create-table";
import { CELL_TEXT_LIMIT, fitCell } from "./excel/cells";
import { columnName, locateTable } from "./excel/locate";
import type { CellValue } from "./workbook";
import { WorkbookError } from "./workbook-errors";

interface CheckResult {
  name: string;
  /** What a pass proves about this Excel. */
  proves: string;
  passed: boolean;
  /** The first difference found, or what was checked. */
  detail: string;
}

/** A feature of the =SPEND functions that depends on a requirement set, and whether this Excel reports it. */
export interface FeatureReport {
  name: string;
  /** The requirement set that brings it ("CustomFunctionsRuntime 1.4"). */
  set: string;
  available: boolean;
  /** What the add-in does here with or without it. */
  effect: string;
}

export interface SelfTestReport {
  host: string;
  results: CheckResult[];
  passed: number;
  failed: number;
  /** The function data-type features this Excel reports (empty when it was not asked). */
  features: FeatureReport[];
}

type Requirements = Pick<Office.RequirementSetSupport, "isSetSupported">;

/**
 * What the =SPEND functions can give in this Excel, as it reports its requirement sets (functions/runtime.ts
 * picks the form from the same sets): data types from custom functions need CustomFunctionsRuntime 1.4; a
 * number's format inside a Double value is ExcelApi 1.19 (FormattedNumber before it); formula value preview is
 * CustomFunctionsRuntime 1.5.
 */
export function functionFeatures(requirements: Requirements): FeatureReport[] {
  const has = (name: string, version: string) => requirements.isSetSupported(name, version) === true;
  const dataTypes = has("CustomFunctionsRuntime", "1.4");
  return [
    { name: "Data types from =SPEND functions", set: "CustomFunctionsRuntime 1.4", available: dataTypes,
      effect: dataTypes ? "dates and amounts spill formatted; a record is an entity with a card" : "plain values: dates as serial numbers, a record as a header row and its row" },
    { name: "Number formats inside values", set: "ExcelApi 1.19", available: has("ExcelApi", "1.19"),
      effect: !dataTypes ? "not used (no data types from functions here)" : has("ExcelApi", "1.19") ? "numbers carry their format as Double values" : "numbers carry their format as FormattedNumber values (the form before 1.19)" },
    { name: "Formula value preview", set: "CustomFunctionsRuntime 1.5", available: has("CustomFunctionsRuntime", "1.5"),
      effect: has("CustomFunctionsRuntime", "1.5") ? "a preview answers from the cache, never calling the service" : "Excel asks for no previews" },
  ];
}

/** Text Excel could take for a formula, a number, a date or a boolean if it were written naively. */
const SELF_TEST_TEXT: readonly string[] = [
  "=1+1", '=HYPERLINK("http://example.invalid","click")', "=cmd|' /C calc'!A0", "+1+1", "-1+1", "@SUM(1)", " =1+1", "\t=1+1", "\r=1+1",
  "\uFF1D1+1", "00123", "1E5", "12,345", "50%", "2026-11-01", "11/1/2026", "TRUE", "#N/A", "'quoted", "経費精算",
];

const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };
const HEADER = ["Text (@)", "Amount", "Date", "Timestamp"];
const FORMATS = ["@", "#,##0.00", "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"];

const describe = (value: unknown) => JSON.stringify(value)?.slice(0, 80) ?? String(value);

/** The first cell where `actual` differs from `expected`, and how many more do (how far a fault reaches), or null. */
function firstDifference(actual: unknown[][], expected: unknown[][]): string | null {
  if (actual.length !== expected.length) return `${actual.length} rows read back, ${expected.length} written`;
  let first: string | null = null;
  let more = 0;
  for (let r = 0; r < expected.length; r++) {
    for (let c = 0; c < expected[r].length; c++) {
      if (actual[r][c] === expected[r][c]) continue;
      if (first === null) first = `row ${r + 1}, column ${c + 1}: wrote ${describe(expected[r][c])}, read ${describe(actual[r][c])}`;
      else more++;
    }
  }
  return first === null || more === 0 ? first : `${first} (and ${more.toLocaleString("en-US")} more ${more === 1 ? "cell" : "cells"})`;
}

/**
 * Runs every check on temporary sheets, which are deleted whatever happens; the last check proves the workbook
 * holds exactly the sheets it held before (names and visibilities). `requirements` (Office.context's) lists
 * the function features this Excel reports.
 */
export async function runSelfTest(excel: ExcelHost, host: string, requirements?: Requirements): Promise<SelfTestReport> {
  const workbook = new ExcelWorkbook(excel);
  const id = Math.random().toString(36).slice(2, 8);
  const sheetName = `SpendSync check ${id}`;
  const tableName = `SpendSyncCheck_${id}`;
  const results: CheckResult[] = [];
  const check = async (name: string, proves: string, body: () => Promise<string | null>) => {
    try {
      const difference = await body();
      results.push({ name, proves, passed: difference === null, detail: difference ?? "as written" });
    } catch (error) {
      results.push({ name, proves, passed: false, detail: `${(error as Error).name}: ${(error as Error).message}` });
    }
  };
  // The journal check's table stands on a sheet of its own: tables may not overlap.
  const journalSheet = `${sheetName} J`;
  // A sheet the check fills first, as a person's own sheet of a table's name.
  const takenSheet = `${sheetName} S`;
  const write = (rows: CellValue[][], header = HEADER, formats: (string | null)[] = FORMATS, table = tableName, sheet = sheetName) =>
    workbook.writeTable({
      sheetName: sheet, tableName: table, header, rows, numberFormats: formats, editable: header.map(() => false),
      dropdowns: header.map(() => null), visibility: "VeryHidden",
    });
  const read = async (table = tableName) => {
    const got = await workbook.readTable(table);
    if (!got) throw new WorkbookError("table-gone", "the test table is gone");
    return got;
  };
  const sheetsBefore = await sheetList(excel);
  try {
    const textRows = SELF_TEST_TEXT.map((text): CellValue[] => [text, text, text, text]);
    await check("Text stays text in every column kind", "service text never becomes a formula, a number, a date or a boolean, in text, amount, date and timestamp columns", async () => {
      await write(textRows);
      const got = await read();
      return firstDifference(got.rows, textRows) ?? firstDifference(got.formulas, textRows);
    });

    const typedRows: CellValue[][] = [["0042", -1234.5, 46112, 46112.5], ["007", 0.1, 36526, 36526.25]];
    await check("Numbers, dates and formats as written", "amounts stay signed numbers, dates and timestamps stay date serials, each column keeps its number format", async () => {
      await write(typedRows);
      const got = await read();
      const formats = await readFormats(excel, tableName, typedRows.length);
      return firstDifference(got.rows, typedRows) ?? firstDifference(formats, typedRows.map(() => FORMATS));
    });

    const full = "x".repeat(CELL_TEXT_LIMIT - 1) + "é";
    const over = "y".repeat(CELL_TEXT_LIMIT + 5_000);
    await check("A full cell, and a text too long for one", "32,767 characters are stored whole; a longer text is cut with a visible marker, never refused", async () => {
      const rows: CellValue[][] = [[full, 1, 1, 1], [over, 2, 2, 2]];
      await write(rows);
      const got = await read();
      return firstDifference(got.rows, [[full, 1, 1, 1], [fitCell(over), 2, 2, 2]]);
    });

    await check("Statuses written back by a sync", "the cells a sync writes (server values, statuses, fills) keep their text exactly, in any column", async () => {
      await write(typedRows.concat(SELF_TEST_TEXT.slice(2).map((): CellValue[] => ["", 0, 0, 0])));
      // Each text lands in a cell that held a number: as a sync writes a server's value over the old one.
      await workbook.writeCells(tableName, SELF_TEST_TEXT.map((text, row) => ({ row, column: 1, value: text, fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
      const got = await read();
      return firstDifference(got.rows.map((r) => [r[1]]), SELF_TEST_TEXT.map((text) => [text]));
    });

    // About 13 MB as UTF-8: at least four write requests and four read responses under the 5 MB limit.
    const block: CellValue[][] = Array.from({ length: 3_000 }, (_, i) => [`${i} 出張の経費精算 `.repeat(130), i, 46000 + (i % 365), 46000.5]);
    await check("A block of several megabytes", "large loads are split under Excel's 5 MB request and response limits, and every row arrives in order", async () => {
      await write(block);
      const got = await read();
      return firstDifference(got.rows, block);
    });

    await check("The journal grows by appending", "rows appended below a table land after its last row, as the journal's do", async () => {
      await write([["first", 1, 1, 1]], HEADER, FORMATS, `${tableName}_J`, journalSheet);
      await workbook.appendRows({ sheetName: journalSheet, tableName: `${tableName}_J`, header: HEADER, rows: [["=2+2", -2, 2, 2]], numberFormats: FORMATS });
      const got = await read(`${tableName}_J`);
      return firstDifference(got.rows, [["first", 1, 1, 1], ["=2+2", -2, 2, 2]]);
    });

    await check("An empty cell is blank", "a cell the add-in empties (an Empty value) is blank to Excel: ISBLANK is TRUE and its value type is Empty", async () => {
      await write([["x", 1, 1, 1], ["", "", "", ""]]);
      return emptyDifference(excel, tableName);
    });

    await check("A sheet holding data is never written over", "a load refuses a sheet of its table's name that holds a value anywhere, and takes the same sheet once it is blank", async () => {
      const start = { sheetName: takenSheet, tableName: `${tableName}_S`, header: HEADER, numberFormats: FORMATS, editable: HEADER.map(() => false), dropdowns: HEADER.map(() => null), visibility: "VeryHidden" as const };
      await excel.run(RUN_OPTIONS, async (context: XContext) => {
        const sheet = context.workbook.worksheets.add(takenSheet);
        sheet.visibility = "VeryHidden";
        sheet.getRangeByIndexes(99, 29, 1, 1).values = [["a note"]];
        await context.sync();
      });
      const refused = await workbook.createTable(start).then(() => "a sheet holding AD100 was written over", (error: Error) => (error.message.includes("(AD100)") ? null : error.message));
      if (refused) return refused;
      await excel.run(RUN_OPTIONS, async (context: XContext) => {
        context.workbook.worksheets.getItemOrNullObject(takenSheet).getRangeByIndexes(99, 29, 1, 1).clear();
        await context.sync();
      });
      const stream = await workbook.createTable(start);
      await stream.append([["blank", 1, 1, 1]]);
      await stream.finish();
      return firstDifference((await read(start.tableName)).rows, [["blank", 1, 1, 1]]);
    });
  } finally {
    for (const sheet of [sheetName, journalSheet, takenSheet]) await deleteSheet(excel, sheet).catch(() => undefined);
  }
  await check("The workbook is left as it was", "every temporary sheet is gone, visible or very hidden, and every other sheet kept its name and visibility", async () => {
    const after = await sheetList(excel);
    return after === sheetsBefore ? null : `sheets before: ${sheetsBefore}; after: ${after}`;
  });
  const passed = results.filter((r) => r.passed).length;
  return { host, results, passed, failed: results.length - passed, features: requirements ? functionFeatures(requirements) : [] };
}

/** Every sheet of the workbook with its visibility, in tab order (very hidden ones too). */
async function sheetList(excel: ExcelHost): Promise<string> {
  return excel.run(RUN_OPTIONS, async (context: XContext) => {
    const sheets = context.workbook.worksheets.load("items/name, items/visibility");
    await context.sync();
    return sheets.items.map((sheet) => `${sheet.name} (${sheet.visibility})`).join(", ");
  });
}

/**
 * The second body row of the test table was written as Empty values: each cell's value type must be Empty, and
 * Excel's own ISBLANK of it TRUE (office-js #6248 saw copies with valuesAsJson fill empty cells). The formulas
 * go in the row below the table, on the test sheet, and go with it.
 */
async function emptyDifference(excel: ExcelHost, tableName: string): Promise<string | null> {
  return excel.run(RUN_OPTIONS, async (context: XContext) => {
    const at = await locateTable(context, tableName);
    if (!at) throw new WorkbookError("table-gone", "the test table is gone");
    const row = at.top + 2;
    const empties = at.sheet.getRangeByIndexes(row, at.left, 1, at.columns).load("valueTypes");
    const probes = at.sheet.getRangeByIndexes(row + 2, at.left, 1, at.columns);
    probes.formulas = [Array.from({ length: at.columns }, (_, c) => `=ISBLANK(${columnName(at.left + c)}${row + 1})`)];
    probes.load("values");
    await context.sync();
    const types = empties.valueTypes[0];
    const blank = probes.values[0];
    const c = types.findIndex((type, i) => type !== "Empty" || blank[i] !== true);
    return c < 0 ? null : `column ${c + 1}: value type ${types[c]}, ISBLANK ${String(blank[c])}`;
  });
}

/** The number formats of a table's first body rows. */
async function readFormats(excel: ExcelHost, tableName: string, rows: number): Promise<unknown[][]> {
  return excel.run(RUN_OPTIONS, async (context: XContext) => {
    const at = await locateTable(context, tableName);
    if (!at) throw new WorkbookError("table-gone", "the test table is gone");
    const range = at.sheet.getRangeByIndexes(at.top + 1, at.left, rows, at.columns).load("numberFormat");
    await context.sync();
    return range.numberFormat;
  });
}

async function deleteSheet(excel: ExcelHost, sheetName: string): Promise<void> {
  await excel.run(RUN_OPTIONS, async (context: XContext) => {
    const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
    await context.sync();
    if (!sheet.isNullObject) removeSheet(sheet);
    await context.sync();
  });
}
