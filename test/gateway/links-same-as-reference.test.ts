/**
 * Issue 49: the link rewriter scans at the speed of a tight loop instead of a byte-by-byte state machine, and
 * the rule stays the one it was. The rewriter as it was (links-reference.ts) is the oracle: on random bodies,
 * well-formed or not, with hostile strings, keys and bytes, cut into chunks anywhere, the bytes the add-in
 * receives are the same, byte for byte. And a link is rewritten however its bytes are split across chunks.
 */
import fc from "fast-check";
import { LinkRewriter, rewriteLink } from "../../src/gateway/links";
import { ReferenceLinkRewriter } from "./links-reference";

const TARGET = "https://api.example.com/spend";
const GATEWAY = "http://gateway.test";
const LINK = `${TARGET}/public/v1/x/?page=2&q=caf%C3%A9`;
const rewrite = (link: string) => rewriteLink(link, TARGET, GATEWAY);
const encode = (text: string) => new TextEncoder().encode(text);

/** The body through a rewriter, cut before each index of `cuts` (all of them: a byte at a time); what comes out, as latin1 text (one char a byte, a readable diff). */
function run(rewriter: { push(chunk: Uint8Array): Uint8Array; end(): Uint8Array }, body: Uint8Array, cuts: number[] | "all"): string {
  const at = cuts === "all" ? Array.from(body, (_, i) => i) : [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...at, body.length]) {
    out.push(rewriter.push(body.slice(from, cut)));
    from = cut;
  }
  out.push(rewriter.end());
  return Buffer.concat(out).toString("latin1");
}

const fast = (body: Uint8Array, cuts: number[] | "all") => run(new LinkRewriter(rewrite), body, cuts);
const reference = (body: Uint8Array, cuts: number[] | "all") => run(new ReferenceLinkRewriter(rewrite), body, cuts);

/** Strings an attacker (or a receipt's description) could send: quotes, backslashes, brackets, keys, links, escapes. */
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.array(fc.constantFrom('"', "\\", "{", "}", "[", "]", ":", ",", "next", "previous", '"next":', LINK, "é", "☕", "\u2028", "/", "\\u0022"), { maxLength: 6 }).map((parts) => parts.join("")),
);
const key = fc.oneof(fc.constantFrom("next", "previous", "count", "results", "nextt", "previou", "Next", "next\\", "n"), hostileText);
const link = fc.constantFrom(LINK, `${TARGET}/public/v1/`, "https://evil.example/spend/public/v1/x/", `${TARGET}/admin/`, "/public/v1/x/", "");

/** A JSON value as an abstract tree: duplicate keys allowed (JSON.stringify cannot write them). */
type Tree = null | boolean | number | string | Tree[] | { entries: [string, Tree][] };
const tree = fc.letrec<{ value: Tree; object: Tree }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<Tree>(null, true, false, 0, -12.5e3), link, hostileText,
    fc.array(tie("value"), { maxLength: 4 }), tie("object"),
  ),
  object: fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }).map((entries) => ({ entries })),
}));

/** Writes a tree as JSON text, with the whitespace `space` gives between tokens (none, spaces, newlines, tabs). */
function write(value: Tree, space: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${space}${value.map((v) => write(v, space)).join(`${space},${space}`)}${space}]`;
  return `{${space}${value.entries.map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${write(v, space)}`).join(`${space},${space}`)}${space}}`;
}

/** Random cuts, or a byte at a time (so that every escape and every key is split somewhere). */
const cuts = fc.oneof(fc.array(fc.nat(), { maxLength: 10 }), fc.constant("all" as const));

describe("the fast rewriter gives the bytes the reference gives", () => {
  it("for well-formed bodies: envelopes with hostile keys, values and nesting, any whitespace, escaped slashes, any chunking", () => {
    let rewritten = 0;
    const envelope = fc.record({
      before: fc.array(fc.tuple(key, tree.value), { maxLength: 3 }),
      next: fc.oneof({ arbitrary: link, weight: 2 }, { arbitrary: tree.value, weight: 1 }),
      previous: fc.oneof({ arbitrary: link, weight: 2 }, { arbitrary: tree.value, weight: 1 }),
      after: fc.array(fc.tuple(key, tree.value), { maxLength: 3 }),
    }).map(({ before, next, previous, after }): Tree => ({ entries: [...before, ["next", next], ["previous", previous], ["results", [{ entries: after }]], ...after] }));
    fc.assert(fc.property(
      fc.oneof(envelope, tree.value), fc.constantFrom("", " ", "\n  ", "\t"), fc.boolean(), cuts,
      (body, space, escapeSlashes, at) => {
        let text = write(body, space);
        // (Outside strings JSON has no slash: escaping every one keeps it well-formed, and makes every link escaped.)
        if (escapeSlashes) text = text.replace(/\//g, "\\/");
        const bytes = encode(text);
        const out = fast(bytes, at);
        expect(out).toBe(reference(bytes, at));
        if (out !== Buffer.from(bytes).toString("latin1")) rewritten++;
      },
    ), { numRuns: 1500 });
    // (The bodies are not all left alone: a generator that never reached a rewrite would prove nothing.)
    expect(rewritten).toBeGreaterThan(300);
  });

  it("for bodies that are not JSON: fragments of it in any order, with raw bytes that are not UTF-8", () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        "{", "}", "[", "]", ":", ",", " ", '"', "\\", '"next"', '"previous"', '{"next":', '"previous":', JSON.stringify(LINK), "null", "1,", '"a"', '"\\\\"', "é",
      ).map(encode),
      hostileText.map((s) => encode(JSON.stringify(s))),
      fc.uint8Array({ minLength: 1, maxLength: 3 }),
    );
    fc.assert(fc.property(fc.array(fragment, { maxLength: 30 }), cuts, (parts, at) => {
      const bytes = Buffer.concat(parts);
      expect(fast(bytes, at)).toBe(reference(bytes, at));
    }), { numRuns: 5000 });
  });

  it("for links about 16 KiB long, the longest held, cut anywhere around that length", () => {
    const prefix = `${TARGET}/public/v1/x/?q=`;
    fc.assert(fc.property(fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.array(fc.integer({ min: 16 * 1024 - 4, max: 16 * 1024 + 16 }), { maxLength: 3 }), (delta, escaped, at) => {
      // An escape right at the limit: the held bytes count a backslash like any other.
      const filler = escaped ? `${"a".repeat(16 * 1024 - prefix.length + delta - 8)}\\"\\\\\\/a` : "a".repeat(16 * 1024 - prefix.length + delta);
      const bytes = encode(`{"next":"${prefix}${filler}","previous":${JSON.stringify(LINK)},"results":[]}`);
      expect(fast(bytes, at)).toBe(reference(bytes, at));
    }), { numRuns: 300 });
  });
});

describe("a link split across chunks", () => {
  const body = `{"count":2,"next":${JSON.stringify(LINK)},"previous":"${LINK.replace(/\//g, "\\/")}","results":[{"next":${JSON.stringify(LINK)},"d":"é\\""}]}`;
  const bytes = encode(body);
  const expected = Buffer.from(encode(
    `{"count":2,"next":${JSON.stringify(rewrite(LINK))},"previous":${JSON.stringify(rewrite(LINK))},"results":[{"next":${JSON.stringify(LINK)},"d":"é\\""}]}`,
  )).toString("latin1");

  it("is rewritten wherever a single cut falls, at every byte of the body", () => {
    const wrong: number[] = [];
    for (let cut = 0; cut <= bytes.length; cut++) if (fast(bytes, [cut]) !== expected) wrong.push(cut);
    expect(wrong).toEqual([]);
    expect(fast(bytes, [])).toBe(expected);
  });

  it("is rewritten wherever two cuts fall in and around the keys and links, and a byte at a time", () => {
    const start = body.indexOf('"next"');
    const end = body.indexOf('"results"');
    const wrong: number[][] = [];
    for (let a = start; a <= end; a++) {
      for (let b = a; b <= end; b++) if (fast(bytes, [a, b]) !== expected) wrong.push([a, b]);
    }
    expect(wrong).toEqual([]);
    expect(fast(bytes, "all")).toBe(expected);
  });
});
