/**
 * A Refresh of only what changed, written into its table: the patches' cells where the table has their columns
 * now, new rows below the last one (room made for them), in blocks within the request budget (patch.ts).
 */
import type { XContext } from "./api";
import { OPERATION_BYTES, REQUEST_BUDGET_BYTES } from "./budget";
import { locateTable } from "./locate";
import { blocksOf, checkRoomBelow, columnsOf, growOver, makeWay, writeBlocks } from "./patch";
import { EDITABLE_FILL } from "../port/marks";
import type { TableUpdate } from "../port/workbook";
import { tableGone, WorkbookError } from "../port/workbook-errors";

/** Writes an update's patches into the table; refused, with nothing written, when a column or the room below is gone. */
export async function updateTable(context: XContext, tableName: string, update: TableUpdate): Promise<void> {
  const at = await locateTable(context, tableName);
  if (!at) throw tableGone(tableName);
  const { columns, missing } = columnsOf(at, update.header);
  if (missing !== null) throw new WorkbookError("table-changed", `The table ${tableName} has no column "${missing}" any more; nothing was written. Refresh again (its columns come back).`);
  const added = update.rows.filter((patch) => patch.row >= at.bodyRows).map((patch) => patch.row).sort((a, b) => a - b);
  if (added.some((row, i) => row !== at.bodyRows + i) || update.rows.some((patch) => patch.row < 0 || !Number.isInteger(patch.row))) {
    throw new WorkbookError("internal", `Rows added to ${tableName} must follow its last row (${at.bodyRows}) with no gap.`);
  }
  await checkRoomBelow(context, at, tableName, added.length);
  const budget = { requestBytes: REQUEST_BUDGET_BYTES, operationBytes: OPERATION_BYTES };
  const blocks = blocksOf(update.rows, columns, budget);
  // Rows as blocks count them (a row of several column runs counts once a run), shown as rows of the update.
  const blockRows = blocks.reduce((sum, block) => sum + block.values.length, 0);
  await writeBlocks(context, at, blocks, budget, {
    firstRequest: () => makeWay(at, added.length),
    lastRequest: () => {
      growOver(at, update, columns, added.length, EDITABLE_FILL);
      context.application.calculate("Recalculate");
    },
    onRows: (rows) => update.onProgress?.(Math.round((rows / Math.max(1, blockRows)) * update.rows.length), update.rows.length),
  });
}
