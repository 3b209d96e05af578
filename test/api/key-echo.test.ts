/**
 * Hostile servers over real HTTP: each echoes the key it was sent, in every spelling, wherever an answer can
 * be quoted (error bodies, a non-JSON or mismatched 200, headers, a redirect's Location, a `next` link).
 * The key must appear in no error (message, String, JSON, inspect, stack), no request event and no console output.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { inspect } from "node:util";
import {
  AuthError, CrossOriginError, NetworkError, NotFoundError, RateLimitError, RedirectError, RejectedError, SchemaError, ServerError,
  SpendClient, getCard, listCards,
} from "../../src/api";
import { card } from "../support/fake-transport";
import { containsSecret, errorTexts } from "./helpers/leaks";
import { answer, hostileServer, type HostileServer } from "./helpers/hostile-server";

// Characters that every encoding spells differently: space, +, /, =, &, ~.
const KEY = "sk_live_4f9a+Zq/8w=Tx 7&Lm~Qp";
const ENTERPRISE = "ent-1";

const b64 = (text: string) => Buffer.from(text).toString("base64");
const b64url = (text: string) => Buffer.from(text).toString("base64url");
const form = (text: string) => new URLSearchParams({ k: text }).toString().slice(2);

/** Every spelling of the key a careless server or proxy might write back. */
const ECHOES: Record<string, (key: string) => string> = {
  raw: (k) => k,
  "header as sent": (k) => `Authorization: Api-Key ${k}`,
  "URL-encoded": (k) => encodeURIComponent(k),
  "URL-encoded, lower-case hex": (k) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  "form-encoded": (k) => `api_key=${form(k)}`,
  "encoded twice": (k) => encodeURIComponent(encodeURIComponent(k)),
  base64: (k) => b64(k),
  "base64 url-safe": (k) => b64url(k),
  "basic auth enterprise:key": (k) => `Basic ${b64(`${ENTERPRISE}:${k}`)}`,
  "basic auth :key": (k) => `Basic ${b64(`:${k}`)}`,
  "base64 of the whole header": (k) => b64(`Api-Key ${k}`),
  "JSON-escaped": (k) => JSON.stringify(k).slice(1, -1),
};

let server: HostileServer;
let reply: (req: IncomingMessage, res: ServerResponse, key: string) => void;
let consoleOutput: string[];

beforeAll(async () => {
  server = await hostileServer((req, res, key) => reply(req, res, key));
});
afterAll(() => server.close());

beforeEach(() => {
  consoleOutput = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleOutput.push(args.map((a) => inspect(a, { depth: 10 })).join(" ")));
  }
});
afterEach(() => jest.restoreAllMocks());

function client() {
  const events: string[] = [];
  const c = new SpendClient({
    baseUrl: server.url, enterpriseId: ENTERPRISE, apiKey: KEY, retry: { retries: 0 },
    onRequest: (e) => events.push(JSON.stringify(e)),
  });
  return { c, events };
}

/** Any 10 characters of the key in a row: a key cut short by a message that shortens a value is still a leak. */
const KEY_PIECES = Array.from({ length: KEY.length - 9 }, (_, i) => KEY.slice(i, i + 10));

function expectNoKey(error: unknown, events: string[]): void {
  expect(error).toBeInstanceOf(Error);
  for (const text of [...errorTexts(error, (v) => inspect(v, { depth: 10, showHidden: true })), ...events, ...consoleOutput]) {
    expect(containsSecret(text, KEY)).toBe(false);
    expect(KEY_PIECES.filter((piece) => text.includes(piece))).toEqual([]);
  }
}

describe("the helper finds the key in every spelling (else the tests below could not fail)", () => {
  it.each(Object.entries(ECHOES))("%s", (_name, echo) => {
    expect(containsSecret(`some text ${echo(KEY)} more text`, KEY)).toBe(true);
  });
});

describe.each(Object.entries(ECHOES))("a server echoing the key %s", (_name, echo) => {
  const cases: [string, new (...args: never[]) => Error, (res: ServerResponse, key: string) => void][] = [
    ["in a 403's error", AuthError, (res, k) => answer(res, 403, { status: 403, error: `Invalid key ${echo(k)}` })],
    ["in a 400's error", RejectedError, (res, k) => answer(res, 400, { status: 400, error: `bad: ${echo(k)}` })],
    ["in a 404's error", NotFoundError, (res, k) => answer(res, 404, { status: 404, error: `no card for ${echo(k)}` })],
    ["in a 500 HTML page", ServerError, (res, k) => answer(res, 500, `<html><pre>${echo(k)}</pre></html>`)],
    ["in a 429 and its headers", RateLimitError, (res, k) => answer(res, 429, { status: 429, error: echo(k) }, { "Retry-After": "3600", "X-Echo": encodeURIComponent(echo(k)) })],
    ["in a non-JSON 200", SchemaError, (res, k) => answer(res, 200, `<html>proxy login for ${echo(k)}</html>`)],
    ["at the start of a non-JSON 200, cut at 60 characters", SchemaError, (res, k) => answer(res, 200, `${"x".repeat(40)}${echo(k)}${"y".repeat(80)}`)],
    ["in a mistyped field of a 200", SchemaError, (res, k) => answer(res, 200, { ...card("c1"), billing_day: echo(k) })],
    ["deep in a long mistyped value of a 200", SchemaError, (res, k) => answer(res, 200, { ...card("c1"), billing_day: { note: "z".repeat(50), echo: echo(k) } })],
    ["in a redirect's Location", RedirectError, (res, k) => answer(res, 302, "", { Location: `https://collector.example/?k=${encodeURIComponent(echo(k))}` })],
  ];
  it.each(cases)("%s", async (_what, kind, send) => {
    reply = (_req, res, key) => send(res, key);
    const { c, events } = client();
    const error = await getCard(c, "c1").catch((e) => e);
    expect(error).toBeInstanceOf(kind);
    expectNoKey(error, events);
  });
});

describe("links and redirects", () => {
  it("a key echoed in a next link's query is redacted from the request events and the error", async () => {
    reply = (req, res, key) => {
      const url = new URL(req.url!, server.url);
      if (url.searchParams.has("leak")) return answer(res, 404, { status: 404, error: "gone" });
      answer(res, 200, { count: null, next: `${server.url}${url.pathname}?leak=${encodeURIComponent(key)}`, previous: null, results: [card("a")] });
    };
    const { c, events } = client();
    const error = await listCards(c).all().catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(server.seen.at(-1)!.url).toContain("leak="); // it was really sent and quoted
    // The message names the request in words (no URL to quote); the URL, key and all, is kept redacted in the error's request.
    expect(error.message).not.toContain("leak=");
    expect(error.request.url).toContain("leak=[redacted]");
    expectNoKey(error, events);
  });

  it("a next link to another origin that quotes the key is refused without quoting it", async () => {
    reply = (_req, res, key) => answer(res, 200, { count: null, next: `https://collector.example/${encodeURIComponent(key)}/?k=${b64(key)}`, previous: null, results: [card("a")] });
    const { c, events } = client();
    const before = server.seen.length;
    const error = await listCards(c).all().catch((e) => e);
    expect(error).toBeInstanceOf(CrossOriginError);
    expect(server.seen.length - before).toBe(1);
    expectNoKey(error, events);
  });

  it("a redirect to another origin is not followed: the other server receives nothing, the key least of all", async () => {
    const other = await hostileServer((_req, res) => answer(res, 200, card("c1")));
    try {
      reply = (_req, res) => answer(res, 307, "", { Location: `${other.url}/public/v1/enterprises/${ENTERPRISE}/corporate-cards/c1/` });
      const { c, events } = client();
      const error = await getCard(c, "c1").catch((e) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error.message).toBe(
        `The service answered the request for corporate card c1 with a redirect to ${other.url} (HTTP 307). Redirects are not followed, so that the API key goes nowhere else: check the base URL.`,
      );
      expect(other.seen).toEqual([]);
      expectNoKey(error, events);
    } finally {
      await other.close();
    }
  });

  it("a redirect on the same origin is not followed either, and is not retried", async () => {
    reply = (req, res) => (req.url!.includes("moved") ? answer(res, 200, card("c1")) : answer(res, 301, "", { Location: "/moved/" }));
    const c = new SpendClient({ baseUrl: server.url, enterpriseId: ENTERPRISE, apiKey: KEY, retry: { retries: 3, baseDelayMs: 1 } });
    const before = server.seen.length;
    await expect(getCard(c, "c1")).rejects.toBeInstanceOf(RedirectError);
    expect(server.seen.slice(before).map((s) => s.url)).toEqual(["/public/v1/enterprises/ent-1/corporate-cards/c1/"]);
  });

  it("a connection closed mid-answer is a NetworkError without the key", async () => {
    reply = (req) => req.socket.destroy();
    const { c, events } = client();
    const error = await getCard(c, "c1").catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expectNoKey(error, events);
  });
});
