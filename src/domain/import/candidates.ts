/**
 * Which records a line may be about: by its reference (a record id, a record number with or without its prefix),
 * else by its person, its amount in minor units and its date within a window of the record's dates.
 */
import { toMinor } from "./amounts";
import { dayNumber } from "./dates";
import type { ImportLine } from "./lines";
import { personKey, type ImportRecord } from "./records";

export interface MatchWindow {
  /** A payment may be this many days before the record's first day (allowances are often paid ahead). */
  before: number;
  /** ... and this many after its last day. */
  after: number;
}

export type RecordKind = "expense" | "allowance";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIXES: Record<RecordKind, string[]> = { expense: ["exp", "e", "expense", "gasto", "g", "rend"], allowance: ["alw", "a", "allowance", "viatico", "v", "all"] };
const TOKEN = /^([a-z]*)[-#:]?0*(\d+)$/i;

/** Records by id, number and person, built once per table. */
export class RecordIndex {
  readonly byId = new Map<string, ImportRecord>();
  readonly byNumber = new Map<string, ImportRecord[]>();
  readonly byPerson = new Map<string, ImportRecord[]>();
  /**
   * Each person's records by amount in minor units, each with its place in the person's list, and the currencies
   * they are in: a line looks up its amount, not the person's every record (a statement of 100,000 lines
   * against people of hundreds of records each: 10 s of the import's CPU, profiled).
   */
  readonly byPersonAmount = new Map<string, { currencies: Set<string>; byMinor: Map<number, [number, ImportRecord][]> }>();

  /** Person keys of the lines' texts: a statement names the same few people thousands of times. */
  private readonly keys = new Map<string, string>();

  constructor(readonly records: readonly ImportRecord[], readonly kind: RecordKind) {
    const add = (map: Map<string, ImportRecord[]>, key: string, r: ImportRecord) => {
      const list = map.get(key);
      if (list) list.push(r);
      else map.set(key, [r]);
    };
    for (const r of records) {
      this.byId.set(r.id.toLowerCase(), r);
      add(this.byNumber, r.number, r);
      for (const p of new Set(r.persons)) if (p) add(this.byPerson, p, r);
    }
    for (const [person, list] of this.byPerson) {
      const own = { currencies: new Set<string>(), byMinor: new Map<number, [number, ImportRecord][]>() };
      list.forEach((r, place) => {
        if (r.minor === null || Number.isNaN(r.minor)) return; // NaN equals nothing, as in a comparison
        own.currencies.add(r.currency);
        const same = own.byMinor.get(r.minor);
        if (same) same.push([place, r]);
        else own.byMinor.set(r.minor, [[place, r]]);
      });
      this.byPersonAmount.set(person, own);
    }
  }

  /** personKey of a line's person, computed once per distinct text. */
  keyOf(person: string): string {
    let key = this.keys.get(person);
    if (key === undefined) {
      key = personKey(person);
      this.keys.set(person, key);
    }
    return key;
  }
}

/** What a reference names: records found, explicit references not found (a record of another table), or nothing record-like. */
export interface ReferenceRead {
  found: ImportRecord[];
  /** Tokens that name a record explicitly (an id, a prefixed number) that this table does not hold. */
  missing: string[];
  /** Tokens naming the other kind of record (ALW-12 in an expenses table). */
  otherKind: string[];
  /** Bare numbers that name a record: used only when the amount agrees. */
  weak: ImportRecord[];
}

/** Reads a line's reference against the index. */
export function readReference(reference: string, index: RecordIndex): ReferenceRead {
  const out: ReferenceRead = { found: [], missing: [], otherKind: [], weak: [] };
  const other: RecordKind = index.kind === "expense" ? "allowance" : "expense";
  for (const token of reference.split(/[\s,;/+&()]+/).filter(Boolean)) {
    if (UUID.test(token)) {
      const r = index.byId.get(token.toLowerCase());
      if (r) out.found.push(r);
      else out.missing.push(token);
      continue;
    }
    const m = TOKEN.exec(token);
    if (!m) continue;
    const prefix = m[1].toLowerCase();
    const same = index.byNumber.get(m[2]) ?? [];
    if (prefix === "") out.weak.push(...same);
    else if (PREFIXES[index.kind].includes(prefix)) {
      if (same.length > 0) out.found.push(...same);
      else out.missing.push(token);
    } else if (PREFIXES[other].includes(prefix)) out.otherKind.push(token);
  }
  out.found = [...new Set(out.found)];
  out.weak = [...new Set(out.weak)].filter((r) => !out.found.includes(r));
  return out;
}

/** The line's amount in the record's minor units (the line's own currency's decimals when it says one). */
export function lineMinor(line: ImportLine, record: Pick<ImportRecord, "currency">, decimals: (code: string) => number): number | null {
  if (!line.amount) return null;
  return toMinor(line.amount, decimals(line.currency || record.currency));
}

/** Whether a line's currency (when it gives one) is the record's. */
export const sameCurrency = (line: ImportLine, record: ImportRecord) => line.currency === "" || record.currency === "" || line.currency === record.currency;

/** Whether a day (since 1970; null: the line has none) falls in the record's window. */
function inWindow(day: number | null, record: ImportRecord, window: MatchWindow): boolean {
  if (day === null || record.from === null) return false;
  return day >= record.from - window.before && day <= (record.to ?? record.from) + window.after;
}

const dayOfLine = (line: ImportLine) => (line.day ? dayNumber(line.day) : null);

/** The records of the line's person, holding its exact amount in minor units and its currency, within the window. */
export function personCandidates(line: ImportLine, index: RecordIndex, window: MatchWindow, decimals: (code: string) => number, taken: ReadonlySet<ImportRecord>): ImportRecord[] {
  const key = index.keyOf(line.person);
  const own = key ? index.byPersonAmount.get(key) : undefined;
  if (!own) return [];
  const day = dayOfLine(line);
  // The line's amount in the minor units of each currency the person's records are in: those records only,
  // in the person's order, each checked as before (its currency, its window, its amount in its own currency).
  const found = new Map<ImportRecord, number>();
  for (const currency of own.currencies) {
    const minor = lineMinor(line, { currency }, decimals);
    for (const [place, r] of minor === null ? [] : (own.byMinor.get(minor) ?? [])) {
      if (r.currency === currency && !taken.has(r) && sameCurrency(line, r) && inWindow(day, r, window)) found.set(r, place);
    }
  }
  return [...found].sort((a, b) => a[1] - b[1]).map(([r]) => r);
}

/**
 * The subsets of 2 to 4 of the person's records in the window whose amounts sum exactly to the line's (one
 * payment paying several allowances); at most 2 are returned (more than one is already ambiguous).
 */
export function summingSets(line: ImportLine, index: RecordIndex, window: MatchWindow, decimals: (code: string) => number, open: (r: ImportRecord) => boolean): ImportRecord[][] {
  const key = index.keyOf(line.person);
  const day = dayOfLine(line);
  const pool = (index.byPerson.get(key) ?? []).filter((r) => open(r) && sameCurrency(line, r) && inWindow(day, r, window) && r.minor !== null && r.minor > 0).slice(0, 12);
  if (pool.length < 2) return [];
  const target = lineMinor(line, pool[0], decimals);
  if (target === null) return [];
  const found: ImportRecord[][] = [];
  const walk = (start: number, chosen: ImportRecord[], sum: number) => {
    if (found.length > 1) return;
    if (chosen.length >= 2 && Math.abs(sum - target) < 1e-6) found.push([...chosen]);
    if (chosen.length === 4) return;
    for (let i = start; i < pool.length; i++) walk(i + 1, [...chosen, pool[i]], sum + pool[i].minor!);
  };
  walk(0, [], 0);
  return found;
}
