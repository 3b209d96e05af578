/**
 * Through the gateway, a list's `next` and `previous` links point at the gateway (issue 25: they pointed at
 * the upstream origin). Only those two top-level links, only when they lead under the target's /public/v1/;
 * everything else in the body is relayed byte for byte, however the body is cut into chunks.
 */
import fc from "fast-check";
import { createGateway, type GatewayConfig } from "../../src/gateway";
import { LinkRewriter, rewriteLink } from "../../src/gateway/links";
import { startGateway } from "../../src/gateway/node-server";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { stubUpstream } from "./doubles";

const TARGET = "https://api.example.com/spend";
const GATEWAY = "http://gateway.test";

function through(body: string | Uint8Array[], overrides: Partial<GatewayConfig> = {}, contentType = "application/json; charset=utf-8", method = "GET") {
  const upstream = stubUpstream(() => new Response(typeof body === "string" ? body : new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of body) controller.enqueue(chunk);
      controller.close();
    },
  }), { headers: { "content-type": contentType } }));
  const gateway = createGateway({ target: TARGET, allowOrigins: ["https://addin.example.com"], log: () => undefined, fetch: upstream.fetch, ...overrides });
  const init = method === "GET" ? {} : { method, body: '{"state":"paid"}' };
  return gateway.fetch(new Request(`${GATEWAY}/public/v1/enterprises/e/corporate-cards/?page=2`, { headers: { Authorization: "Api-Key k" }, ...init }));
}

const page = (next: unknown, previous: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ count: 30, next, previous, results: [{ id: "c1", url: `${TARGET}/public/v1/enterprises/e/receipt/1`, next: `${TARGET}/public/v1/x/` }], ...extra });

describe("the links of a list answer", () => {
  it("point at the gateway's own origin, path under /public/v1 and query kept", async () => {
    const res = await through(page(`${TARGET}/public/v1/enterprises/e/corporate-cards/?page=3&page_size=10`, `${TARGET}/public/v1/enterprises/e/corporate-cards/?page=1&page_size=10`));
    const json = await res.json();
    expect(json.next).toBe(`${GATEWAY}/public/v1/enterprises/e/corporate-cards/?page=3&page_size=10`);
    expect(json.previous).toBe(`${GATEWAY}/public/v1/enterprises/e/corporate-cards/?page=1&page_size=10`);
    // A record's own URLs, and a record field named next, are the record's: relayed as sent.
    expect(json.results).toEqual([{ id: "c1", url: `${TARGET}/public/v1/enterprises/e/receipt/1`, next: `${TARGET}/public/v1/x/` }]);
  });

  it("point at the configured public URL when there is one (a gateway behind TLS, or under a path)", async () => {
    const res = await through(page(`${TARGET}/public/v1/enterprises/e/corporate-cards/?page=3`, null), { publicUrl: "https://gw.example.com/spend-gw/" });
    expect((await res.json()).next).toBe("https://gw.example.com/spend-gw/public/v1/enterprises/e/corporate-cards/?page=3");
  });

  it.each([
    ["null", null],
    ["a relative link (the client resolves it against the gateway already)", "/public/v1/enterprises/e/corporate-cards/?page=3"],
    ["another origin", "https://evil.example/spend/public/v1/enterprises/e/corporate-cards/?page=3"],
    ["the target's host outside its prefix", "https://api.example.com/public/v1/enterprises/e/corporate-cards/?page=3"],
    ["the target outside /public/v1", `${TARGET}/admin/?page=3`],
    ["the target with credentials", "https://user:pw@api.example.com/spend/public/v1/x/"],
    ["a number", 3],
  ])("are left as sent when they are %s", async (_what, next) => {
    const body = page(next, null);
    const res = await through(body);
    expect(await res.text()).toBe(body);
  });

  it("are decoded first: an escaped link is rewritten like any other", async () => {
    const body = `{"count":1,"next":"https:\\/\\/api.example.com\\/spend\\/public\\/v1\\/x\\/?page=2","previous":null,"results":[]}`;
    expect((await (await through(body)).json()).next).toBe(`${GATEWAY}/public/v1/x/?page=2`);
  });

  it("are left alone in an answer that is not JSON, and in a PATCH answer", async () => {
    const body = page(`${TARGET}/public/v1/x/?page=3`, null);
    expect(await (await through(body, {}, "text/plain")).text()).toBe(body);
    expect(await (await through(body, {}, "application/json", "PATCH")).text()).toBe(body);
  });

  it("come out right from a body sent a byte at a time", async () => {
    const body = new TextEncoder().encode(page(`${TARGET}/public/v1/x/?page=3&q=caf%C3%A9`, null, { note: "café ☕ next" }));
    const res = await through(Array.from(body, (b) => Uint8Array.of(b)));
    const json = await res.json();
    expect(json.next).toBe(`${GATEWAY}/public/v1/x/?page=3&q=caf%C3%A9`);
    expect(json.note).toBe("café ☕ next");
  });

  it("come out the same however the body is cut into chunks (a byte at a time, inside a link, inside a character)", () => {
    const rewrite = (link: string) => rewriteLink(link, TARGET, GATEWAY);
    const record = fc.record({ id: fc.string(), description: fc.string({ unit: "grapheme" }), next: fc.constant(`${TARGET}/public/v1/y/`) });
    fc.assert(fc.property(
      fc.array(record, { maxLength: 4 }), fc.option(fc.constantFrom(`${TARGET}/public/v1/l/?page=2`, "https://x.example/p", "/rel")), fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
      (results, next, cuts, pretty) => {
        const body = { count: results.length, next, previous: `${TARGET}/public/v1/l/?page=1&q=%C3%A9`, results, tail: { next: `${TARGET}/public/v1/z/` } };
        const bytes = new TextEncoder().encode(JSON.stringify(body, null, pretty ? 2 : undefined));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const rewriter = new LinkRewriter(rewrite);
        const out: Uint8Array[] = [];
        let from = 0;
        for (const cut of [...at, bytes.length]) {
          out.push(rewriter.push(bytes.subarray(from, cut)));
          from = cut;
        }
        out.push(rewriter.end());
        const text = new TextDecoder().decode(Buffer.concat(out));
        const expected = { ...body, next: next === null ? null : (rewrite(next) ?? next), previous: `${GATEWAY}/public/v1/l/?page=1&q=%C3%A9` };
        expect(JSON.parse(text)).toEqual(expected);
      },
    ), { numRuns: 400 });
  });
});

describe("through a gateway on a socket in front of the sandbox", () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await withSandbox();
  });
  afterAll(() => f.sandbox.close());

  it.each(["fast", "fetch"] as const)("on the %s path, a list's next link is the gateway's, and following it through the gateway gives the next page", async (handler) => {
    const gateway = await startGateway({ target: f.sandbox.baseUrl, allowOrigins: ["https://addin.example.com"], log: () => undefined }, { handler });
    try {
      const path = `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/expenses/?page_size=5`;
      const headers = { Authorization: `Api-Key ${f.enterprise.api_key}` };
      const first = await (await fetch(`${gateway.baseUrl}${path}`, { headers })).json();
      expect(first.next).toBe(`${gateway.baseUrl}${path}&page=2`);
      const second = await (await fetch(first.next, { headers })).json();
      expect(second.previous).toBe(`${gateway.baseUrl}${path}&page=1`);
      const direct = await f.call("GET", `${path}&page=2`);
      expect(second.results).toEqual(direct.json.results);
    } finally {
      await gateway.close();
    }
  });
});
