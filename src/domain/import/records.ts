/** A table's record as the matcher sees it, and the person keys lines are compared by. */

export interface ImportRecord {
  /** 0-based body row of the table. */
  row: number;
  id: string;
  /** "Expense 1001": how lists name it. */
  label: string;
  /** The record's number as text ("1001"). */
  number: string;
  /** Normalised keys of its person: name, email, id (personKey of each). */
  persons: string[];
  /** Amount in minor units of its currency; null when the row has none. */
  minor: number | null;
  currency: string;
  /** Days (since 1970) the record covers: an expense's date, an allowance's start to end. */
  from: number | null;
  to: number | null;
  /** The tracked values as the sheet shows them now (canonical text). */
  state: string;
  accounted_id: string;
  paid_id: string;
  paid_at: string;
}

/** A person's name, email or id as lines and records are compared: case, accents, punctuation and word order ignored. */
export function personKey(text: string): string {
  const t = text.trim().toLowerCase();
  if (t === "") return "";
  if (t.includes("@")) return t;
  return t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9 ]+/g, " ").split(/\s+/).filter(Boolean).sort().join(" ");
}
