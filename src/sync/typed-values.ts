/**
 * Values typed over the service's cells (Amount, Description…): Sync states sends only the tracked fields, so
 * such a value is never sent, and the next Refresh would put the service's value back. Preview names each one
 * (issue 24: nothing typed is dropped without a trace). A cell is typed over when it no longer matches the
 * fingerprint the snapshot keeps of what was loaded there (src/sheets/edits/row-hashes.ts); a row whose id is on
 * another row too is skipped (which record its cells belong to cannot be told).
 */
import { HASH_CHARS, cellHash, hashAt, hashedPlaces, readFingerprints, readStoredTable, sourceOf, type CellValue, type Workbook } from "../sheets";
import type { SyncTable } from "./sync-table";

export interface TypedValue {
  /** 0-based body row. */
  row: number;
  id: string;
  header: string;
  typed: CellValue;
}

/** The start of the status Preview writes on a row whose only news is a value typed over the service's cells. */
export const TYPED_NOTE_PREFIX = "Not sent: ";

/** The typed values of a table, and where its service's cells are (for the marks). */
export interface TypedCheck {
  typed: TypedValue[];
  where: { header: string[]; service: string[] };
}

export async function findTypedValues(workbook: Workbook, table: SyncTable): Promise<TypedCheck> {
  const layout = sourceOf(table.query ?? table.params).columns;
  const places = hashedPlaces(layout);
  const headers = places.map((p) => layout[p].header);
  const [read, fingerprints, stored] = await Promise.all([
    workbook.readColumns(table.tableName, [table.headers.id, ...headers]), readFingerprints(workbook, table.tableName), readStoredTable(workbook, table.tableName),
  ]);
  if (!read) return { typed: [], where: { header: [], service: headers } };
  // Fingerprints are by place in the layout the table was loaded with: another layout (an earlier version's, until
  // the next Refresh rewrites the table) cannot be compared with them.
  if (stored && stored.columns.join("\u0000") !== layout.map((c) => c.header).join("\u0000")) return { typed: [], where: { header: read.header, service: headers } };
  const ids = (read.columns.get(table.headers.id) ?? []).map((v) => String(v ?? "").trim());
  const count = new Map<string, number>();
  for (const id of ids) if (id) count.set(id, (count.get(id) ?? 0) + 1);
  const typed: TypedValue[] = [];
  ids.forEach((id, row) => {
    const was = fingerprints.get(id);
    if (!id || count.get(id) !== 1 || was === undefined || was.length !== places.length * HASH_CHARS) return;
    headers.forEach((header, j) => {
      const column = read.columns.get(header);
      if (!column) return; // a column the user deleted holds no value typed over
      const value = column[row] ?? "";
      if (cellHash(value) !== hashAt(was, j)) typed.push({ row, id, header, typed: value });
    });
  });
  return { typed, where: { header: read.header, service: headers } };
}

/** What a row's status says of its typed values: "Not sent: Amount is the service's …". */
export function typedNote(values: readonly TypedValue[]): string {
  const names = [...new Set(values.map((v) => v.header))];
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const shown = values.map((v) => `${v.header} ${JSON.stringify(v.typed)}`).join(", ");
  return `${TYPED_NOTE_PREFIX}${list} ${names.length === 1 ? "is" : "are"} the service's (typed here: ${shown}); Sync states sends only State, ` +
    "Accounted ID, Paid ID and Paid at. Refresh asks before it replaces a typed value.";
}
