/**
 * Strict decoding of a JSON request body: UTF-8 only (a bad byte is refused, not replaced), nesting
 * bounded before anything recursive touches it, and no duplicate keys (`{"state":"accounted","state":"paid"}`
 * would otherwise mean whichever one JSON.parse kept).
 */

/** Deepest nesting of arrays and objects accepted; a PATCH body needs 1. */
const MAX_JSON_DEPTH = 32;

export type Decoded = { ok: true; value: unknown } | { ok: false; message: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeJson(bytes: Uint8Array): Decoded {
  let text: string;
  try {
    text = utf8.decode(bytes); // a leading BOM is dropped, as RFC 8259 lets a parser do
  } catch {
    return { ok: false, message: "The request body is not valid UTF-8." };
  }
  const scan = scanStructure(text);
  if (scan === "too-deep") return { ok: false, message: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "The request body is not valid JSON." };
  }
  if (scan !== null) return { ok: false, message: `The request body repeats the key ${scan}.` };
  return { ok: true, value };
}

/**
 * One iterative pass over the text: "too-deep" when nesting passes the limit (checked before JSON.parse
 * so no recursion ever sees it), else the first repeated key of an object (quoted, shortened) or null.
 * On text that is not JSON the answer only matters for depth; JSON.parse reports the rest.
 */
function scanStructure(text: string): "too-deep" | string | null {
  // One frame per open container: the keys seen so far for an object, null for an array.
  const frames: (Set<string> | null)[] = [];
  let expectKey = false;
  let duplicate: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      const top = frames[frames.length - 1];
      if (expectKey && top && duplicate === null) {
        const key = decodeKey(text.slice(i, end + 1));
        if (top.has(key)) duplicate = JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
        top.add(key);
      }
      expectKey = false;
      i = end;
    } else if (ch === "{" || ch === "[") {
      frames.push(ch === "{" ? new Set() : null);
      if (frames.length > MAX_JSON_DEPTH) return "too-deep";
      expectKey = ch === "{";
    } else if (ch === "}" || ch === "]") {
      frames.pop();
      expectKey = false;
    } else if (ch === ",") {
      expectKey = frames[frames.length - 1] instanceof Set;
    }
  }
  return duplicate;
}

/** Index of the closing quote of the string opening at `start` (or the last index if unterminated). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** `"\u0073tate"` and `"state"` are the same key. */
function decodeKey(quoted: string): string {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted;
  }
}
