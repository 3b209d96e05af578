/**
 * An import into a loaded table: its records read, the file's lines matched to them (domain/import), and the
 * unique matches written as edits with their source. The file is read whole before this runs, so a bad file
 * changes nothing; nothing is sent: Preview and Confirm do that.
 */
import { matchLines, type ImportKind, type MatchReport, type MatchWindow, type ReadLines } from "../../domain/import";
import { writeImportFills } from "./fill";
import { currencyDecimals, readImportTable } from "./table";
import type { Workbook } from "../port/workbook";

/**
 * Payments may come 30 days before a record's first day (allowances paid ahead) and 60 after its last.
 * @internal import tests and bench/import.ts match with the window the taskpane uses.
 */
export const DEFAULT_WINDOW: MatchWindow = { before: 30, after: 60 };

export interface ImportOptions {
  kind: ImportKind;
  /** "bank file", "ERP file": how each value's source is named ("bank file line 17"). */
  fileName: string;
  window?: MatchWindow;
}

export interface ImportResult {
  report: MatchReport;
  /** Rows whose cells were filled. */
  filledRows: number;
}

/** Matches the lines to the table's records and fills the unique matches; the report says what each line did and why. */
export async function importLines(workbook: Workbook, tableName: string, read: ReadLines, options: ImportOptions): Promise<ImportResult> {
  const table = await readImportTable(workbook, tableName);
  const report = matchLines(table.records, read, {
    kind: options.kind, records: table.resource, fileName: options.fileName, window: options.window ?? DEFAULT_WINDOW, decimals: currencyDecimals,
  });
  return { report, filledRows: await writeImportFills(workbook, table, report.fills) };
}
