/** The self-test's probe: the temporary sheets and tables of one run, apart so that every check file can take it. */
import type { ExcelHost } from "../api";
import { ExcelWorkbook } from "../adapter";
import type { CellValue, TableRead } from "../../port/workbook";
import { WorkbookError } from "../../port/workbook-errors";

export const HEADER = ["Text (@)", "Amount", "Date", "Timestamp"];
export const FORMATS = ["@", "#,##0.00", "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"];

/** The temporary sheets and tables of one run, and how its checks write and read them through the adapter. */
export class Probe {
  readonly workbook: ExcelWorkbook;
  readonly sheetName: string;
  readonly tableName: string;
  /** The journal check's table stands on a sheet of its own: tables may not overlap. */
  readonly journalSheet: string;
  /** A sheet the check fills first, as a person's own sheet of a table's name. */
  readonly takenSheet: string;

  constructor(readonly excel: ExcelHost) {
    this.workbook = new ExcelWorkbook(excel);
    const id = Math.random().toString(36).slice(2, 8);
    this.sheetName = `SpendSync check ${id}`;
    this.tableName = `SpendSyncCheck_${id}`;
    this.journalSheet = `${this.sheetName} J`;
    this.takenSheet = `${this.sheetName} S`;
  }

  /** Every sheet a run may add, to delete whatever happened. */
  get sheets(): string[] {
    return [this.sheetName, this.journalSheet, this.takenSheet];
  }

  write(rows: CellValue[][], header = HEADER, formats: (string | null)[] = FORMATS, table = this.tableName, sheet = this.sheetName): Promise<void> {
    return this.workbook.writeTable({
      sheetName: sheet, tableName: table, header, rows, numberFormats: formats, editable: header.map(() => false),
      dropdowns: header.map(() => null), visibility: "VeryHidden",
    });
  }

  async read(table = this.tableName): Promise<TableRead> {
    const got = await this.workbook.readTable(table);
    if (!got) throw new WorkbookError("table-gone", "the test table is gone");
    return got;
  }
}
