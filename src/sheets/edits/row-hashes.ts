/**
 * Short fingerprints of the cells a load wrote, kept in the snapshot, so that Refresh can tell without
 * reading the table (a) which records the service changed since (the row's digest against the new one)
 * and (b) which cells of the service's columns someone typed over (a cell read back against its column's
 * fingerprint). Three characters (18 bits) a column: a typed value goes unnoticed once in 262,144.
 *
 * A cell is fingerprinted as Excel gives it back, not as it was sent: a number at Excel's 15 significant
 * digits, a text cut to what a cell holds (fitCell), an empty cell as "".
 */
import { CELL_TEXT_LIMIT, fitCell } from "../port/cells";
import type { CellValue } from "../port/workbook";

/** Characters of a cell's fingerprint: rowHashes writes three (18 bits). */
export const HASH_CHARS = 3;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** FNV-1a, 32 bits, over a string's UTF-16 code units, from `hash`. */
function fnv1a(text: string, hash = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Seeds per kind of value, so that the text "12" and the number 12 differ. */
const EMPTY = 0x2b5d7a13;
const TEXT = 0x811c9dc5;
const TRUE = 0x5bd1e995;
const FALSE = 0x1b873593;

/**
 * A number as Excel holds it, at 15 significant digits (what a cell keeps), hashed from its digits and
 * exponent without building its text: m × 10^(e − 14) with m an integer of 15 digits.
 */
function numberHash(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return fnv1a(String(value), 0x9747b28c);
  const e = Math.floor(Math.log10(Math.abs(value)));
  const m = Math.round(value * Math.pow(10, 14 - e));
  let hash = Math.imul(0x9747b28c ^ (e + 400), 0x01000193);
  hash = Math.imul(hash ^ (m % 0x100000000), 0x01000193);
  hash = Math.imul(hash ^ Math.floor(m / 0x100000000), 0x01000193);
  return hash >>> 0;
}

/** A cell's 32-bit hash, as Excel gives the cell back. */
function hash32(value: CellValue | null | undefined): number {
  if (value === null || value === undefined || value === "") return EMPTY;
  if (typeof value === "number") return numberHash(value);
  if (typeof value === "boolean") return value ? TRUE : FALSE;
  return fnv1a(value.length > CELL_TEXT_LIMIT ? fitCell(value) : value, TEXT);
}

const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

function encode(hash: number, chars: number): string {
  let out = "";
  for (let i = 0; i < chars; i++) out += ALPHABET[(hash >>> (6 * i)) & 63];
  return out;
}

/** A cell's fingerprint (HASH_CHARS characters). */
export const cellHash = (value: CellValue | null | undefined): string => encode(hash32(value), HASH_CHARS);

/** The fingerprints of a row's cells at `columns`, one after the other (what cellHash gives each). */
export function rowHashes(row: readonly CellValue[], columns: readonly number[]): string {
  const codes = new Array<number>(columns.length * HASH_CHARS);
  for (let j = 0; j < columns.length; j++) {
    const hash = hash32(row[columns[j]]);
    codes[3 * j] = CODES[hash & 63];
    codes[3 * j + 1] = CODES[(hash >>> 6) & 63];
    codes[3 * j + 2] = CODES[(hash >>> 12) & 63];
  }
  return String.fromCharCode(...codes);
}

/** One column's fingerprint out of a row's (rowHashes), by its place among the hashed columns. */
export const hashAt = (hashes: string, place: number): string => hashes.slice(place * HASH_CHARS, (place + 1) * HASH_CHARS);

/** A row's digest: whether any of its hashed cells changed, in eight characters (48 bits). */
export const digestOf = (hashes: string): string => encode(fnv1a(hashes), 5) + encode(fnv1a(hashes, 0x050c5d1f), 3);
