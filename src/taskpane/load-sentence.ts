/** The taskpane's sentence about a load or a refresh just written (the rows themselves are in the sheet). */
import type { LoadReport } from "../sheets";

export function loadSentence(report: LoadReport): string {
  const edits = report.keptEdits + report.conflicts
    ? ` Your unsynced edits: ${report.keptEdits} kept, ${report.conflicts} also changed on the server (flagged in Sync status).`
    : "";
  const discarded = report.discardedEdits ? ` ${report.discardedEdits} unsynced edits discarded.` : "";
  const malformed = report.malformed === 1
    ? " 1 record did not match the API: it is loaded read-only, and its Sync status says which field is wrong."
    : report.malformed > 1
      ? ` ${report.malformed.toLocaleString()} records did not match the API: they are loaded read-only, and their Sync status says which field is wrong.`
      : "";
  return `Loaded ${report.count.toLocaleString()} rows into ${report.tableName} (${report.added} new, ${report.updated} updated, ${report.removed} no longer returned by this query).${malformed}${edits}${discarded}`;
}

/** Whether the sentence is a warning: something in the sheet needs the user's eye. */
export const loadNeedsAttention = (report: LoadReport): boolean => report.conflicts > 0 || report.malformed > 0;
