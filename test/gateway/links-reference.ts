/**
 * The link rewriter as it was before issue 49 (a JSON state machine run byte by byte in JS): the reference the
 * fast one in src/gateway/links.ts is checked against, byte for byte, on random bodies and random chunkings.
 * Kept as it was written, so the rule it embodies cannot drift with the code under test.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The bytes of a link held while it is read; a longer string is relayed untouched (no real link is this long). */
const MAX_LINK_BYTES = 16 * 1024;
/** Longer keys are none of ours: `previous` is 8 bytes (a key is read up to one byte more, enough to tell). */
const MAX_KEY_BYTES = 8;

/** Rewrites a JSON body's top-level `next`/`previous` links chunk by chunk; `end()` gives what is still held. */
export class ReferenceLinkRewriter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key. */
  private expectKey = false;
  /** At depth 1: the key just read, when it may be ours. */
  private key: number[] | null = null;
  /** At depth 1: a ':' was seen and the value has not started. */
  private valueNext = false;
  /** At depth 1: the bytes of the key being read. */
  private keyBytes: number[] | null = null;
  /** The link being read, from its opening quote; null when not holding one. */
  private held: number[] | null = null;

  constructor(private readonly rewrite: (link: string) => string | null) {}

  push(chunk: Uint8Array): Uint8Array {
    const out: Uint8Array[] = [];
    let from = 0; // start of the bytes of this chunk not yet given out nor held
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.held) {
        this.held.push(b);
        if (this.endsString(b)) {
          out.push(this.replacement(this.held));
          this.held = null;
          from = i + 1;
        } else if (this.held.length > MAX_LINK_BYTES) {
          out.push(Uint8Array.from(this.held));
          this.held = null;
          from = i + 1;
          this.keyBytes = null; // relayed as it is; the rest of the string passes through below
        }
        continue;
      }
      if (this.inString) {
        const closed = this.endsString(b);
        if (this.keyBytes && closed) {
          this.key = this.keyBytes;
          this.keyBytes = null;
        } else if (this.keyBytes && this.keyBytes.length <= MAX_KEY_BYTES) this.keyBytes.push(b);
        continue;
      }
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.expectKey = false;
          this.keyBytes = [];
        } else if (this.depth === 1 && this.valueNext && this.isLinkKey()) {
          this.valueNext = false;
          // (`from` is set again where the link ends, in this chunk or the next.)
          out.push(chunk.subarray(from, i));
          this.held = [b];
        } else if (this.depth === 1) this.valueNext = false;
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        this.depth++;
        if (this.depth === 1) {
          // A new top level (only a body that is not well-formed has two): nothing read before it is its key.
          this.expectKey = b === OPEN_OBJECT;
          this.key = null;
          this.valueNext = false;
        } else if (this.depth === 2) this.valueNext = false;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        this.depth--;
        this.valueNext = false;
      } else if (this.depth === 1 && b === COLON) {
        this.valueNext = true;
      } else if (this.depth === 1 && b === COMMA) {
        this.expectKey = true;
        this.key = null;
      } else if (this.depth === 1 && b > 0x20) {
        this.valueNext = false; // a number, true, false or null
      }
    }
    // What follows `from` is given out now, unless it went into a link still being read.
    if (!this.held) out.push(chunk.subarray(from));
    return concat(out);
  }

  /** What is still held at the end of the body (a link cut short): relayed as it came. */
  end(): Uint8Array {
    const rest = this.held ? Uint8Array.from(this.held) : new Uint8Array(0);
    this.held = null;
    return rest;
  }

  /** Whether `b` closes the string being read (and keeps the escape state). */
  private endsString(b: number): boolean {
    if (this.escaped) {
      this.escaped = false;
      return false;
    }
    if (b === BACKSLASH) {
      this.escaped = true;
      return false;
    }
    if (b !== QUOTE) return false;
    this.inString = false;
    return true;
  }

  private isLinkKey(): boolean {
    const key = this.key ? String.fromCharCode(...this.key) : "";
    return key === "next" || key === "previous";
  }

  private replacement(bytes: number[]): Uint8Array {
    const raw = Uint8Array.from(bytes);
    let rewritten: string | null;
    try {
      // A string from its opening quote to its closing one: JSON.parse gives a string, or throws (a bad escape).
      rewritten = this.rewrite(JSON.parse(new TextDecoder().decode(raw)) as string);
    } catch {
      return raw;
    }
    return rewritten === null ? raw : new TextEncoder().encode(JSON.stringify(rewritten));
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
