/**
 * Edit marks (issue 46): which body rows of a table changed since a moment, recorded from Excel's change events
 * as they happen, so that Preview reads those rows instead of every row. A missed edit would lose a person's
 * work silently, so the marks say so whenever they cannot be trusted (null): then Preview reads every row.
 */

/** A table's marks from one moment on (`EditMarks.watch`). */
export interface MarksWatch {
  /**
   * The body rows (0-based) whose cells changed since the watch began, by anyone (a person's edits and the
   * add-in's own writes alike: Excel tells them apart by nothing); null once anything happened that the marks
   * cannot place (rows inserted, deleted or sorted, the header or the snapshot changed, an event not understood).
   */
  changedRows(): number[] | null;
  /**
   * Asks Excel, in one request, whether the table is still where and what the marks place (same table, same
   * body rows, same snapshot) and which body rows hold a formula (a formula's value changes with no change event):
   * null when the marks cannot be used.
   */
  check(): Promise<{ changedRows: number[]; formulaRows: number[] } | null>;
}

export interface EditMarks {
  /**
   * Starts marking a table's changes from now on (an earlier watch of it starts over), before the caller reads
   * it whole; any change to `snapshotName`'s table (the values last loaded, which Preview compares with) ends the
   * marks' use. Null where Excel cannot tell of changes (its ExcelApi is below 1.10, the table is gone, the
   * registration failed).
   */
  watch(tableName: string, snapshotName: string): Promise<MarksWatch | null>;
}
