/**
 * One-to-one without guessing. A movement takes an expense only when that expense is clearly its best (no
 * other candidate of the movement scores alike) and the movement is clearly the expense's best (no other
 * movement wants it alike). Taking an expense can make another movement's choice clear, so this repeats until
 * nothing more is taken; what is left with candidates is ambiguous, every alike candidate listed.
 */
import type { PreparedExpense, Scored } from "./rules";

/** Two scores closer than this are alike: neither is chosen. */
const ALIKE = 5;

export interface Candidate extends Scored {
  pe: PreparedExpense;
}

export interface Assigned {
  taken: Map<number, Candidate>;
  /** Movement index -> the alike candidates still open, best first, and why none was chosen. */
  ambiguous: Map<number, { candidates: Candidate[]; why: string }>;
  /** Movements that had candidates, all taken by other movements. */
  outbid: Set<number>;
}

/** Assigns `candidates` (movement index -> its candidates) over the expenses not yet in `used`, which it grows. */
export function assignOneToOne(candidates: Map<number, Candidate[]>, used: Set<string>): Assigned {
  const taken = new Map<number, Candidate>();
  const open = new Map<number, Candidate[]>();
  for (const [mi, list] of candidates) open.set(mi, [...list].sort((a, b) => b.score - a.score));
  const live = (mi: number) => open.get(mi)!.filter((c) => !used.has(c.pe.e.id));
  let changed = true;
  while (changed) {
    changed = false;
    const wanted = wantedBy(open, used);
    for (const mi of open.keys()) {
      const list = live(mi);
      if (list.length === 0) continue;
      const [best, second] = list;
      if (second && best.score - second.score < ALIKE) continue;
      const rivals = wanted.get(best.pe.e.id)!.filter((w) => w.mi !== mi && w.score > best.score - ALIKE);
      if (rivals.length > 0) continue;
      taken.set(mi, best);
      used.add(best.pe.e.id);
      open.delete(mi);
      changed = true;
    }
  }
  const ambiguous = new Map<number, { candidates: Candidate[]; why: string }>();
  const outbid = new Set<number>();
  const wanted = wantedBy(open, used);
  for (const mi of open.keys()) {
    const list = live(mi);
    if (list.length === 0) {
      outbid.add(mi);
      continue;
    }
    const alike = list.filter((c) => c.score > list[0].score - ALIKE);
    const rivals = wanted.get(list[0].pe.e.id)!.filter((w) => w.mi !== mi && w.score > list[0].score - ALIKE).length;
    const why = alike.length > 1
      ? `${alike.length} expenses fit alike (scores ${alike.map((c) => c.score).join(", ")}): none chosen`
      : `${rivals} other movement${rivals === 1 ? "" : "s"} of the period fit${rivals === 1 ? "s" : ""} this expense alike: none chosen`;
    ambiguous.set(mi, { candidates: alike, why });
  }
  return { taken, ambiguous, outbid };
}

/** For each open expense, the movements that want it and how much. */
function wantedBy(open: Map<number, Candidate[]>, used: Set<string>): Map<string, { mi: number; score: number }[]> {
  const wanted = new Map<string, { mi: number; score: number }[]>();
  for (const [mi, list] of open) {
    for (const c of list) {
      if (used.has(c.pe.e.id)) continue;
      const id = c.pe.e.id;
      const entry = wanted.get(id);
      if (entry) entry.push({ mi, score: c.score });
      else wanted.set(id, [{ mi, score: c.score }]);
    }
  }
  return wanted;
}
