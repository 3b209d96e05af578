/**
 * Ids the person used lately (subsidiaries, cards, billing periods per card), remembered on this device in
 * the same guarded storage as the connection, so the pickers can offer them next time. Never in the
 * workbook: a colleague opening it has their own. Keys are namespaced per enterprise, so ids of another
 * enterprise are never offered. Only ids and a short label are kept, never the key.
 */
import type { KeyValueStorage } from "../api";

export type RecentKind = "subsidiary" | "card" | { periodsOf: string };

export interface RecentValue {
  value: string;
  /** What the picker shows beside the id (a card's "•••• 4242 — Ana Pérez"); "" when none. */
  label: string;
}

/**
 * How many values a list keeps, most recent first.
 * @internal recent-values.test.ts fills a list past it.
 */
export const RECENT_LIMIT = 8;
const MAX_TEXT = 200;

const RECENT_PREFIX = "spendsync.recent.";

/** @internal recent-values.test.ts reads the stored list by it. */
export function recentKey(enterpriseId: string, kind: RecentKind): string {
  const what = typeof kind === "string" ? kind : `periods.${kind.periodsOf}`;
  return `${RECENT_PREFIX}${enterpriseId}.${what}`;
}

const clean = (text: unknown) => (typeof text === "string" ? text.trim().slice(0, MAX_TEXT) : "");

/** Reads a stored list, dropping anything malformed (storage is shared with other code and may be edited). */
function parse(raw: string | null): RecentValue[] {
  if (!raw) return [];
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    const out: RecentValue[] = [];
    for (const item of list) {
      const value = clean((item as { value?: unknown })?.value);
      if (value && !out.some((v) => v.value === value)) out.push({ value, label: clean((item as { label?: unknown })?.label) });
    }
    return out.slice(0, RECENT_LIMIT);
  } catch {
    return [];
  }
}

export class RecentValues {
  constructor(private readonly storage: KeyValueStorage) {}

  /** Most recent first. */
  list(enterpriseId: string, kind: RecentKind): RecentValue[] {
    if (!enterpriseId) return [];
    return parse(this.storage.getItem(recentKey(enterpriseId, kind)));
  }

  /** Puts `value` first (keeping its earlier label when none is given); the oldest beyond the limit go. */
  remember(enterpriseId: string, kind: RecentKind, value: string, label = ""): void {
    const id = clean(value);
    if (!enterpriseId || !id) return;
    const earlier = this.list(enterpriseId, kind);
    const kept = earlier.find((v) => v.value === id)?.label ?? "";
    const next = [{ value: id, label: clean(label) || kept }, ...earlier.filter((v) => v.value !== id)].slice(0, RECENT_LIMIT);
    this.storage.setItem(recentKey(enterpriseId, kind), JSON.stringify(next));
  }

  forget(enterpriseId: string, kind: RecentKind, value: string): void {
    const next = this.list(enterpriseId, kind).filter((v) => v.value !== value);
    this.storage.setItem(recentKey(enterpriseId, kind), JSON.stringify(next));
  }
}
