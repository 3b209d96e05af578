/**
 * `next` links that are not absolute (issue 25: `/admin/…` and `//host` gave a bare "TypeError: Invalid URL"):
 * resolved against the page that gave them, as a browser resolves a link, then held to the same rules as an
 * absolute link (the base URL's origin, no credentials) and to the list's own path. Each refusal is a sentence
 * and nothing is sent where it points.
 */
import { CrossOriginError, PaginationError } from "../../src/api";
import { LIST, listWith } from "./helpers/list-with-next";

describe("a relative next link is an address on the page's own server", () => {
  it.each([
    ["a query only", "?page=2&page_size=2"],
    ["a path from the root", "/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2"],
    ["a path relative to the page", "./?page=2&page_size=2"],
    ["scheme-relative, to the same host", "//spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2"],
  ])("%s is followed there", async (_what, next) => {
    const { load, fake } = listWith(next);
    expect((await load()).map((r) => r.id)).toEqual(["r1", "r2", "r3", "r4"]);
    expect(fake.requests.map((r) => r.url)).toEqual([`${LIST}?page=1&page_size=2`, `${LIST}?page=2&page_size=2`]);
  });
});

describe("one that leads elsewhere is refused with a sentence, and nothing is sent there", () => {
  it("a path off the list (/admin/…)", async () => {
    const { load, fake } = listWith("/admin/users/?page=2");
    const error = await load().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe(
      'Refused to follow the service\'s link to page 2 of corporate cards: "/admin/users/?page=2" leads to /admin/users/, not to this list (/api/public/v1/enterprises/ent-1/corporate-cards/). Loading stopped.',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it("scheme-relative, to another host (//host)", async () => {
    const { load, fake } = listWith("//collector.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2");
    const error = await load().catch((e) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect(error.message).toBe("Refused to follow a link to https://collector.example: the API key is only sent to https://spend.example.");
    expect(fake.requests).toHaveLength(1);
  });

  it("one that is no URL even against the page", async () => {
    const { load, fake } = listWith("http://[not-a-host/page=2");
    const error = await load().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe('Refused to follow the service\'s link to page 2 of corporate cards: "http://[not-a-host/page=2" is not a URL. Loading stopped.');
    expect(fake.requests).toHaveLength(1);
  });

  it("never as a bare TypeError", async () => {
    for (const next of ["/admin/x", "//evil.example/x", "http://[x", "javascript:alert(1)", "mailto:a@b.c"]) {
      const error = await listWith(next).load().catch((e) => e);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^Refused to follow/);
    }
  });
});
