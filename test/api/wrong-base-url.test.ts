/**
 * Messages that point to the fix (issue 24): a base URL with nothing of the service behind it is named as the
 * thing to fix, with what was typed and what a base URL looks like; a missing id stays "check the ids"; a
 * missing scheme is named as such. Real HTTP servers on loopback (a web server's HTML 404, another API's JSON,
 * the sandbox itself), reached the way the taskpane's "Test and save connection" reaches them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  baseUrlExamples, BaseUrlError, NotFoundError, Session, SpendClient, getExpense, listCards, listExpenses, memoryStorage,
} from "../../src/api";
import { explain } from "../../src/taskpane/messages";
import { fakeTransport } from "../support/fake-transport";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

const KEY = "sk_live_wrongbase_0123456789";
const ENTERPRISE = "3b51ab9b-21f7-47ac-bc62-95a0c0fd3851";

let f: SandboxFixture;
const servers: Server[] = [];
beforeAll(async () => {
  f = await withSandbox();
});
afterAll(async () => {
  await f.sandbox.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** A web server that answers 404 to every request, as a proxy or a dev server does at a path it does not serve. */
async function answering404(type: string | null, body: (path: string, auth: string) => string): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(404, type ? { "Content-Type": type } : {});
    res.end(body(req.url ?? "", String(req.headers.authorization ?? "")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the taskpane does with "Test and save connection": connect, read the first page of cards, explain a failure. */
async function testConnection(baseUrl: string, enterpriseId = ENTERPRISE, apiKey = KEY): Promise<{ error: unknown; said: string }> {
  const session = new Session(memoryStorage());
  try {
    const client = session.connect({ baseUrl, enterpriseId, apiKey });
    await listCards(client, {}, { pageSize: 1 }).pages().next();
  } catch (error) {
    return { error, said: explain(error) };
  }
  throw new Error("connected");
}

describe("a base URL with no service behind it: the connection test names the base URL", () => {
  it("a web server's HTML 404 (the dev server at http://…/proxi): what was typed, why, and what a base URL looks like", async () => {
    const origin = await answering404("text/html; charset=utf-8", (path) => `<!DOCTYPE html><html><body><pre>Cannot GET ${path}</pre></body></html>`);
    const { error, said } = await testConnection(`${origin}/proxi`);
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(said).toBe(
      `The base URL looks wrong: nothing at ${origin}/proxi answers as the Spend Sync service. Every enterprise has a list of corporate cards, ` +
      `but the request for page 1 of the corporate cards answered 404 Not Found, with an HTML page rather than ` +
      "the service's JSON error. A base URL is where the service's /public/v1/ paths start, like https://api.example.com.",
    );
    expect(said).not.toMatch(/check the ids/);
  });

  it.each<[string, string | null, string]>([
    ["plain text", "text/plain", "not found"],
    ["JSON that is not the service's", "application/json", '{"detail":"Not found."}'],
    ["an empty answer", null, ""],
  ])("%s: named as such, the base URL blamed", async (kind, type, body) => {
    const origin = await answering404(type, () => body);
    const { error, said } = await testConnection(origin);
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(said).toBe(
      `The base URL looks wrong: nothing at ${origin} answers as the Spend Sync service. Every enterprise has a list of corporate cards, ` +
      `but the request for page 1 of the corporate cards answered 404 Not Found, with ${kind} rather than ` +
      `the service's JSON error. ${baseUrlExamples()}`,
    );
  });

  it("the sandbox under a wrong prefix answers its own JSON 404: still the base URL, quoting what the server said", async () => {
    const { error, said } = await testConnection(`${f.sandbox.baseUrl}/proxi`, f.enterprise.id, f.enterprise.api_key);
    expect(error).toBeInstanceOf(BaseUrlError);
    const path = `/proxi/public/v1/enterprises/${f.enterprise.id}/corporate-cards/`;
    expect(said).toBe(
      `The base URL looks wrong: nothing at ${f.sandbox.baseUrl}/proxi answers as the Spend Sync service. Every enterprise has a list of ` +
      `corporate cards, but the request for page 1 of the corporate cards answered 404 Not Found. The server said: "No endpoint for GET ${path} ` +
      `(see api-spec.md section 4)." ${baseUrlExamples()}`,
    );
  });

  it("a base URL that already holds /public/v1 is told to leave it out", async () => {
    const { said } = await testConnection(`${f.sandbox.baseUrl}/public/v1`, f.enterprise.id, f.enterprise.api_key);
    expect(said).toContain(" Leave out /public/v1 and what follows it: the add-in adds those paths itself. A base URL is where");
  });

  it("the right base URL connects; a wrong key there is still the key's message, not the base URL's", async () => {
    const client = new Session(memoryStorage()).connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    expect((await listCards(client, {}, { pageSize: 1 }).pages().next()).value?.count).toBeGreaterThan(0);
    const { said } = await testConnection(f.sandbox.baseUrl, f.enterprise.id, "sk_wrong_key_42");
    expect(said).toMatch(/^The API key was refused for enterprise /);
  });

  it("the key never appears, even when the server's answer or the base URL quotes it", async () => {
    const echoing = await answering404("application/json", (_path, auth) => JSON.stringify({ status: 404, error: `no such thing for ${auth}` }));
    const { said } = await testConnection(`${echoing}/x`);
    expect(said).toContain(`The server said: "no such thing for Api-Key [redacted]"`);
    const html = await answering404("text/html", (_path, auth) => `<p>${auth}</p>`);
    const typedWithKey = await testConnection(`${html}/${KEY}`);
    expect(typedWithKey.said).toContain(`nothing at ${html}/[redacted] answers`);
    for (const text of [said, typedWithKey.said]) expect(text).not.toContain(KEY);
  });
});

describe("after a good connection, the service's own 404 is about the ids", () => {
  const client = () => new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });

  it("an unknown subsidiary or record: NotFoundError, 'check the ids' with the service's words", async () => {
    const sub = "00000000-0000-4000-8000-000000000000";
    const list = await listExpenses(client(), sub).all().catch((e: unknown) => e);
    expect(list).toBeInstanceOf(NotFoundError);
    expect(explain(list)).toBe(`Not found: check the ids (subsidiary, card, billing period, record). The service said: "${(list as NotFoundError).serverMessage}"`);
    expect((list as NotFoundError).serverMessage).toMatch(/Subsidiary .* not found/);
    const record = await getExpense(client(), f.enterprise.subsidiaries[0], sub).catch((e: unknown) => e);
    expect(record).toBeInstanceOf(NotFoundError);
  });

  it("an HTML 404 on any other path blames the base URL too: the service never answers a 404 that way", async () => {
    const origin = await answering404("text/html", () => "<h1>404</h1>");
    const c = new SpendClient({ baseUrl: origin, enterpriseId: ENTERPRISE, apiKey: KEY });
    const error = await getExpense(c, "sub-1", "exp-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(explain(error)).toBe(
      `The base URL looks wrong: nothing at ${origin} answers as the Spend Sync service. The request for expense exp-1 of subsidiary sub-1 ` +
      `answered 404 Not Found, with an HTML page rather than the service's JSON error. ${baseUrlExamples()}`,
    );
  });

  it("page 2 of the card list answering the service's 404 is a page that went away, not a wrong base URL", async () => {
    const t = fakeTransport(() => ({ status: 404, body: { status: 404, error: "Invalid page." } }));
    const c = new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: ENTERPRISE, apiKey: KEY, transport: t.transport });
    const error = await c.getText(c.url("corporate-cards/", { page: 2, page_size: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const first = await c.getText(c.url("corporate-cards/", { page: 1, page_size: 1 })).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(BaseUrlError);
  });
});

describe("a base URL without a scheme is named as such, with what was typed", () => {
  it.each([
    ["localhost:3000/proxy", 'The base URL "localhost:3000/proxy" has no scheme: start it with http://, as in http://localhost:3000/proxy.'],
    ["  127.0.0.1:3100 ", 'The base URL "127.0.0.1:3100" has no scheme: start it with http://, as in http://127.0.0.1:3100.'],
    ["[::1]:3100", 'The base URL "[::1]:3100" has no scheme: start it with http://, as in http://[::1]:3100.'],
    ["api.example.com", 'The base URL "api.example.com" has no scheme: start it with https://, as in https://api.example.com.'],
    ["api.example.com/spend", 'The base URL "api.example.com/spend" has no scheme: start it with https://, as in https://api.example.com/spend.'],
    ["//localhost:3000/proxy", 'The base URL "//localhost:3000/proxy" has no scheme: start it with http://, as in http://localhost:3000/proxy.'],
    ["http:/localhost:3000/proxy", 'The base URL "http:/localhost:3000/proxy" needs two slashes after its scheme: http://localhost:3000/proxy.'],
    ["https:api.example.com", 'The base URL "https:api.example.com" needs two slashes after its scheme: https://api.example.com.'],
    ["3000/proxy", `The base URL "3000/proxy" is not a URL. ${baseUrlExamples()}`],
    ["C:\\spend", `The base URL "C:\\spend" is not a URL. ${baseUrlExamples()}`],
    ["", `The base URL is empty. ${baseUrlExamples()}`],
  ])("%j", (typed, message) => {
    const storage = memoryStorage();
    expect(() => new Session(storage).connect({ baseUrl: typed, enterpriseId: ENTERPRISE, apiKey: KEY })).toThrow(new TypeError(message));
    expect(storage.getItem("spendsync.connection")).toBeNull();
  });

  it("never quotes a scheme that was not typed, nor a password or the key that was", () => {
    const said = (typed: string) => {
      try {
        new SpendClient({ baseUrl: typed, enterpriseId: ENTERPRISE, apiKey: KEY });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("accepted");
    };
    expect(said("localhost:3000/proxy")).not.toContain("localhost://");
    expect(said("finance:Hunter2@localhost:3000/proxy")).toBe('The base URL "localhost:3000/proxy" has no scheme: start it with http://, as in http://localhost:3000/proxy.');
    expect(said(`localhost:3000/${KEY}`)).toBe('The base URL "localhost:3000/[redacted]" has no scheme: start it with http://, as in http://localhost:3000/[redacted].');
  });
});
