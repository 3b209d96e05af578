/**
 * Refresh merges by id: rows are updated in place, the user's own columns stay on their record's row,
 * records gone from the server are marked (never silently deleted), new records are appended, and cells the
 * caller names (unsynced edits) replace the server's. Pure.
 */
import type { CellValue, TableRead } from "../port/workbook";
import { WorkbookError } from "../port/workbook-errors";

export interface MergeInput {
  /** The layout's headers; the first is the id column. */
  layout: string[];
  /** The layout's status column (where a record gone from the server is said so): its header. */
  statusHeader: string;
  /** Headers the add-in wrote last time (so a column it no longer shows is not taken for the user's). */
  previousLayout: string[];
  existing: TableRead | null;
  /** Rendered rows in layout order, by id, in the server's order. */
  incoming: Map<string, CellValue[]>;
  /** Status text for a record the server no longer has. */
  removedNote: string;
  /** Cells that replace the server's in a refreshed row, by id then header (unsynced edits kept by Refresh). */
  overrides?: Map<string, Record<string, CellValue>>;
}

export interface MergeResult {
  header: string[];
  rows: CellValue[][];
  /** The user's formulas in their own columns, aligned with `rows` (null where a cell holds a value). */
  formulas: (string | null)[][];
  added: number;
  updated: number;
  /** Ids of records marked as gone from the server. */
  removed: string[];
  userColumns: string[];
}

export function mergeRows(input: MergeInput): MergeResult {
  const { layout, incoming } = input;
  const existing = input.existing;
  const layoutHeaders = new Set([...layout, ...input.previousLayout]);
  const statusAt = layout.indexOf(input.statusHeader);
  if (statusAt < 0) throw new WorkbookError("internal", `The layout has no column "${input.statusHeader}".`);
  const userColumns = existing ? existing.header.filter((h) => h && !layoutHeaders.has(h)) : [];
  const header = [...layout, ...userColumns];
  const rows: CellValue[][] = [];
  const formulas: (string | null)[][] = [];
  const seen = new Set<string>();
  const removed: string[] = [];
  let updated = 0;

  if (existing) {
    const at = new Map(existing.header.map((h, i) => [h, i]));
    const idAt = at.get(layout[0]);
    const pick = (row: CellValue[], name: string): CellValue => {
      const i = at.get(name);
      return i === undefined ? "" : (row[i] ?? "");
    };
    existing.rows.forEach((row, index) => {
      // The user's columns keep their formulas, so they keep working. A cell holds a formula when its formula
      // differs from its value: text the user typed as '=1+1 reads "=1+1" both ways and stays text.
      const user = userColumns.map((name) => pick(row, name));
      const formulaOf = (name: string): string | null => {
        const formula = pick(existing.formulas[index] ?? row, name);
        return typeof formula === "string" && formula.startsWith("=") && formula !== pick(row, name) ? formula : null;
      };
      const line: (string | null)[] = [...layout.map(() => null), ...userColumns.map(formulaOf)];
      formulas.push(line);
      const id = idAt === undefined ? "" : String(row[idAt] ?? "").trim();
      const fresh = id ? incoming.get(id) : undefined;
      if (fresh && !seen.has(id)) {
        seen.add(id);
        updated++;
        const kept = input.overrides?.get(id) ?? {};
        rows.push([...fresh.map((cell, i) => (layout[i] in kept ? kept[layout[i]] : cell)), ...user]);
        // A kept edit made by a formula stays that formula (issue 47), not the value it had.
        layout.forEach((name, i) => (line[i] = name in kept ? formulaOf(name) : null));
        return;
      }
      const old = layout.map((name) => pick(row, name));
      if (!id && old.every((v) => v === "") && user.every((v) => v === "")) {
        formulas.pop();
        return; // an empty row
      }
      if (id && !fresh) {
        removed.push(id);
        old[statusAt] = input.removedNote;
      } else if (id && seen.has(id)) {
        old[statusAt] = "Duplicate row of this record: not refreshed.";
      }
      // A row left as it was keeps its formulas too (its status aside).
      layout.forEach((name, i) => (line[i] = i === statusAt ? null : formulaOf(name)));
      rows.push([...old, ...user]);
    });
  }
  let added = 0;
  for (const [id, fresh] of incoming) {
    if (seen.has(id)) continue;
    added++;
    rows.push([...fresh, ...userColumns.map(() => "" as CellValue)]);
    formulas.push(header.map(() => null));
  }
  return { header, rows, formulas, added, updated, removed, userColumns };
}
