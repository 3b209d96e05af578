/**
 * Issue 49: the gateway rewrites a plain link (ids, page numbers) without parsing it as a URL, and sends the
 * rewritten page as parts (the chunk around the link is not copied). Either way a caller must read what the
 * URL parser, and the rewriter's one-array output, would have given: any link the parser would change (a dot
 * segment, an escape, a fragment, a bare `?`, another case or port) is still rewritten as the parser reads it.
 */
import fc from "fast-check";
import { LinkRewriter, rewriteLink } from "../../src/gateway/links";

const GATEWAY = "http://gateway.test";

/** The rule as it was, every link through the URL parser. */
function byParser(link: string, target: string, publicBase: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(link);
    base = new URL(target);
  } catch {
    return null;
  }
  const prefix = base.pathname.replace(/\/$/, "");
  if (url.origin !== base.origin || url.username || url.password || !url.pathname.startsWith(`${prefix}/public/v1/`)) return null;
  return `${publicBase}${url.pathname.slice(prefix.length)}${url.search}${url.hash}`;
}

const TARGETS = ["http://127.0.0.1:40021", "https://api.example.com/spend"];

describe("a list link rewritten without parsing it", () => {
  it.each(TARGETS)("is what the URL parser reads, for links it would change (target %s)", (target) => {
    const links = [
      "/public/v1/expenses/?page=2&page_size=100",
      "/public/v1/expenses/?",
      "/public/v1/expenses/?page=2#top",
      "/public/v1/a/../../x",
      "/public/v1/a/./b",
      "/public/v1/a/%2e%2e/%2E%2E/x",
      "/public/v1/a b/?q=c d",
      "/public/v1/a\\b",
      "/public/v1/a/\t/b",
      "/public/v1/café/?q=é",
      "/public/v1/a/?q=<x>&r=\"",
      "/public/v1",
      "/public/v12/x",
    ].map((rest) => `${target}${rest}`);
    const origin = new URL(target).origin;
    const path = target.slice(origin.length);
    links.push(`${origin.toUpperCase()}${path}/public/v1/x/`, `${origin.replace("://", "://user:pw@")}${path}/public/v1/x/`);
    if (origin.startsWith("https:")) links.push(`${origin}:443${path}/public/v1/x/?page=3`);
    for (const link of links) expect([link, rewriteLink(link, target, GATEWAY)]).toEqual([link, byParser(link, target, GATEWAY)]);
  });

  it("is what the URL parser reads, for any path and query", () => {
    const part = fc.string({ unit: fc.constantFrom(..."aZ09-_~/?=&.%2eE#\\ \té\"<>"), maxLength: 30 });
    fc.assert(fc.property(fc.constantFrom(...TARGETS), part, (target, rest) => {
      const link = `${target}/public/v1/${rest}`;
      expect(rewriteLink(link, target, GATEWAY)).toBe(byParser(link, target, GATEWAY));
    }), { numRuns: 3000 });
  });
});

describe("a rewritten page given out in parts", () => {
  it("is, part after part, the bytes the rewriter gives as one array, however the body is cut", () => {
    const target = TARGETS[1];
    const rewrite = (link: string) => rewriteLink(link, target, GATEWAY);
    fc.assert(fc.property(
      fc.array(fc.record({ id: fc.uuid(), next: fc.constant(`${target}/public/v1/y/`) }), { maxLength: 3 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (results, cuts) => {
        const body = { count: results.length, next: `${target}/public/v1/l/?page=3`, previous: `${target}/public/v1/l/?page=1`, results };
        const bytes = new TextEncoder().encode(JSON.stringify(body));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const [whole, parts] = [new LinkRewriter(rewrite), new LinkRewriter(rewrite)];
        const one: Uint8Array[] = [];
        const many: Uint8Array[] = [];
        let from = 0;
        for (const cut of [...at, bytes.length]) {
          one.push(whole.push(bytes.subarray(from, cut)));
          many.push(...parts.pushParts(bytes.subarray(from, cut)));
          from = cut;
        }
        one.push(whole.end());
        many.push(parts.end());
        const text = Buffer.concat(many).toString();
        expect(text).toBe(Buffer.concat(one).toString());
        expect(JSON.parse(text)).toEqual({ ...body, next: `${GATEWAY}/public/v1/l/?page=3`, previous: `${GATEWAY}/public/v1/l/?page=1` });
      },
    ), { numRuns: 400 });
  });
});
