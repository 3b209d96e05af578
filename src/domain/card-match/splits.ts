/**
 * One movement, several expenses: a charge whose amount is the exact sum of two (or three) of the holder's open
 * expenses in its posting window, each naming the merchant the statement names (a hotel stay and its
 * restaurant bill, filed apart, charged as one). Exactly one such set is a proposal; several are ambiguous.
 */
import { POST_AFTER_DAYS, POST_BEFORE_DAYS, shared, type PreparedExpense, type PreparedMovement } from "./rules";

/** Triples are looked for only among this many open expenses in a window (pairs always, by lookup). */
const TRIPLES_UP_TO = 30;

/** The sets of open expenses whose amounts add up exactly to the movement's, in its window. */
export function splitsOf(pm: PreparedMovement, window: readonly PreparedExpense[], used: ReadonlySet<string>): PreparedExpense[][] {
  const open = window.filter((pe) => !used.has(pe.e.id) && pe.e.currency === pm.m.currency && pe.minor > 0
    && pm.day - pe.day <= POST_AFTER_DAYS && pe.day - pm.day <= POST_BEFORE_DAYS && shared(pm.words, pe.words).length > 0);
  const byMinor = new Map<number, PreparedExpense[]>();
  for (const pe of open) byMinor.set(pe.minor, [...(byMinor.get(pe.minor) ?? []), pe]);
  const at = new Map(open.map((pe, i) => [pe, i]));
  const sets: PreparedExpense[][] = [];
  open.forEach((a, i) => {
    for (const b of byMinor.get(pm.minor - a.minor) ?? []) if (at.get(b)! > i) sets.push([a, b]);
  });
  if (open.length <= TRIPLES_UP_TO) {
    for (let i = 0; i < open.length; i++) {
      for (let j = i + 1; j < open.length; j++) {
        const rest = pm.minor - open[i].minor - open[j].minor;
        for (const c of byMinor.get(rest) ?? []) if (at.get(c)! > j) sets.push([open[i], open[j], c]);
      }
    }
  }
  return sets;
}
