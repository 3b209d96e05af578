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
  return `Loaded ${report.count.toLocaleString()} rows into ${report.tableName} (${report.added} new, ${report.updated} updated, ${report.removed} no longer returned by this query).${malformed}${edits}${discarded}${typedSentence(report)}${wholeSentence(report)}`;
}

/** Values typed over the service's cells of records the service changed: what became of them. */
function typedSentence(report: LoadReport): string {
  const kept = report.typed?.kept.length ?? 0;
  const replaced = report.typed?.replaced ?? 0;
  const parts: string[] = [];
  if (kept) parts.push(` ${kept.toLocaleString()} value${kept === 1 ? "" : "s"} you typed over the service's cells of changed records kept, and marked (${kept === 1 ? "it is" : "they are"} not synced; Preview names ${kept === 1 ? "it" : "them"}).`);
  if (replaced) parts.push(` ${replaced.toLocaleString()} value${replaced === 1 ? "" : "s"} you typed over the service's cells replaced by the service's, as you chose.`);
  return parts.join("");
}

/** A refresh that had to write the whole table says why, and what that means for the user's own columns. */
function wholeSentence(report: LoadReport): string {
  if (!report.refreshed?.whole || report.refreshed.why === "asked to") return "";
  return ` The whole table was written again, as ${report.refreshed.why}; your own columns were written back as values and formulas. From now on Refresh writes only what changed.`;
}

/** Whether the sentence is a warning: something in the sheet needs the user's eye. */
export const loadNeedsAttention = (report: LoadReport): boolean =>
  report.conflicts > 0 || report.malformed > 0 || (report.typed?.kept.length ?? 0) > 0 || Boolean(report.refreshed?.whole && report.refreshed.why !== "asked to");
