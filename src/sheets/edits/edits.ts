/** Which rows of a loaded table hold edits of the tracked fields that are not synced yet. */
import { TRACKED_KEYS, type TrackedKey } from "../resources/tracking";
import type { Snapshot } from "./snapshot";
import { canonical } from "./tracked-values";
import type { TableRead } from "../port/workbook";

interface FieldEdit {
  key: TrackedKey;
  from: string;
  to: string;
}

export interface RowEdit {
  id: string;
  /** 0-based index into the table body as the sheet shows it now. */
  row: number;
  fields: FieldEdit[];
}

/** The headers of the id and tracked columns. */
export type EditHeaders = { id: string } & Record<TrackedKey, string>;

/**
 * Column positions by header text.
 * @internal an-edit-is-a-tracked-cell test checks header lookup directly.
 */
export function columnIndex(header: string[]): Map<string, number> {
  return new Map(header.map((h, i) => [h, i]));
}

export function findEdits(table: Pick<TableRead, "header" | "rows">, headers: EditHeaders, snapshot: Snapshot): RowEdit[] {
  const at = columnIndex(table.header);
  const idAt = at.get(headers.id);
  if (idAt === undefined) return [];
  const edits: RowEdit[] = [];
  table.rows.forEach((row, index) => {
    const id = String(row[idAt] ?? "").trim();
    const loaded = snapshot.get(id);
    if (!loaded) return;
    const fields: FieldEdit[] = [];
    for (const key of TRACKED_KEYS) {
      const column = at.get(headers[key]);
      if (column === undefined) continue;
      const now = canonical(key, row[column]);
      if (now !== loaded[key]) fields.push({ key, from: loaded[key], to: now });
    }
    if (fields.length > 0) edits.push({ id, row: index, fields });
  });
  return edits;
}
