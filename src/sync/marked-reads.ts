/**
 * Preview's reads from edit marks (issue 46; docs/preview-reads.md). After a full read, Preview keeps what it read
 * (the table's columns and its snapshot's) with the table's marks (sheets' EditMarks: the body rows changed since
 * just before that read, from Excel's change events). A later Preview, while the marks are complete, asks Excel
 * only whether the table is where it was and which rows hold formulas (one request), then reads the marked rows and
 * the formula rows whole; every other row is as it was read, since nothing changed it. Each ask of Preview is then
 * answered from the kept read with those rows put in, so every decision is made exactly as after a full read.
 *
 * - Marks are complete only from a full read onward, and only while nothing happened that they cannot place (rows
 *   inserted, deleted or sorted, the header, the snapshot: edit-marks.ts); else Preview reads in full again.
 * - A formula's value changes with no change event (its inputs may be anywhere): rows with a formula are read every time.
 * - Marks are cumulative: a row once changed is read at every Preview until the next full read, so an edit made
 *   while a Preview was reading is read by the next one.
 * - Where the marked rows are many (a quarter of the table), a full read costs about the same and starts the marks over.
 */
import type { ColumnsRead, EditMarks, MarksWatch, Workbook } from "../sheets";

/** What a full read of Preview left: the columns read, by table name, as asked, and the marks that follow them. */
interface Kept {
  watch: MarksWatch;
  asked: Map<string, readonly string[]>;
  reads: Map<string, ColumnsRead | null>;
}

const kept = new WeakMap<EditMarks, Map<string, Kept>>();

const sameAsk = (a: Map<string, readonly string[]>, b: Map<string, readonly string[]>) =>
  a.size === b.size && [...a].every(([name, headers]) => b.get(name)?.join("\u0000") === headers.join("\u0000"));

/**
 * Keeps a full read (its promises, once all resolve) for the next Preview of the table, with the marks begun just
 * before it. A read that fails keeps nothing.
 */
export function keepFullRead(marks: EditMarks, tableName: string, watch: MarksWatch, asked: Map<string, readonly string[]>, reads: Map<string, Promise<ColumnsRead | null>>): void {
  const byTable = kept.get(marks) ?? new Map<string, Kept>();
  kept.set(marks, byTable);
  byTable.delete(tableName);
  const names = [...reads.keys()];
  Promise.all(names.map((name) => reads.get(name)!)).then(
    (done) => {
      if (!done[names.indexOf(tableName)]) return;
      byTable.set(tableName, { watch, asked, reads: new Map(names.map((name, i) => [name, done[i]])) });
    },
    () => undefined,
  );
}

/**
 * The table's and its snapshot's columns as a full read would find them now, from the kept read and the marked
 * rows read again; null when the marks cannot be used (then Preview reads in full).
 */
export async function readsFromMarks(workbook: Workbook, marks: EditMarks, tableName: string, asked: Map<string, readonly string[]>): Promise<Map<string, ColumnsRead | null> | null> {
  const byTable = kept.get(marks);
  const last = byTable?.get(tableName);
  if (!byTable || !last || !sameAsk(last.asked, asked)) return null;
  const now = await last.watch.check();
  const table = last.reads.get(tableName);
  if (!now || !table) {
    byTable.delete(tableName);
    return null;
  }
  const rows = [...new Set([...now.changedRows, ...now.formulaRows])].sort((a, b) => a - b);
  if (rows.length * 4 > table.rowCount) return null;
  const headers = asked.get(tableName)!.filter((h) => table.columns.has(h));
  const values = rows.length > 0 ? await workbook.readRows(tableName, rows, headers) : [];
  if (!values) return null;
  const columns = new Map([...table.columns].map(([header, cells]) => [header, cells.slice()]));
  headers.forEach((header, j) => {
    const cells = columns.get(header)!;
    rows.forEach((row, i) => (cells[row] = values[i][j]));
  });
  const reads = new Map(last.reads).set(tableName, { ...table, columns });
  // What was read now is kept: the rows stay marked, and are read again next time all the same.
  last.reads = reads;
  return reads;
}
