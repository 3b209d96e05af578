/** The journal sheet: one line per attempt and per row decided without a request. Never the key. */
import { NUMBER_FORMATS, toCell, type CellValue, type Workbook } from "../sheets";
import type { TrackedResource } from "../domain";
import type { JournalEntry } from "./outcome";

export const JOURNAL_TABLE = "SpendSyncJournal";
export const JOURNAL_SHEET = "Spend Sync journal";
export const JOURNAL_HEADER = ["Time (UTC)", "Table", "Resource", "Record ID", "From", "To", "Fields sent", "HTTP status", "Outcome", "Message"];
const FORMATS = [NUMBER_FORMATS.timestamp, "@", "@", "@", "@", "@", "@", NUMBER_FORMATS.integer, "@", "@"];

export function journalRows(tableName: string, resource: TrackedResource, entries: JournalEntry[]): CellValue[][] {
  return entries.map((e) => [
    toCell("timestamp", e.at.toISOString()), tableName, resource, e.id, e.from, e.to, e.sent, e.httpStatus ?? "", e.outcome, e.message,
  ]);
}

export async function appendJournal(workbook: Workbook, rows: CellValue[][]): Promise<void> {
  if (rows.length === 0) return;
  await workbook.appendRows({ sheetName: JOURNAL_SHEET, tableName: JOURNAL_TABLE, header: JOURNAL_HEADER, rows, numberFormats: FORMATS });
}
