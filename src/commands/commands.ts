/**
 * The ribbon's ExecuteFunction buttons. Thin: Refresh data clears the shared governor's cache and asks Excel
 * to recalculate (so every =SPEND formula asks the service once more); Sync states opens the taskpane on the
 * preview of the chosen table (the same engine the taskpane's own button runs; nothing is sent unconfirmed).
 * when-ready.ts wraps them for Office.actions.associate (wait for set-up, always complete the event).
 */
import type { Session } from "../api";

export async function refreshData(session: Session, recalculate: () => Promise<void>): Promise<void> {
  session.governor.clear();
  await recalculate();
}

export async function syncStates(showTaskpane: () => Promise<void>, preview: () => Promise<void>): Promise<void> {
  await showTaskpane();
  await preview();
}
