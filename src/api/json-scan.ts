/**
 * A look at a JSON text before JSON.parse builds it: how many elements its top-level `results` array holds
 * and how many values the whole text can hold at most, each counted only up to its limit. JSON.parse of a
 * 3 MB page of 10^6 empty records builds 10^6 objects before anything can count them (issue 25: 1.6 GB of
 * heap for 10^5); counted here first, such a page is refused with nothing built.
 *
 * One pass, without allocating: strings (most of a page's bytes) are skipped with indexOf, and only the
 * structure between them is looked at character by character. It is not a validator: on a text that is not
 * JSON its counts mean nothing, and JSON.parse reports the text afterwards.
 */

export interface JsonShape {
  /** Elements of the largest top-level `results` array (0 when there is none); at most `maxElements + 1` (with `maxElements` ≥ 1). */
  elements: number;
  /**
   * At least the number of values the text holds: every value is the first of its container or follows a
   * comma, so commas + containers + 1 is never less. At most `maxValues + 1`.
   */
  values: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/** Index of the quote that closes the string opening at `start`, or -1 when it is never closed. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** The text of a JSON string literal (`"results"`, or an escaped spelling such as `"r\u0065sults"`). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (raw.indexOf("\\") < 0) return raw;
  try {
    return String(JSON.parse(text.slice(start, end + 1)));
  } catch {
    return raw;
  }
}

/**
 * Counts the elements of the top-level object's `arrayKey` array (every occurrence: JSON.parse keeps the last
 * of repeated keys; null: none) and the values of the whole text, stopping as soon as either passes its limit.
 */
export function scanJson(text: string, arrayKey: string | null, maxElements: number, maxValues: number): JsonShape {
  let depth = 0;
  let values = 1;
  let elements = 0;
  /** The last string seen directly in the top-level object: the key of a container that opens there. */
  let lastKey = "";
  let inArray = false;
  let commas = 0;
  let nonEmpty = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break;
      if (depth === 1) lastKey = keyText(text, i, end);
      else if (inArray && depth === 2) nonEmpty = true;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 1 && c === OPEN_ARRAY && lastKey === arrayKey) {
        inArray = true;
        commas = 0;
        nonEmpty = false;
      } else if (inArray && depth === 2) nonEmpty = true;
      depth++;
      if (++values > maxValues) return { elements, values };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (inArray && depth === 1) {
        elements = Math.max(elements, nonEmpty ? commas + 1 : 0);
        inArray = false;
      }
    } else if (c === COMMA) {
      if (++values > maxValues) return { elements, values };
      if (inArray && depth === 2 && ++commas + 1 > maxElements) return { elements: commas + 1, values };
    } else if (inArray && depth === 2 && c > 32) {
      nonEmpty = true; // a number, true, false or null element
    }
  }
  // An array left open (a text cut short) still counts what it held.
  if (inArray) elements = Math.max(elements, nonEmpty ? commas + 1 : 0);
  return { elements, values };
}
