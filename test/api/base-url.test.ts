/** Where the key may go: the base URL (https, or http on loopback; no credentials) and the links it follows. */
import { inspect } from "node:util";
import { baseUrlExamples, CrossOriginError, Session, SpendClient, isLoopbackHost, listCards, memoryStorage } from "../../src/api";
import { fakeTransport, pageOf } from "../support/fake-transport";

const KEY = "sk_live_0123456789abcdef";
const make = (baseUrl: string) => new SpendClient({ baseUrl, enterpriseId: "ent-1", apiKey: KEY, transport: fakeTransport(() => ({ body: {} })).transport });

describe("a base URL with a user name or password", () => {
  it.each([
    "https://finance:Hunter2-pass@api.example.com",
    "https://finance:Hunter2-pass@api.example.com/proxy",
    "http://finance:Hunter2-pass@localhost:3000/proxy",
    "https://:Hunter2-pass@api.example.com",
  ])("%s is refused, and the message quotes no password", (url) => {
    const error = (() => {
      try {
        make(url);
      } catch (e) {
        return e as Error;
      }
      throw new Error("accepted");
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^The base URL must not contain a user name or password/);
    expect(`${error.message} ${error.stack} ${inspect(error)}`).not.toContain("Hunter2");
  });

  it("a user name alone is refused too", () => {
    expect(() => make("https://finance@api.example.com")).toThrow(/must not contain a user name or password/);
  });

  it("is never stored by a session", () => {
    const storage = memoryStorage();
    const session = new Session(storage);
    expect(() => session.connect({ baseUrl: "https://finance:Hunter2-pass@api.example.com", enterpriseId: "e", apiKey: KEY })).toThrow(TypeError);
    expect(storage.getItem("spendsync.connection")).toBeNull();
  });

  it("a URL that does not parse is quoted without what sits before an @", () => {
    expect(() => make("https://finance:Hunter2 pass@api example.com")).toThrow(`The base URL "https://api example.com" is not a URL. ${baseUrlExamples()}`);
  });
});

describe("plain http", () => {
  it.each(["http://localhost:3000/proxy", "http://127.0.0.1:3100", "http://127.8.9.10", "http://[::1]:3100", "http://LOCALHOST", "http://127.1:3100"])(
    "is allowed on loopback: %s", (url) => {
      expect(make(url).origin).toMatch(/^http:\/\//);
    });

  it.each(["http://api.example.com", "http://10.0.0.5:3100", "http://128.0.0.1", "http://localhost.example.com", "http://[::2]", "http://127.0.0.1.nip.io"])(
    "is refused elsewhere: %s", (url) => {
      expect(() => make(url)).toThrow(/^The base URL must start with https:\/\/; http:\/\/ is only for a local sandbox or the dev proxy/);
    });

  it("https is allowed anywhere; other schemes nowhere", () => {
    expect(make("https://api.example.com:8443/x").origin).toBe("https://api.example.com:8443");
    expect(() => make("ftp://api.example.com")).toThrow(/must start with https:\/\//);
    expect(isLoopbackHost("127.255.255.255")).toBe(true);
    expect(isLoopbackHost("example.com")).toBe(false);
  });
});

describe("a next link is followed with the key only on the same origin: scheme, host and port", () => {
  const base = "https://spend.example/api";
  it.each([
    ["the same host over http", "http://spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2", "http://spend.example"],
    ["the same host on another port", "https://spend.example:8443/api/public/v1/enterprises/ent-1/corporate-cards/?page=2", "https://spend.example:8443"],
    ["a sub-domain", "https://evil.spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2", "https://evil.spend.example"],
  ])("%s is refused before anything is sent there", async (_what, next, origin) => {
    const fake = fakeTransport((r) => ({ body: { count: null, next, previous: null, results: pageOf(r.url, 4).results } }));
    const c = new SpendClient({ baseUrl: base, enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport });
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect(error.refusedOrigin).toBe(origin);
    expect(fake.requests.map((r) => r.url)).toEqual(["https://spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=1&page_size=2"]);
  });

  it("a link with credentials on the same origin is refused", async () => {
    const next = "https://someone:pw@spend.example/api/public/v1/enterprises/ent-1/corporate-cards/?page=2";
    const fake = fakeTransport((r) => ({ body: { count: null, next, previous: null, results: pageOf(r.url, 4).results } }));
    const c = new SpendClient({ baseUrl: base, enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport });
    await expect(listCards(c, {}, { pageSize: 2 }).all()).rejects.toBeInstanceOf(CrossOriginError);
    expect(fake.requests).toHaveLength(1);
  });

  it("the default port written out is the same origin, and is followed", async () => {
    const fake = fakeTransport((r) => {
      const page = Number(new URL(r.url).searchParams.get("page"));
      return { body: { count: null, next: page === 1 ? "https://spend.example:443/api/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=2" : null, previous: null, results: pageOf(r.url, 4).results } };
    });
    const c = new SpendClient({ baseUrl: base, enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport });
    expect((await listCards(c, {}, { pageSize: 2 }).all()).map((x) => x.id)).toEqual(["r1", "r2", "r3", "r4"]);
  });
});
