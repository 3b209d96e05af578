/**
 * A refresh of a Card close table keeps what the person wrote beside its rows, as a table refresh does: the
 * typed columns (Accepted, Notes) and any column they added, found again by the row's key (the movement's
 * reference, date and amount; the expense's number), wherever the row now sorts. A row that leaves the list
 * with something typed on it is kept at the bottom, said to be no longer open, so no note is ever lost.
 */
import type { CellValue, TableRead } from "../port/workbook";

export interface Kept {
  header: string[];
  rows: CellValue[][];
  /** The person's formulas in their own columns, where they had one. */
  formulas: (string | null)[][];
  /** Rows whose typed cells were found again. */
  kept: number;
  /** Rows no longer in the list, kept for what was typed on them. */
  carried: number;
}

const filled = (v: CellValue | undefined) => v !== undefined && v !== "";

/** Lays `rows` (in `header`'s order) out with what `old` held beside them. */
export function keepTyped(old: TableRead | null, header: readonly string[], rows: readonly CellValue[][], keyHeaders: readonly string[],
  typedHeaders: readonly string[], gone: { header: string; text: string } | null): Kept {
  const own = new Set(header);
  const extra = old ? old.header.filter((h) => !own.has(h)) : [];
  const full = [...header, ...extra];
  const keepers = [...typedHeaders, ...extra];
  if (!old) return { header: full, rows: rows.map((r) => [...r]), formulas: rows.map((r) => r.map(() => null)), kept: 0, carried: 0 };
  const at = (h: string) => old.header.indexOf(h);
  const keyOfOld = (row: CellValue[]) => JSON.stringify(keyHeaders.map((h) => (at(h) < 0 ? "" : row[at(h)])));
  const keyOfNew = (row: readonly CellValue[]) => JSON.stringify(keyHeaders.map((h) => row[header.indexOf(h)]));
  const oldByKey = new Map<string, number>();
  old.rows.forEach((row, i) => oldByKey.set(keyOfOld(row), i));
  const used = new Set<number>();
  let kept = 0;
  const out: CellValue[][] = [];
  const formulas: (string | null)[][] = [];
  for (const row of rows) {
    const i = oldByKey.get(keyOfNew(row));
    const next = [...row, ...extra.map((): CellValue => "")];
    const f: (string | null)[] = next.map(() => null);
    if (i !== undefined && !used.has(i)) {
      used.add(i);
      if (copyKeepers(old, i, full, keepers, next, f)) kept++;
    }
    out.push(next);
    formulas.push(f);
  }
  let carried = 0;
  old.rows.forEach((row, i) => {
    if (used.has(i) || !keepers.some((h) => at(h) >= 0 && filled(row[at(h)]))) return;
    const next = full.map((h): CellValue => (at(h) < 0 ? "" : row[at(h)]));
    const f: (string | null)[] = next.map(() => null);
    copyKeepers(old, i, full, keepers, next, f);
    if (gone) next[full.indexOf(gone.header)] = gone.text;
    out.push(next);
    formulas.push(f);
    carried++;
  });
  return { header: full, rows: out, formulas, kept, carried };
}

/** Copies the person's cells of old row `i` into `next` (values, and formulas where a cell held one); whether any held something. */
function copyKeepers(old: TableRead, i: number, full: string[], keepers: readonly string[], next: CellValue[], formulas: (string | null)[]): boolean {
  let any = false;
  for (const h of keepers) {
    const from = old.header.indexOf(h);
    if (from < 0) continue;
    const value = old.rows[i][from];
    const formula = old.formulas[i]?.[from];
    if (!filled(value) && !(typeof formula === "string" && formula.startsWith("="))) continue;
    any = true;
    const to = full.indexOf(h);
    next[to] = value;
    if (typeof formula === "string" && formula.startsWith("=")) formulas[to] = formula;
  }
  return any;
}
