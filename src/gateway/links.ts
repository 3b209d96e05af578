/**
 * A list answer's `next` and `previous` links name the service's own address; relayed as they are, they would
 * send the add-in round the gateway (and a key to where the add-in was never told to send it, which it
 * refuses). The gateway rewrites them to its own public base URL as the body streams through: only the string
 * values of the top-level keys `next` and `previous`, only when they point under the target's
 * `/public/v1/`, and nothing else in the body, so a description or receipt URL that happens to name the
 * service is relayed as sent. Bytes are scanned, not parsed: JSON's structure is ASCII and UTF-8 never puts
 * an ASCII byte inside a multi-byte character, so a chunk may end anywhere, even inside a character.
 *
 * How it keeps up (issue 49): a link can only follow the literal bytes `"next"` or `"previous"` (a key is compared
 * as sent, escapes not decoded), so a chunk without them, arriving while no key or link is being read, is not
 * scanned at all: it goes out as it came, and is only kept aside (the `deferred` bytes, up to MAX_DEFERRED_BYTES).
 * When a chunk does hold one, the bytes kept aside are scanned first, to know the depth and strings at its
 * start, then the chunk itself; then the scan goes on chunk by chunk until no key or link is open. The search
 * is native where the platform has one (Node passes Buffer's indexOf; elsewhere Uint8Array's indexOf finds a
 * rare byte of each word). So a list page, whose links come before its records, is scanned for a few hundred
 * bytes and searched for the rest. A scan reads depth 1, the envelope, byte by byte; below it (the records)
 * and in any string that is neither a top-level key nor a link, a tight loop looks for nothing but a quote, a
 * backslash (which skips the byte after it) and a bracket. The rule is checked byte for byte against the
 * rewriter as it was (test/gateway/links-reference.ts) on random bodies and chunkings.
 */
import { concat, findBytes, LONGEST_WORD, wordEnd, type FindBytes } from "./link-words";

export type { FindBytes } from "./link-words";
export { rewriteLink } from "./link-target";

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

/** Chunks kept aside unscanned, at most this many bytes (above the largest page, 1.4 MB): past it they are scanned and let go. */
const MAX_DEFERRED_BYTES = 4 * 1024 * 1024;

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
  /** Chunks given out unscanned (none held a key of ours), to be scanned before one that does. */
  private deferred: Uint8Array[] = [];
  private deferredBytes = 0;
  /** The last bytes given out unscanned (a word's length less one), where a word cut by a chunk's end begins. */
  private tail = new Uint8Array(0);

  /** `find`: a native search where there is one (Node: Buffer's indexOf); by default a web-standard one. */
  constructor(private readonly rewrite: (link: string) => string | null, private readonly find: FindBytes = findBytes) {}

  push(chunk: Uint8Array): Uint8Array {
    return concat(this.pushParts(chunk));
  }

  /** What push gives, as the parts to send in turn: the chunk around a rewritten link is not copied (issue 49). */
  pushParts(chunk: Uint8Array): Uint8Array[] {
    const until = wordEnd(chunk, this.tail, this.find);
    if (until < 0 && this.quiet()) {
      this.defer(chunk);
      if (this.deferredBytes > MAX_DEFERRED_BYTES) this.catchUp();
      return [chunk];
    }
    this.catchUp();
    return this.scan(chunk, Math.max(0, until));
  }

  /** No key or link is being read: what follows matters only if it holds a word of ours. */
  private quiet(): boolean {
    return this.held === null && this.keyText === null && !this.linkKey && !this.valueNext;
  }

  /** Gives out `bytes` unscanned, kept aside to be scanned before a chunk that holds a word. */
  private defer(bytes: Uint8Array): void {
    this.deferred.push(bytes);
    this.deferredBytes += bytes.byteLength;
    // The seam with what comes next: the last bytes given out unscanned, of this part and those before it.
    if (bytes.byteLength >= LONGEST_WORD - 1) this.tail = bytes.slice(bytes.byteLength - (LONGEST_WORD - 1));
    else {
      const joined = new Uint8Array(this.tail.byteLength + bytes.byteLength);
      joined.set(this.tail);
      joined.set(bytes, this.tail.byteLength);
      this.tail = joined.slice(Math.max(0, joined.byteLength - (LONGEST_WORD - 1)));
    }
  }

  /** Scans the chunks given out unscanned (nothing in them is rewritten: they hold no key of ours). */
  private catchUp(): void {
    const deferred = this.deferred;
    this.deferred = [];
    for (const chunk of deferred) this.scan(chunk);
    this.deferredBytes = 0;
    this.tail = new Uint8Array(0);
  }

  /** Scans `chunk` up to `until` and on until no key or link is open; the rest is deferred (given out unscanned). */
  private scan(chunk: Uint8Array, until = chunk.length): Uint8Array[] {
    this.parts = [];
    this.from = 0;
    let i = 0;
    while (i < chunk.length) {
      if (i >= until && this.quiet()) {
        this.defer(chunk.subarray(i));
        break;
      }
      if (this.held) i = this.readLink(chunk, i);
      else if (this.keyText !== null) i = this.readKey(chunk, i);
      else if (this.inString) i = this.skipString(chunk, i);
      else if (this.depth === 1) i = this.topLevel(chunk, i);
      else i = this.skipNested(chunk, i);
    }
    // (Nothing changed, the usual case: the chunk itself goes out, not a copy.)
    if (this.parts.length === 0 && !this.held) return [chunk];
    if (!this.held) this.parts.push(chunk.subarray(this.from));
    return this.parts;
  }

  /** What is still held at the end of the body (a link cut short): relayed as it came. */
  end(): Uint8Array {
    this.deferred = [];
    this.deferredBytes = 0;
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
