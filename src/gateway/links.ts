/**
 * A list answer's `next` and `previous` links name the service's own address; relayed as they are, they would
 * send the add-in round the gateway (and a key to where the add-in was never told to send it, which it
 * refuses). The gateway rewrites them to its own public base URL as the body streams through: only the string
 * values of the top-level keys `next` and `previous`, only when they point under the target's
 * `/public/v1/`, and nothing else in the body, so a description or receipt URL that happens to name the
 * service is relayed as sent. Bytes are scanned, not parsed: JSON's structure is ASCII and UTF-8 never puts
 * an ASCII byte inside a multi-byte character, so a chunk may end anywhere, even inside a character.
 *
 * How it keeps up (issue 49: a byte-by-byte state machine scanned at ~120 MB/s, a few ms of the gateway's one
 * thread per 1,000-record page): the rule only looks at depth 1, the envelope's few bytes, and those are read
 * byte by byte as before. Everything below depth 1 (the records, nearly the whole page) and every string that
 * is neither a top-level key nor a link is only skipped: a tight loop with its state in locals that looks for
 * nothing but a quote, a backslash (which skips the byte after it) and a bracket, until depth 1 comes back.
 * A chunk with no link in it goes out as it came (no copy). The web-standard handler has no native multi-byte
 * search (Buffer is Node's), so the scan is JS; the rule is checked byte for byte against the rewriter as it
 * was (test/gateway/links-reference.ts) on random bodies and chunkings.
 */
import { FORWARDED_PREFIX } from "./limits";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The bytes of a link held while it is read; a longer string is relayed untouched (no real link is this long). */
const MAX_LINK_BYTES = 16 * 1024;
/** Longer keys are none of ours: `previous` is 8 bytes (a key is read up to one byte more, enough to tell). */
const MAX_KEY_BYTES = 8;
/** Shared: a decode without `stream` keeps no state between calls. */
const DECODER = new TextDecoder();
const ENCODER = new TextEncoder();

/** `link` on the gateway instead of the service, or null when it does not point under the target's /public/v1/. */
export function rewriteLink(link: string, target: string, publicBase: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(link);
    base = new URL(target);
  } catch {
    return null;
  }
  // (The target is checked: no trailing slash, but for the bare origin's `/`.)
  const prefix = base.pathname.replace(/\/$/, "");
  if (url.origin !== base.origin || url.username || url.password || !url.pathname.startsWith(`${prefix}${FORWARDED_PREFIX}/`)) return null;
  return `${publicBase}${url.pathname.slice(prefix.length)}${url.search}${url.hash}`;
}

/** Rewrites a JSON body's top-level `next`/`previous` links chunk by chunk; `end()` gives what is still held. */
export class LinkRewriter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key. */
  private expectKey = false;
  /** At depth 1: the key just read is `next` or `previous` (its raw bytes, escapes not decoded). */
  private linkKey = false;
  /** At depth 1: a ':' was seen and the value has not started. */
  private valueNext = false;
  /** At depth 1: the raw bytes of the key being read, while it may still be ours. */
  private keyText: string | null = null;
  /** The link being read, from its opening quote; null when not holding one. */
  private held: Uint8Array[] | null = null;
  private heldBytes = 0;
  /** What this push gives out so far, and where the bytes of its chunk not yet given out nor held start. */
  private parts: Uint8Array[] = [];
  private from = 0;

  constructor(private readonly rewrite: (link: string) => string | null) {}

  push(chunk: Uint8Array): Uint8Array {
    this.parts = [];
    this.from = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.held) i = this.readLink(chunk, i);
      else if (this.keyText !== null) i = this.readKey(chunk, i);
      else if (this.inString) i = this.skipString(chunk, i);
      else if (this.depth === 1) i = this.topLevel(chunk, i);
      else i = this.skipNested(chunk, i);
    }
    // (Nothing changed, the usual case: the chunk itself goes out, not a copy.)
    if (this.parts.length === 0 && !this.held) return chunk;
    if (!this.held) this.parts.push(chunk.subarray(this.from));
    return concat(this.parts);
  }

  /** What is still held at the end of the body (a link cut short): relayed as it came. */
  end(): Uint8Array {
    const rest = this.held ? concat(this.held) : new Uint8Array(0);
    this.held = null;
    return rest;
  }

  /** Depth 1 outside a string, byte by byte (the envelope's few bytes): until a string starts or the depth changes. */
  private topLevel(chunk: Uint8Array, i: number): number {
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === QUOTE) {
        this.inString = true;
        if (this.expectKey) {
          this.expectKey = false;
          this.keyText = "";
        } else if (this.valueNext && this.linkKey) {
          this.parts.push(chunk.subarray(this.from, i));
          this.held = [Uint8Array.of(QUOTE)];
          this.heldBytes = 1;
          this.valueNext = false;
        } else this.valueNext = false;
        return i + 1;
      }
      const bracket = b | 0x20; // `[` and `{`, `]` and `}`, differ by that bit only
      if (bracket === OPEN_OBJECT || bracket === CLOSE_OBJECT) {
        this.depth = bracket === OPEN_OBJECT ? 2 : 0;
        this.valueNext = false;
        return i + 1;
      }
      if (b === COLON) this.valueNext = true;
      else if (b === COMMA) {
        this.expectKey = true;
        this.linkKey = false;
      } else if (b > 0x20) this.valueNext = false; // a number, true, false or null
    }
    return i;
  }

  /**
   * Outside depth 1 (inside a record, almost all of a page): only brackets and strings count, so a tight loop
   * runs over the bytes until depth 1 comes back, with the strings in it skipped inline.
   */
  private skipNested(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    let depth = this.depth;
    while (i < n) {
      const b = chunk[i++];
      if (b === QUOTE) {
        while (i < n) {
          const s = chunk[i];
          if (s === QUOTE) break;
          i += s === BACKSLASH ? 2 : 1;
        }
        if (i >= n) {
          // The string goes on in the next chunk (after an escape when a backslash was the last byte).
          this.depth = depth;
          this.inString = true;
          this.escaped = i > n;
          return n;
        }
        i++;
        continue;
      }
      const bracket = b | 0x20;
      if (bracket === OPEN_OBJECT) {
        if (++depth === 1) {
          // A new top level (only a body that is not well-formed has two): nothing read before it is its key.
          this.expectKey = b === OPEN_OBJECT;
          this.linkKey = false;
          this.valueNext = false;
          break;
        }
      } else if (bracket === CLOSE_OBJECT && --depth === 1) break;
    }
    this.depth = depth;
    return i;
  }

  /** Inside a string that is neither a top-level key nor a link: to its closing quote. */
  private skipString(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    while (i < n) {
      const b = chunk[i];
      if (b === QUOTE) {
        this.inString = false;
        return i + 1;
      }
      i += b === BACKSLASH ? 2 : 1;
    }
    this.escaped = i > n;
    return n;
  }

  /** A top-level key, its raw bytes kept while it may be `next` or `previous`; a longer one is skipped as any string. */
  private readKey(chunk: Uint8Array, i: number): number {
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        this.linkKey = this.keyText === "next" || this.keyText === "previous";
        this.keyText = null;
        return i + 1;
      }
      const key = `${this.keyText}${String.fromCharCode(b)}`;
      this.keyText = key;
      if (key.length > MAX_KEY_BYTES) {
        this.linkKey = false;
        this.keyText = null;
        return i + 1;
      }
    }
    return i;
  }

  /** The link being held, to its closing quote (then rewritten) or to MAX_LINK_BYTES (then relayed as it came). */
  private readLink(chunk: Uint8Array, i: number): number {
    const held = this.held!;
    const room = MAX_LINK_BYTES - this.heldBytes;
    let escaped = this.escaped;
    for (let j = i; j < chunk.length; j++) {
      const b = chunk[j];
      let closed = false;
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else closed = b === QUOTE;
      if (closed || j - i + 1 > room) {
        held.push(chunk.slice(i, j + 1));
        this.parts.push(closed ? this.replacement(concat(held)) : concat(held));
        // (Cut short, the rest of the string passes through as any string.)
        this.inString = !closed;
        this.escaped = escaped;
        this.held = null;
        this.from = j + 1;
        return j + 1;
      }
    }
    held.push(chunk.slice(i));
    this.heldBytes += chunk.length - i;
    this.escaped = escaped;
    return chunk.length;
  }

  private replacement(raw: Uint8Array): Uint8Array {
    let rewritten: string | null;
    try {
      // A string from its opening quote to its closing one: JSON.parse gives a string, or throws (a bad escape).
      rewritten = this.rewrite(JSON.parse(DECODER.decode(raw)) as string);
    } catch {
      return raw;
    }
    return rewritten === null ? raw : ENCODER.encode(JSON.stringify(rewritten));
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
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
