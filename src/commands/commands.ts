/**
 * The ribbon's ExecuteFunction buttons. Thin: Refresh data opens the taskpane and runs its Refresh All there
 * (every Spend Sync table refreshed, a line each, then the formulas' cache cleared and this workbook's
 * =SPEND formulas recalculated, and nothing else, so each asks the service once more), its summary brought into view; Sync states
 * opens the taskpane on the preview of the table the person is looking at (the sheet on screen's, the one under the
 * selection; the taskpane's pick only where that sheet holds none, said so), scrolled into view and focused. The same
 * engine the taskpane's own button runs; nothing is sent unconfirmed.
 * when-ready.ts wraps them for Office.actions.associate (wait for set-up, always complete the event).
 */

/**
 * Refresh data. The taskpane is where the tables' lines show; where Excel will not show it (an add-in
 * from AppSource, whose showAsTaskpane Excel ignores), the refresh runs all the same.
 */
export async function refreshData(showTaskpane: () => Promise<void>, refreshAll: () => Promise<void>): Promise<void> {
  await showTaskpane().catch(() => undefined);
  await refreshAll();
}

export async function syncStates(showTaskpane: () => Promise<void>, preview: () => Promise<void>): Promise<void> {
  await showTaskpane();
  await preview();
}
