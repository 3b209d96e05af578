/**
 * The checks of "Check this Excel" (self-test.ts), each a named write and read-back on the run's temporary
 * very hidden sheets, through the adapter exactly as a load and a sync write. Each answers null when Excel
 * held what was written, else the first difference. docs/excel-checks.md says what each check proves.
 */
import type { ExcelHost, XContext } from "../api";
import { CELL_TEXT_LIMIT, fitCell } from "../../port/cells";
import { columnName, locateTable } from "../locate";
import { RUN_OPTIONS } from "../runs";
import type { CellValue } from "../../port/workbook";
import { WorkbookError } from "../../port/workbook-errors";
import { deletedRowsUnmark, ownWriteMarked, sortUnmarks, type EventOutcome } from "./change-event-checks";
import { FORMATS, HEADER, Probe } from "./probe";

/** Text Excel could take for a formula, a number, a date or a boolean if it were written naively. */
const SELF_TEST_TEXT: readonly string[] = [
  "=1+1", '=HYPERLINK("http://example.invalid","click")', "=cmd|' /C calc'!A0", "+1+1", "-1+1", "@SUM(1)", " =1+1", "\t=1+1", "\r=1+1",
  "\uFF1D1+1", "00123", "1E5", "12,345", "50%", "2026-11-01", "11/1/2026", "TRUE", "#N/A", "'quoted", "経費精算",
];

/** Numbers, dates and timestamps, and text that looks like a number (fresh rows for each write). */
const typedRows = (): CellValue[][] => [["0042", -1234.5, 46112, 46112.5], ["007", 0.1, 36526, 36526.25]];


/** One check: its name and what a pass proves, as the report shows them, and how it is made. */
interface Check {
  name: string;
  proves: string;
  /** Null or a note: a pass (the note says what was measured); a text: the failure's difference. */
  run: (probe: Probe) => Promise<EventOutcome>;
}

/** Every check, in the order they run and are reported. */
export const CHECKS: readonly Check[] = [
  { name: "Text stays text in every column kind", proves: "service text never becomes a formula, a number, a date or a boolean, in text, amount, date and timestamp columns", run: textStaysText },
  { name: "Numbers, dates and formats as written", proves: "amounts stay signed numbers, dates and timestamps stay date serials, each column keeps its number format", run: numbersAndFormats },
  { name: "A full cell, and a text too long for one", proves: "32,767 characters are stored whole; a longer text is cut with a visible marker, never refused", run: fullAndOverlongCells },
  { name: "Statuses written back by a sync", proves: "the cells a sync writes (server values, statuses, fills) keep their text exactly, in any column", run: statusesWrittenBack },
  { name: "A block of several megabytes", proves: "large loads are split under Excel's 5 MB request and response limits, and every row arrives in order", run: severalMegabytes },
  { name: "The journal grows by appending", proves: "rows appended below a table land after its last row, as the journal's do", run: journalAppends },
  { name: "An empty cell is blank", proves: "a cell the add-in empties (an Empty value) is blank to Excel: ISBLANK is TRUE and its value type is Empty", run: emptyIsBlank },
  { name: "A sheet holding data is never written over", proves: "a load refuses a sheet of its table's name that holds a value anywhere, and takes the same sheet once it is blank", run: takenSheetRefused },
  { name: "Excel tells of a write in a table", proves: "the add-in's own write of a cell raises Table.onChanged (RangeEdited, that cell) before Preview's next request, and the edit marks hold its row", run: ownWriteMarked },
  { name: "Excel tells of rows deleted from a table", proves: "rows leaving a table raise an event that makes the edit marks incomplete, so Preview reads every row again", run: deletedRowsUnmark },
  { name: "Excel tells of a sort of a table", proves: "a sort of a table's rows makes the edit marks incomplete (Worksheet.onRowSorted), so Preview reads every row again; the pass says whether Excel also raised Table.onChanged", run: sortUnmarks },
];

async function textStaysText(probe: Probe): Promise<string | null> {
  const textRows = SELF_TEST_TEXT.map((text): CellValue[] => [text, text, text, text]);
  await probe.write(textRows);
  const got = await probe.read();
  return firstDifference(got.rows, textRows) ?? firstDifference(got.formulas, textRows);
}

async function numbersAndFormats(probe: Probe): Promise<string | null> {
  const rows = typedRows();
  await probe.write(rows);
  const got = await probe.read();
  const formats = await readFormats(probe.excel, probe.tableName, rows.length);
  return firstDifference(got.rows, rows) ?? firstDifference(formats, rows.map(() => FORMATS));
}

async function fullAndOverlongCells(probe: Probe): Promise<string | null> {
  const full = "x".repeat(CELL_TEXT_LIMIT - 1) + "é";
  const over = "y".repeat(CELL_TEXT_LIMIT + 5_000);
  const rows: CellValue[][] = [[full, 1, 1, 1], [over, 2, 2, 2]];
  await probe.write(rows);
  const got = await probe.read();
  return firstDifference(got.rows, [[full, 1, 1, 1], [fitCell(over), 2, 2, 2]]);
}

async function statusesWrittenBack(probe: Probe): Promise<string | null> {
  await probe.write(typedRows().concat(SELF_TEST_TEXT.slice(2).map((): CellValue[] => ["", 0, 0, 0])));
  // Each text lands in a cell that held a number: as a sync writes a server's value over the old one.
  await probe.workbook.writeCells(probe.tableName, SELF_TEST_TEXT.map((text, row) => ({ row, column: 1, value: text, fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
  const got = await probe.read();
  return firstDifference(got.rows.map((r) => [r[1]]), SELF_TEST_TEXT.map((text) => [text]));
}

async function severalMegabytes(probe: Probe): Promise<string | null> {
  // About 13 MB as UTF-8: at least four write requests and four read responses under the 5 MB limit.
  const block: CellValue[][] = Array.from({ length: 3_000 }, (_, i) => [`${i} 出張の経費精算 `.repeat(130), i, 46000 + (i % 365), 46000.5]);
  await probe.write(block);
  const got = await probe.read();
  return firstDifference(got.rows, block);
}

async function journalAppends(probe: Probe): Promise<string | null> {
  const journal = `${probe.tableName}_J`;
  await probe.write([["first", 1, 1, 1]], HEADER, FORMATS, journal, probe.journalSheet);
  await probe.workbook.appendRows({ sheetName: probe.journalSheet, tableName: journal, header: HEADER, rows: [["=2+2", -2, 2, 2]], numberFormats: FORMATS });
  const got = await probe.read(journal);
  return firstDifference(got.rows, [["first", 1, 1, 1], ["=2+2", -2, 2, 2]]);
}

async function emptyIsBlank(probe: Probe): Promise<string | null> {
  await probe.write([["x", 1, 1, 1], ["", "", "", ""]]);
  return emptyDifference(probe.excel, probe.tableName);
}

/** A load refuses the taken sheet while it holds a note in AD100, and takes it once the note is cleared. */
async function takenSheetRefused(probe: Probe): Promise<string | null> {
  const { excel, takenSheet } = probe;
  const start = { sheetName: takenSheet, tableName: `${probe.tableName}_S`, header: HEADER, numberFormats: FORMATS, editable: HEADER.map(() => false), dropdowns: HEADER.map(() => null), visibility: "VeryHidden" as const };
  await excel.run(RUN_OPTIONS, async (context: XContext) => {
    const sheet = context.workbook.worksheets.add(takenSheet);
    sheet.visibility = "VeryHidden";
    sheet.getRangeByIndexes(99, 29, 1, 1).values = [["a note"]];
    await context.sync();
  });
  const refused = await probe.workbook.createTable(start).then(() => "a sheet holding AD100 was written over", (error: Error) => (error.message.includes("(AD100)") ? null : error.message));
  if (refused) return refused;
  await excel.run(RUN_OPTIONS, async (context: XContext) => {
    context.workbook.worksheets.getItemOrNullObject(takenSheet).getRangeByIndexes(99, 29, 1, 1).clear();
    await context.sync();
  });
  const stream = await probe.workbook.createTable(start);
  await stream.append([["blank", 1, 1, 1]]);
  await stream.finish();
  return firstDifference((await probe.read(start.tableName)).rows, [["blank", 1, 1, 1]]);
}

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
