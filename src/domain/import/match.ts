/**
 * Matches a file's lines to a table's records and says, line by line, what it did and why. It never guesses
 * between equals: only a unique match fills; a line fills one record (or, named by its references or summing
 * exactly, several allowances of one person paid at once); a record two lines claim is filled by neither; a
 * record holding another value is a conflict. Pure: the sheets layer writes the fills it returns.
 */
import { amountWords, reversals } from "./match-words";
import {
  personCandidates, readReference, RecordIndex, lineMinor, summingSets, sameCurrency, type MatchWindow, type RecordKind,
} from "./candidates";
import { judge, judgeAll, type FillValues } from "./judge";
import type { ImportLine, ReadLines } from "./lines";
import type { ImportKind } from "./mapping";
import type { ImportRecord } from "./records";

type OutcomeKind = "filled" | "already" | "conflict" | "ambiguous" | "unmatched" | "unreadable";

export interface LineOutcome {
  line: number;
  kind: OutcomeKind;
  /** The records it filled, or would have, or could be (ids). */
  ids: string[];
  why: string;
}

/** Cells to fill in one record's row, and where the values came from ("bank file line 17"). */
export interface Fill {
  row: number;
  id: string;
  values: FillValues;
  line: number;
  source: string;
}

export interface MatchReport {
  outcomes: LineOutcome[];
  fills: Fill[];
  counts: Record<OutcomeKind, number>;
}

export interface MatchOptions {
  kind: ImportKind;
  records: RecordKind;
  /** "bank file": the start of each value's source. */
  fileName: string;
  window: MatchWindow;
  /** ISO 4217 decimals of a code (2 for one not listed). */
  decimals: (code: string) => number;
}

/** A reference's amount may differ from its record's by rounding: a minor unit, or half a percent. */
const withinRounding = (a: number, b: number) => Math.abs(a - b) <= Math.max(1, Math.abs(b) * 0.005);

interface Claim {
  line: ImportLine;
  records: ImportRecord[];
  how: string;
}

type Step = Claim | Omit<LineOutcome, "line">;
const isClaim = (s: Step | null): s is Claim => s !== null && "records" in s;
const labels = (rs: readonly ImportRecord[]) => rs.map((r) => r.label).join(", ");

/** Pass 1: a line whose reference names records; null when it names none (pass 2 decides). */
function byReference(line: ImportLine, index: RecordIndex, o: MatchOptions): Step | null {
  const ref = readReference(line.reference, index);
  const found = ref.found.length > 0 ? ref.found : ref.weak.filter((r) => r.minor !== null && sameCurrency(line, r) && lineMinor(line, r, o.decimals) === r.minor);
  if (found.length === 0) {
    if (ref.missing.length > 0) return { kind: "unmatched", ids: [], why: `it refers to ${ref.missing.join(", ")}, which this table does not hold (another subsidiary's record, or one not loaded)` };
    if (ref.otherKind.length > 0) return { kind: "unmatched", ids: [], why: `it refers to ${ref.otherKind.join(", ")}, of the other kind of record: import it into that table` };
    return null;
  }
  const key = index.keyOf(line.person);
  const stranger = key ? found.find((r) => r.persons.length > 0 && !r.persons.includes(key)) : undefined;
  if (stranger) return { kind: "unmatched", ids: [stranger.id], why: `it refers to ${stranger.label}, whose person is not ${line.person}` };
  if (!sameCurrency(line, found[0])) return { kind: "unmatched", ids: found.map((r) => r.id), why: `it is in ${line.currency}, ${found[0].label} in ${found[0].currency}` };
  if (found.length === 1) {
    const r = found[0];
    const minor = lineMinor(line, r, o.decimals);
    if (minor === null || r.minor === null || minor === r.minor) return { line, records: found, how: "by its reference" };
    if (withinRounding(minor, r.minor)) return { line, records: found, how: `by its reference (the amount differs by ${amountWords(minor - r.minor, o.decimals(r.currency))}: rounding)` };
    return { kind: "unmatched", ids: [r.id], why: `it refers to ${r.label}, of ${amountWords(r.minor, o.decimals(r.currency))}, not ${amountWords(minor, o.decimals(r.currency))}` };
  }
  const people = new Set(found.map((r) => r.persons[0] ?? ""));
  if (people.size > 1) return { kind: "ambiguous", ids: found.map((r) => r.id), why: `it refers to ${labels(found)}, of different people` };
  const sum = found.reduce((s, r) => s + (r.minor ?? 0), 0);
  const minor = lineMinor(line, found[0], o.decimals);
  if (minor !== null && Math.abs(minor - sum) > 1e-6) {
    return { kind: "ambiguous", ids: found.map((r) => r.id), why: `it refers to ${labels(found)}, whose amounts sum to ${amountWords(sum, o.decimals(found[0].currency))}, not ${amountWords(minor, o.decimals(found[0].currency))}` };
  }
  return { line, records: found, how: "by its references, the amounts summing exactly" };
}

/** Pass 2: by person, exact amount and date window, among the records no reference claimed. */
function byPerson(line: ImportLine, index: RecordIndex, o: MatchOptions, taken: ReadonlySet<ImportRecord>): Step {
  if (!line.person || !line.amount || !line.day) return { kind: "unmatched", ids: [], why: "its reference names no record, and it lacks a person, an amount or a date to match by" };
  const found = personCandidates(line, index, o.window, o.decimals, taken);
  // Allowances of one person may be paid at once: a set summing exactly competes with a single record of that amount.
  const sets = o.records === "allowance" ? summingSets(line, index, o.window, o.decimals, (r) => !taken.has(r) && judge(o.kind, r, line).kind === "fill") : [];
  if (found.length === 1 && sets.length === 0) return { line, records: found, how: "by person, amount and date" };
  if (found.length === 0 && sets.length === 1) return { line, records: sets[0], how: "by person and date, one payment of several allowances summing exactly" };
  if (found.length + sets.length > 1) {
    const options = [...found.map((r) => r.label), ...sets.map((set) => labels(set))];
    return { kind: "ambiguous", ids: [...new Set([...found, ...sets.flat()].map((r) => r.id))], why: `${options.length} choices of ${line.person}'s records hold this amount within the dates: ${options.join("; ")}` };
  }
  if (!index.byPerson.has(index.keyOf(line.person))) return { kind: "unmatched", ids: [], why: `no record of ${line.person} in this table` };
  return { kind: "unmatched", ids: [], why: `no record of ${line.person} holds this amount within ${o.window.before} days before to ${o.window.after} days after its dates` };
}

/** Matches every line; outcomes in line order. Pure. */
export function matchLines(records: readonly ImportRecord[], read: ReadLines, o: MatchOptions): MatchReport {
  const index = new RecordIndex(records, o.records);
  const outcomes: LineOutcome[] = read.unreadable.map((p) => ({ line: p.line, kind: "unreadable", ids: [], why: p.why }));
  const reversed = reversals(read.lines);
  const rest: ImportLine[] = [];
  const claims: Claim[] = [];
  for (const line of read.lines) {
    const why = reversed.get(line.line);
    if (why) outcomes.push({ line: line.line, kind: "unmatched", ids: [], why });
    else {
      const step = byReference(line, index, o);
      if (step === null) rest.push(line);
      else if (isClaim(step)) claims.push(step);
      else outcomes.push({ line: line.line, ...step });
    }
  }
  const taken = new Set(claims.flatMap((c) => c.records));
  for (const line of rest) {
    const step = byPerson(line, index, o, taken);
    if (isClaim(step)) claims.push(step);
    else outcomes.push({ line: line.line, ...step });
  }
  return settle(claims, outcomes, o);
}

/** A record claimed by two lines is filled by neither; each other claim is judged against the record's cells. */
function settle(claims: Claim[], outcomes: LineOutcome[], o: MatchOptions): MatchReport {
  const linesOf = new Map<ImportRecord, number[]>();
  for (const c of claims) for (const r of c.records) linesOf.set(r, [...(linesOf.get(r) ?? []), c.line.line]);
  const fills: Fill[] = [];
  for (const c of claims) {
    const ids = c.records.map((r) => r.id);
    const shared = c.records.find((r) => linesOf.get(r)!.length > 1);
    if (shared) {
      const others = linesOf.get(shared)!.filter((l) => l !== c.line.line);
      outcomes.push({ line: c.line.line, kind: "ambiguous", ids, why: `${shared.label} is also matched by line ${others.join(", ")}: a record is filled from one line only` });
      continue;
    }
    const verdict = judgeAll(o.kind, c.records, c.line);
    if (verdict.kind === "conflict") outcomes.push({ line: c.line.line, kind: "conflict", ids, why: `${verdict.why}: not overwritten` });
    else if (verdict.kind === "already") outcomes.push({ line: c.line.line, kind: "already", ids, why: `${labels(c.records)} already hold${c.records.length === 1 ? "s" : ""} ${c.line.value}` });
    else {
      outcomes.push({ line: c.line.line, kind: "filled", ids, why: `${labels(c.records)}, ${c.how}` });
      const source = `${o.fileName} line ${c.line.line}`;
      for (const r of c.records) fills.push({ row: r.row, id: r.id, values: verdict.values, line: c.line.line, source });
    }
  }
  outcomes.sort((a, b) => a.line - b.line);
  const counts = { filled: 0, already: 0, conflict: 0, ambiguous: 0, unmatched: 0, unreadable: 0 };
  for (const x of outcomes) counts[x.kind]++;
  return { outcomes, fills, counts };
}
