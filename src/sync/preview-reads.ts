/**
 * One Preview's reads of the workbook (issue 46). Preview asks for a table's id, tracked and status columns
 * (sync-table.ts), then for its id and service columns (typed-values.ts); it reads the snapshot twice (tracked
 * values, then fingerprints) and the load parameters twice. Each of those reads was its own round trips, the id
 * columns (36 characters a row, the widest) travelling twice from each table. Here every column Preview will ask
 * of a table is read once, the table and its snapshot at the same time, and each later ask is answered from that
 * read. Preview writes nothing before its last read, so each ask sees the workbook it would have seen on its own.
 *
 * Why Preview still reads every row (measured in `npm run bench -- sync`, 10 edits in 50,000 rows): the check for
 * values typed over the service's cells compares each of those cells with its fingerprint (row-hashes.ts), and
 * those columns are most of the traffic. Excel cannot compute the fingerprints (no hash among its functions), so
 * "Excel compares" would need a copy of every service cell in the workbook, doubling what a load and a refresh
 * write; what avoids the read is edit marks recorded as the person types (docs/preview-reads.md weighs both): after
 * one full read, while the marks are complete, only the marked rows are read (marked-reads.ts).
 */
import {
  PREVIEW_SNAPSHOT_HEADERS, STATUS_KEY, TRACKED_KEYS, hashedPlaces, readStoredTable, snapshotTableOf, sourceOf,
  type ColumnsRead, type Workbook,
} from "../sheets";
import { keepFullRead, readsFromMarks } from "./marked-reads";

/** The headers Preview reads of its table: the id, tracked and status columns, and the service's fingerprinted cells. */
function tableHeaders(layout: readonly { key: string; header: string; editable?: boolean }[]): string[] {
  const keys = new Set<string>(["id", ...TRACKED_KEYS, STATUS_KEY]);
  const headers = layout.filter((c) => keys.has(c.key)).map((c) => c.header);
  for (const place of hashedPlaces(layout)) headers.push(layout[place].header);
  return [...new Set(headers)];
}

/** The columns `headers` out of a read that asked for `asked`; undefined when one of them was not asked (then the workbook answers). */
function subsetOf(read: ColumnsRead | null, asked: readonly string[], headers: readonly string[]): ColumnsRead | null | undefined {
  if (headers.some((h) => !asked.includes(h))) return undefined;
  if (!read) return null;
  return { ...read, columns: new Map(headers.filter((h) => read.columns.has(h)).map((h) => [h, read.columns.get(h)!])) };
}

/** The columns to read once, by table name. */
function plannedReads(tableName: string, layout: readonly { key: string; header: string; editable?: boolean }[]): Map<string, readonly string[]> {
  return new Map([[tableName, tableHeaders(layout)], [snapshotTableOf(tableName), PREVIEW_SNAPSHOT_HEADERS]]);
}

/**
 * The workbook as one Preview reads it: the table's and its snapshot's columns read once, at once, and each
 * setting read once. Every other member is the workbook's own, called on it.
 */
export async function previewReads(workbook: Workbook, tableName: string): Promise<Workbook> {
  const settings = new Map<string, Promise<string | null>>();
  let readColumns: Workbook["readColumns"] = (name, headers) => workbook.readColumns(name, headers);
  const readSetting: Workbook["readSetting"] = (key) => {
    if (!settings.has(key)) settings.set(key, workbook.readSetting(key));
    return settings.get(key)!;
  };
  const shared = new Proxy(workbook, {
    get(target, property) {
      if (property === "readSetting") return readSetting;
      if (property === "readColumns") return readColumns;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const stored = await readStoredTable(shared, tableName);
  if (!stored) return shared; // openSyncTable says why, as it always did
  let asked: Map<string, readonly string[]>;
  try {
    asked = plannedReads(tableName, sourceOf(stored.params).columns);
  } catch {
    return shared; // parameters this version cannot read: openSyncTable says so, reading as it always did
  }
  // While the table's edit marks are complete, only the rows they name are read (marked-reads.ts).
  const marks = workbook.editMarks;
  const marked = marks ? await readsFromMarks(workbook, marks, tableName, asked) : null;
  // Otherwise everything is read, the marks begun just before, so that they follow this read from its start.
  const watch = !marked && marks ? await marks.watch(tableName, snapshotTableOf(tableName)) : null;
  const reads = new Map([...asked].map(([name, headers]) => {
    const read = marked ? Promise.resolve(marked.get(name) ?? null) : workbook.readColumns(name, headers);
    read.catch(() => undefined); // its failure is the caller's, when it asks
    return [name, read] as const;
  }));
  if (watch) keepFullRead(marks!, tableName, watch, asked, reads);
  readColumns = async (name, headers) => {
    const read = reads.get(name);
    const served = read ? subsetOf(await read, asked.get(name)!, headers) : undefined;
    return served === undefined ? workbook.readColumns(name, headers) : served;
  };
  return shared;
}
