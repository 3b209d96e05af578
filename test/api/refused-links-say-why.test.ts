/**
 * A link the key may not follow is refused before anything is sent, in a sentence that says which rule it
 * broke and quotes the link cut to a readable length (80 characters of the link, 120 of a path): one that is
 * not a URL, one with a user name (with or without a password), one that leaves the list.
 */
import { CrossOriginError, PaginationError, SpendClient, checkLinkOrigin } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";
import { BASE, listWith } from "./helpers/list-with-next";

const ORIGIN = "https://spend.example";

/** listWith's list, whose load gives the error it ends with (a load that succeeds fails the test). */
function refusing(next: string) {
  const { load, fake } = listWith(next);
  return { load: () => load().then(() => { throw new Error("loaded"); }, (e: unknown) => e), fake };
}

describe("a link that is not a URL", () => {
  it("is refused with its text quoted, and no origin to blame", () => {
    const error = (() => {
      try {
        checkLinkOrigin("next page please", ORIGIN);
      } catch (e) {
        return e as CrossOriginError;
      }
      throw new Error("followed");
    })();
    expect(error).toBeInstanceOf(CrossOriginError);
    expect(error.message).toBe('Refused to follow a link that is not a URL: "next page please".');
    expect(error.refusedOrigin).toBe("");
  });

  it("a long one is quoted by its first 80 characters, and nothing is sent", async () => {
    const fake = fakeTransport(() => ({ body: {} }));
    const c = new SpendClient({ baseUrl: BASE, enterpriseId: "ent-1", apiKey: "sk_test_refused_links", transport: fake.transport });
    const link = `page-two-of-the-cards/${"x".repeat(100)}`;
    const error = await c.getText(link).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect((error as Error).message).toBe(`Refused to follow a link that is not a URL: "${link.slice(0, 80)}".`);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("a link with a user name in it, on the right origin", () => {
  it.each([
    ["a user name alone", "https://someone@spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2"],
    ["a password alone", "https://:pw@spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2"],
    ["both", "https://someone:pw@spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2"],
  ])("%s: refused, and page 2 is not asked for", async (_what, next) => {
    const { load, fake } = refusing(next);
    const error = await load();
    expect(error).toBeInstanceOf(CrossOriginError);
    expect((error as CrossOriginError).message).toBe(
      "Refused to follow a link with a user name or password in it: the API key is only sent to https://spend.example.",
    );
    expect((error as CrossOriginError).refusedOrigin).toBe(ORIGIN);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("a long link is quoted cut short", () => {
  it("one that leaves the list: 80 characters of the link, 120 of the path it leads to", async () => {
    const path = `/admin/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(60)}/`;
    const { load, fake } = refusing(`${path}?page=2`);
    const error = await load();
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(
      `Refused to follow the service's link to page 2 of corporate cards: "${path.slice(0, 80)}" leads to ${path.slice(0, 120)}, ` +
      "not to this list (/api/public/v1/enterprises/ent-1/corporate-cards/). Loading stopped.",
    );
    expect(fake.requests).toHaveLength(1);
  });

  it("one that is no URL even against the page: 80 characters", async () => {
    const next = `http://[not-a-host/${"p".repeat(100)}`;
    const { load } = refusing(next);
    expect(((await load()) as Error).message).toBe(
      `Refused to follow the service's link to page 2 of corporate cards: "${next.slice(0, 80)}" is not a URL. Loading stopped.`,
    );
  });
});
