/** A fake Excel with the real adapter on top, and the sandbox and a client beside it. */
import { SpendClient } from "../../src/api";
import { loadTable } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { withSandbox, type SandboxFixture } from "./sandbox";
import type { SandboxOptions } from "../../src/sandbox/server";

export interface ExcelFixture extends SandboxFixture {
  excel: FakeExcel;
  workbook: ExcelWorkbook;
  client: SpendClient;
  sub: string;
}

export async function withExcel(options: SandboxOptions = {}): Promise<ExcelFixture> {
  const f = await withSandbox(options);
  const excel = new FakeExcel();
  return {
    ...f,
    excel,
    workbook: new ExcelWorkbook(excel),
    client: new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key }),
    sub: f.enterprise.subsidiaries[0],
  };
}

/** The refresh tests' clock and table: the first subsidiary's approved expenses, loaded once at `REFRESH_NOW`. */
export const REFRESH_NOW = () => new Date("2026-11-24T09:30:00Z");

export async function withApprovedExpenses(): Promise<{ f: ExcelFixture; tableName: string }> {
  const f = await withExcel();
  const params = { resource: "expenses" as const, enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" as const };
  return { f, tableName: (await loadTable(f.client, f.workbook, params, { now: REFRESH_NOW })).tableName };
}

/** A table as a person sees it: header and rows of values, straight from the fake's model. */
export function tableView(excel: FakeExcel, tableName: string) {
  const table = excel.model.table(tableName);
  if (!table) throw new Error(`no table ${tableName}`);
  const { sheet, area } = table;
  const cell = (r: number, c: number) => sheet.cell(area.row + r, area.column + c);
  const header = Array.from({ length: area.columnCount }, (_, c) => String(cell(0, c)?.value ?? ""));
  const rows = Array.from({ length: area.rowCount - 1 }, (_, r) => Array.from({ length: area.columnCount }, (_, c) => cell(r + 1, c)?.value ?? ""));
  const column = (name: string) => {
    const c = header.indexOf(name);
    if (c < 0) throw new Error(`no column ${name} in ${header.join(", ")}`);
    return c;
  };
  return {
    sheet, header, rows, column,
    /** The letter of the column just right of the table. */
    nextColumn: columnLetters(area.column + area.columnCount),
    letter: (name: string) => columnLetters(area.column + column(name)),
    values: (name: string) => rows.map((r) => r[column(name)]),
    format: (name: string, row = 0) => cell(row + 1, column(name))?.numberFormat,
    formula: (name: string, row: number) => cell(row + 1, column(name))?.formula,
    fill: (name: string, row = 0) => cell(row + 1, column(name))?.fill,
    address: (name: string, row: number) => `${columnLetters(area.column + column(name))}${area.row + row + 2}`,
  };
}
