/**
 * The hidden truth of a generated file: per line, what the file's own content lets a careful matcher decide.
 * A line paying one record without naming it is ambiguous when another record of the same person holds the
 * same amount within the window, or a set of the person's allowances sums to it (the documented rule of
 * docs/import.md); a line a record is listed on twice is ambiguous; the rest fill their records or nothing.
 */
import { personKey } from "../domain/import/records";
import { dayOf, minorOf, type FileRecord } from "./import-records";

/** One line of a generated file before it is written. */
export interface Entry {
  day: string;
  person: string;
  reference: string;
  amount: number;
  currency: string;
  value: string;
  /** The reference names its record (a prefixed number, an id, a number in words). */
  explicit: boolean;
  expect: LineTruth["expect"];
  ids: string[];
  /** The records of this table the line is about (paid, already paid, not ready), whatever the truth. */
  about: string[];
  case: string;
}

export interface LineTruth {
  line: number;
  /** fill: these records, and only they; ambiguous: listed as such, nothing filled; none: nothing filled. */
  expect: "fill" | "ambiguous" | "none";
  ids: string[];
  /** The difficulty this line carries ("rounding", "three allowances by their sum", "reversed"...). */
  case: string;
}

const inWindow = (day: number, r: FileRecord, w: { before: number; after: number }) => day >= dayOf(r.first) - w.before && day <= dayOf(r.last) + w.after;

/** Number of sets of 2 to 4 of `pool` summing to `target` (stops counting at 2). */
function sums(pool: FileRecord[], target: number): number {
  let found = 0;
  const walk = (start: number, size: number, sum: number) => {
    if (found > 1) return;
    if (size >= 2 && sum === target) found++;
    if (size === 4) return;
    for (let i = start; i < pool.length; i++) walk(i + 1, size + 1, sum + minorOf(pool[i].amount, pool[i].currency));
  };
  walk(0, 0, 0);
  return found;
}

/** The truth of each line, in the order written (line 2 is the first after the header). */
export function truthOf(entries: readonly Entry[], records: readonly FileRecord[], w: { before: number; after: number }, kind: "bank" | "erp", allowances: boolean): LineTruth[] {
  // Records a reference names are claimed before any line is matched by person (reversed lines are set apart first).
  const named = new Set(entries.filter((e) => e.explicit && e.case !== "reversed" && e.case !== "reversal").flatMap((e) => e.about));
  const byKey = new Map<string, FileRecord[]>();
  for (const r of records) for (const k of new Set([personKey(`${r.person.first_name} ${r.person.last_name}`), r.person.email])) byKey.set(k, [...(byKey.get(k) ?? []), r]);
  const ready = kind === "bank" ? ["approved", "accounted"] : ["approved"];
  const held = (r: FileRecord) => (kind === "bank" ? r.paid_id : r.accounted_id);
  return entries.map((e, i) => {
    const truth: LineTruth = { line: i + 2, expect: e.expect, ids: e.ids, case: e.case };
    if (e.explicit || e.expect !== "fill") return truth;
    const day = dayOf(e.day);
    const minor = minorOf(e.amount, e.currency);
    const mine = (byKey.get(personKey(e.person)) ?? []).filter((r) => !named.has(r.id) && r.currency === e.currency && inWindow(day, r, w));
    const single = mine.filter((r) => minorOf(r.amount, r.currency) === minor).length;
    const sets = allowances && kind === "bank" ? sums(mine.filter((r) => ready.includes(r.state) && held(r) === null).slice(0, 12), minor) : 0;
    const decided = e.ids.length === 1 ? single === 1 && sets === 0 : single === 0 && sets === 1;
    return decided ? truth : { ...truth, expect: "ambiguous" };
  });
}
