/**
 * Refresh All: every table Spend Sync loaded into the workbook, one after another, each as Refresh does it
 * (only what changed). A table that fails says why and does not stop the others; a table the user deleted is
 * reported, not loaded again (loading a query anew is the Load button's job).
 */
import type { SpendClient } from "../../api";
import { refreshTable } from "../load/load";
import { type LoadOptions, type LoadProgress, type LoadReport } from "../load/context";
import { listLoadedTables } from "../stored-tables";
import type { Workbook } from "../port/workbook";

export type TableOutcome =
  | { tableName: string; kind: "refreshed"; report: LoadReport }
  | { tableName: string; kind: "failed"; error: unknown }
  | { tableName: string; kind: "gone" };

export interface RefreshAllOptions extends Omit<LoadOptions, "onProgress"> {
  /** A table starts (its place among `total`). */
  onTable?: (tableName: string, index: number, total: number) => void;
  onProgress?: (tableName: string, progress: LoadProgress) => void;
  /** A table is done, refreshed or not. */
  onOutcome?: (outcome: TableOutcome) => void;
}

export async function refreshAll(client: SpendClient, workbook: Workbook, options: RefreshAllOptions = {}): Promise<TableOutcome[]> {
  const { onTable, onProgress, onOutcome, ...load } = options;
  const names = await listLoadedTables(workbook);
  const outcomes: TableOutcome[] = [];
  for (const [index, tableName] of names.entries()) {
    if (load.signal?.aborted) break;
    onTable?.(tableName, index, names.length);
    let outcome: TableOutcome;
    try {
      // readColumns with no column: whether the table is still there, without reading its cells.
      if (!(await workbook.readColumns(tableName, []))) outcome = { tableName, kind: "gone" };
      else outcome = { tableName, kind: "refreshed", report: await refreshTable(client, workbook, tableName, { ...load, onProgress: (p) => onProgress?.(tableName, p) }) };
    } catch (error) {
      outcome = { tableName, kind: "failed", error };
    }
    outcomes.push(outcome);
    onOutcome?.(outcome);
  }
  return outcomes;
}
