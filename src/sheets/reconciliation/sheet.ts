/**
 * Keeps the reconciliation summary of a movements table up to date: after every load or refresh of the
 * table, its cells are read back and the summary table is written again.
 *
 * The summary lives on a sheet of its own ("Summary …", named like the movements sheet), not beside the
 * table: the movements table grows to the right with the user's own columns and downwards with new
 * records, so anything placed next to it could be run into by a refresh.
 */
import { NUMBER_FORMATS, type ColumnKind } from "../columns";
import { STATUS_KEY } from "../resources/tracking";
import { REMOVED_NOTE_PREFIX } from "../load/context";
import { readStoredTable } from "../stored-tables";
import { Query, sheetNameOf, type LoadParams } from "../load/params";
import { rowFormatter } from "../money-formats";
import { SUMMARY_HEADER, movementsOfCells, summarizeMovements, summaryRows, type SummaryLine } from "./reconciliation";
import type { Workbook } from "../port/workbook";

export interface SummaryReport {
  sheetName: string;
  tableName: string;
  lines: SummaryLine[];
  /** Rows of the movements table left out: the query no longer returns them. */
  leftOut: number;
}

/**
 * The summary's columns as the formatter reads them: each line's amount in its own currency's decimals (a
 * period with movements in two currencies has lines, and totals, for each), widened where a total has more
 * decimals than its currency (a movement of 10.005 USD), so that the lines add up to what the table shows.
 */
const SUMMARY_COLUMNS: { key: string; header: string; kind: ColumnKind; currencyKey?: string }[] = [
  { key: "type", header: SUMMARY_HEADER[0], kind: "text" },
  { key: "reconciled", header: SUMMARY_HEADER[1], kind: "text" },
  { key: "currency", header: SUMMARY_HEADER[2], kind: "text" },
  { key: "count", header: SUMMARY_HEADER[3], kind: "integer" },
  { key: "amount", header: SUMMARY_HEADER[4], kind: "amount", currencyKey: "currency" },
];

/**
 * Where the summary of a movements query goes: its own sheet (under Excel's 31 characters) and table.
 * @internal summary tests find the summary's sheet and table by it.
 */
export function summaryPlace(params: Extract<LoadParams, { resource: "movements" }> | Query, movementsTable: string): { sheetName: string; tableName: string } {
  // sheetNameOf is unique per query and, for movements, starts with "Movements "; "Summary " is shorter, so it still fits.
  return { sheetName: `Summary ${sheetNameOf(params).slice("Movements ".length)}`, tableName: `${movementsTable}_Summary` };
}

/** A table's query: the one given (the load that made it just parsed it), else its stored settings' (parsed once). */
async function queryOf(workbook: Workbook, tableName: string, given?: Query): Promise<Query | null> {
  if (given) return given;
  const stored = await readStoredTable(workbook, tableName);
  return stored ? Query.ofParsed(stored.params) : null;
}

/**
 * Writes (or rewrites) the summary of a movements table loaded by Spend Sync; returns null, writing
 * nothing, for any other table. After a load, its query is given (sheets/load/load.ts, loadedQuery): what the table holds
 * is known, not read back from the workbook.
 */
export async function writeReconciliationSummary(workbook: Workbook, tableName: string, loaded?: Query): Promise<SummaryReport | null> {
  const query = await queryOf(workbook, tableName, loaded);
  const params = query?.summary;
  if (!query || !params) return null;
  const { columns } = query.source;
  const headerOf = (key: string) => columns.find((c) => c.key === key)?.header ?? "";
  const wanted = ["type", "amount", "currency", "is_deposit", "reconciled", STATUS_KEY].map(headerOf).filter(Boolean);
  const read = await workbook.readColumns(tableName, wanted);
  if (!read) return null;
  const column = (key: string) => read.columns.get(headerOf(key)) ?? [];
  const status = column(STATUS_KEY);
  const { movements, leftOut } = movementsOfCells({
    rowCount: read.rowCount,
    type: column("type"), amount: column("amount"), currency: column("currency"), deposit: column("is_deposit"),
    reconciled: read.columns.get(headerOf("reconciled")),
    reconciledByQuery: params.reconciled,
    leftOut: (row) => String(status[row] ?? "").startsWith(REMOVED_NOTE_PREFIX),
  });
  const lines = summarizeMovements(movements);
  const place = summaryPlace(query, tableName);
  await workbook.writeTable({
    ...place,
    header: SUMMARY_HEADER,
    rows: summaryRows(lines),
    numberFormats: SUMMARY_COLUMNS.map((c) => NUMBER_FORMATS[c.kind]),
    formatsOf: rowFormatter(SUMMARY_COLUMNS),
    editable: SUMMARY_HEADER.map(() => false),
    dropdowns: SUMMARY_HEADER.map(() => null),
    widths: [110, 110, 70, 90, 240],
  });
  return { ...place, lines, leftOut };
}
