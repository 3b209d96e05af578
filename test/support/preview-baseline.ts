/**
 * Preview as it read the workbook before issue 46: each step its own reads on the workbook itself (the table's
 * columns twice, the snapshot twice, the settings twice). Kept callable as the reference the tests compare
 * Preview with and the baseline `npm run bench -- sync` measures in the same run.
 */
import type { Workbook } from "../../src/sheets";
import { previewMarks, previewOf, type SyncPreview } from "../../src/sync";
import { planRows } from "../../src/sync/plan";
import { openSyncTable } from "../../src/sync/sync-table";
import { findTypedValues } from "../../src/sync/typed-values";

/** The preview, and the cells Preview in the sheet writes, as reading each column per ask found them (nothing written). */
export async function previewReadingEachAsk(workbook: Workbook, tableName: string): Promise<{ preview: SyncPreview; marks: ReturnType<typeof previewMarks> }> {
  const table = await openSyncTable(workbook, tableName);
  const plan = planRows(table.resource, table.snapshot.snapshot, table.rows, table.snapshot.readOnly);
  const { typed, where } = await findTypedValues(workbook, table);
  return { preview: previewOf(table, plan, typed), marks: previewMarks(table, plan.rows, typed, where) };
}
