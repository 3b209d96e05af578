/**
 * What the workbook refuses, or no longer holds: the errors src/sheets (and the sync's writes) throw on purpose.
 * They belong to the client's family (SpendSyncError: their messages are redacted too), each message written for
 * the person who reads it in the taskpane; `reason` says which kind it is, for code that decides on it.
 */
import { SpendSyncError } from "../../api";

export type WorkbookReason =
  /** The table (or its snapshot) was deleted or renamed since it was found. */
  | "table-gone"
  /** The table is not as the operation was planned for: its rows, its columns, a record's row. */
  | "table-changed"
  /** A sheet or a name the operation needs holds the person's own data, or another table. */
  | "sheet-taken"
  /** The result would pass what a sheet holds. */
  | "too-many-rows"
  /** The table was not loaded by Spend Sync, or for another enterprise. */
  | "not-ours"
  /** A rule of the add-in's own code was broken: a bug, never the person's doing. */
  | "internal";

export class WorkbookError extends SpendSyncError {
  override readonly name = "WorkbookError" as const;
  constructor(readonly reason: WorkbookReason, message: string) {
    super(message);
  }
}

/** "The table T is gone from the workbook; load it again." (what to do next, or nothing). */
export const tableGone = (tableName: string, next: string | null = "load it again") =>
  new WorkbookError("table-gone", `The table ${tableName} is gone from the workbook${next === null ? "" : `; ${next}`}.`);
