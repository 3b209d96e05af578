/**
 * What was typed as a base URL is answered with the one fix that applies, quoting what was typed: text in which
 * no host can be read (a file path, "localhost3000", a mistyped scheme, a line break pasted in) "is not a
 * URL"; a host without a scheme "has no scheme" (http:// on loopback, https:// elsewhere); "https:" without
 * its "//" "needs two slashes". A user name or password is never quoted, even split over two lines, and the
 * refusal of one names the URL as given, without them.
 */
import { baseUrlExamples, Session, SpendClient, checkBaseUrl, isLoopbackHost, memoryStorage } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

const KEY = "sk_live_typed_0123456789abcdef";

/** What "Test and save connection" says for what was typed; nothing is stored. */
function said(typed: string): string {
  const storage = memoryStorage();
  try {
    new Session(storage).connect({ baseUrl: typed, enterpriseId: "ent-1", apiKey: KEY });
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    expect(storage.getItem("spendsync.connection")).toBeNull();
    return (e as Error).message;
  }
  throw new Error(`accepted ${typed}`);
}

describe("text in which no host can be read is not a URL, and no fix is made up for it", () => {
  it.each([
    // A Windows path: "C:" reads as a host "c" with an empty port, the rest as a path.
    ["a file path with a space", "C:\\Users\\ana\\Spend Sync.2026.11.25"],
    ["a folder path after a number", "10.Reports\\Spend Sync.11.25"],
    ["a folder path after two numbers", "10.0.Reports\\Spend Sync.25"],
    ["a folder path after three numbers", "10.0.0.Reports\\Spend Sync"],
    ["a tab pasted inside the host", "1.2.3.a\tb"],
    ["localhost with its colon forgotten", "localhost3000/proxy"],
    ["a host only ending in localhost", "my-localhost:3000/proxy"],
    ["a scheme with a letter before it", "xhttps:api.example.com"],
    ["a line break pasted after the host", "https:api.example.com\n/spend"],
    ["a port no server can have", "api.example.com:3000000/spend"],
  ])("%s: %j", (_what, typed) => {
    expect(said(typed)).toBe(`The base URL "${typed}" is not a URL. ${baseUrlExamples()}`);
  });
});

describe("a scheme is what is missing only when it is missing at the start", () => {
  it("a link to a scheme later in the text (a query) does not count as the base URL's scheme", () => {
    expect(said("api.example.com/?back=https://api.example.com")).toBe(
      'The base URL "api.example.com/?back=https://api.example.com" has no scheme: start it with https://, as in https://api.example.com.',
    );
  });

  it("\"http:\" later in the text is not a scheme missing its slashes", () => {
    expect(said("localhost:3000/proxy?from=http:old")).toBe(
      'The base URL "localhost:3000/proxy?from=http:old" has no scheme: start it with http://, as in http://localhost:3000/proxy.',
    );
  });
});

describe("a user name or password is refused, naming the URL as given without them", () => {
  it.each([
    ["https://finance:Hunter2-pass@api.example.com", "https://api.example.com"],
    ["https://finance:Hunter2-pass@api.example.com/", "https://api.example.com"],
    ["https://finance:Hunter2-pass@api.example.com/proxy", "https://api.example.com/proxy"],
    ["http://finance@localhost:3000/proxy/", "http://localhost:3000/proxy/"],
  ])("%s", (typed, shown) => {
    expect(said(typed)).toBe(
      `The base URL must not contain a user name or password (${shown} was given with "name:password@"): the service is reached with the API key only. Remove them and try again.`,
    );
  });

  it("a password split over two lines (pasted) is not quoted, with or without a scheme", () => {
    expect(said("finance:Hunter2\n-pass@localhost:3000/proxy")).toBe(
      'The base URL "localhost:3000/proxy" has no scheme: start it with http://, as in http://localhost:3000/proxy.',
    );
    expect(said("https://finance:Hunter2\n-pass@api example.com")).toBe(`The base URL "https://api example.com" is not a URL. ${baseUrlExamples()}`);
  });
});

describe("loopback as the URL parser leaves it", () => {
  it("localhost written with its trailing dot (the fully qualified name) is still this machine: plain http is allowed", () => {
    expect(checkBaseUrl("http://localhost.:3000/proxy").href).toBe("http://localhost.:3000/proxy");
    const fake = fakeTransport(() => ({ body: {} }));
    const client = new SpendClient({ baseUrl: "http://LOCALHOST.:3100", enterpriseId: "ent-1", apiKey: KEY, transport: fake.transport });
    expect(client.origin).toBe("http://localhost.:3100");
  });
});

describe("isLoopbackHost: a whole 127.x.y.z address, not a name that ends like one", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost.", "LOCALHOST", "[::1]"])("%s is this machine", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["api127.0.0.1", "x.127.0.0.1", "127.0.0.1.example", "127.0.0.1234", "localhost.example"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("what a base URL looks like, as every refusal says (issue 43: it named port 3000 on any port)", () => {
  it.each<[string | undefined, string]>([
    ["http://localhost:3123", "like https://api.example.com, or http://localhost:3123/proxy here (the dev server forwards it to the sandbox; npm start prints it)."],
    ["http://127.0.0.1:41000", "like https://api.example.com, or http://127.0.0.1:41000/proxy here (the dev server forwards it to the sandbox; npm start prints it)."],
    ["https://[::1]:3000", "like https://api.example.com, or https://[::1]:3000/proxy here (the dev server forwards it to the sandbox; npm start prints it)."],
    ["https://addin.example.com", "like https://api.example.com."],
    ["null", "like https://api.example.com."],
    [undefined, "like https://api.example.com."],
  ])("on a page at %s", (origin, ending) => {
    expect(baseUrlExamples(origin)).toBe(`A base URL is where the service's /public/v1/ paths start, ${ending}`);
  });
});

