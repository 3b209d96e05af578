/**
 * The words the link rewriter (links.ts) looks for before it scans anything: a link can only follow the key
 * `"next"` or `"previous"`, as sent. The search is native where the platform has one (the caller passes it);
 * the web-standard one here finds the first byte of the searched part with Uint8Array's indexOf.
 */
const ENCODER = new TextEncoder();

/** Where `needle` first occurs in `haystack` from `from`, or -1. */
export type FindBytes = (haystack: Uint8Array, needle: Uint8Array, from: number) => number;

/**
 * The two keys a link follows, as sent. Searched for from a byte seldom seen in JSON (`xt"`, `vious"`: a search
 * from their opening quote would stop at every string), then checked whole.
 */
const WORDS = [word('"next"', 3), word('"previous"', 4)];
export const LONGEST_WORD = 10;

function word(text: string, rare: number): { bytes: Uint8Array; rare: number; from: Uint8Array } {
  const bytes = ENCODER.encode(text);
  return { bytes, rare, from: bytes.subarray(rare) };
}

/** The web-standard search: each occurrence of the needle's first byte (Uint8Array's indexOf), then the rest. */
export function findBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(needle[0], from); at !== -1 && at <= last; at = haystack.indexOf(needle[0], at + 1)) {
    if (bytesAt(haystack, needle, at)) return at;
  }
  return -1;
}

function bytesAt(haystack: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at < 0 || at + needle.length > haystack.length) return false;
  for (let j = 0; j < needle.length; j++) if (haystack[at + j] !== needle[j]) return false;
  return true;
}

/** Where `w` next occurs in `haystack` from `from`, whole, or -1. */
function locate(haystack: Uint8Array, w: (typeof WORDS)[number], from: number, find: FindBytes): number {
  for (let at = find(haystack, w.from, from + w.rare); at !== -1; at = find(haystack, w.from, at + 1)) {
    if (bytesAt(haystack, w.bytes, at - w.rare)) return at - w.rare;
  }
  return -1;
}


/**
 * Where the last `"next"` or `"previous"` of `chunk` ends, one begun in `tail` (the last bytes given out before
 * it, a word's length less one) included; -1 when it holds none.
 */
export function wordEnd(chunk: Uint8Array, tail: Uint8Array, find: FindBytes): number {
  let end = -1;
  for (const w of WORDS) {
    for (let at = locate(chunk, w, 0, find); at !== -1; at = locate(chunk, w, at + 1, find)) end = Math.max(end, at + w.bytes.byteLength);
  }
  if (tail.byteLength === 0 || chunk.byteLength === 0) return end;
  const seam = new Uint8Array(tail.byteLength + Math.min(chunk.byteLength, LONGEST_WORD - 1));
  seam.set(tail);
  seam.set(chunk.subarray(0, seam.byteLength - tail.byteLength), tail.byteLength);
  return WORDS.some((w) => locate(seam, w, 0, findBytes) !== -1) ? Math.max(end, seam.byteLength - tail.byteLength) : end;
}

/** The parts as one array (the part itself when there is one). */
export function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const size = parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
