/**
 * Which table the ribbon's Sync states previews: the one the person is looking at, not whatever the taskpane
 * last picked. The sheet on screen's Spend Sync table; where that sheet holds several, the one under the
 * selection; only where the sheet holds none, the table picked in the taskpane. Each choice comes with the
 * sentence that names the table and says why it was that one, shown above the preview.
 */
import type { LookedAt } from "../sheets";

export interface TableChoice {
  table: string;
  /** Which table, and why: shown where the preview opens. */
  note: string;
}

/**
 * The table to preview, from where the person looks (`view`, null where the host could not say), the tables
 * Spend Sync loaded (`loaded`) and the taskpane's pick; null when there is no table to preview at all.
 */
export function chooseTable(view: LookedAt | null, loaded: readonly string[], picked: string): TableChoice | null {
  // Excel's table names are unique in any case; the loaded list's spelling is the one the taskpane shows.
  const ours = (names: readonly string[]) => names.flatMap((n) => loaded.find((l) => l.toLowerCase() === n.toLowerCase()) ?? []);
  const pick = loaded.includes(picked) ? picked : "";
  if (view) {
    const sheet = `the sheet '${view.sheetName}'`;
    const onSheet = ours(view.sheetTables);
    if (onSheet.length === 1) return { table: onSheet[0], note: `Previewing ${onSheet[0]}, the table on ${sheet}.` };
    if (onSheet.length > 1) {
      const under = ours(view.selectedTables ?? []).filter((n) => onSheet.includes(n));
      if (under.length > 0) return { table: under[0], note: `Previewing ${under[0]}, the table at your selection on ${sheet}.` };
      const table = onSheet.includes(pick) ? pick : onSheet[0];
      return {
        table,
        note: `Previewing ${table}: ${sheet} holds ${onSheet.length} Spend Sync tables and your selection is in none of them, so ${table === pick ? "the one picked in the taskpane" : "the first"}. Select a cell of the one you mean and press Sync states again.`,
      };
    }
  }
  if (!pick) return null;
  const why = view ? `the sheet '${view.sheetName}' holds no Spend Sync table` : "Excel did not say which sheet is on screen";
  return { table: pick, note: `Previewing ${pick}, the table picked in the taskpane: ${why}.` };
}
