/**
 * Rule (issue 49): the access log never holds the key, in any form, wherever a caller puts it in the URL:
 * under an ordinary parameter, bare, inside a value, as a path segment; raw, percent-encoded (upper, lower or
 * mixed hex case, once or twice), with `+` for a space, in base64 (standard, url-safe, inside a Basic header's).
 * And such a request is refused (400, the gateway's JSON error naming no part of it), never forwarded.
 * The gateway knows the key when the caller also sends it in its Authorization header; without one it goes by
 * the key's shape (the sandbox's keys: `sk_sandbox_` and 32 hex digits). A key with no such shape (short, no
 * prefix) is caught only when known. Over real sockets, the gateway in front of the real sandbox; every line is
 * checked in both the forms the CLI writes (text and JSON).
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { base64Cores, literalForms } from "../../src/api/redact";
import { formatJson, formatText, type AccessLogEntry } from "../../src/gateway";
import { startGateway, type RunningGateway } from "../../src/gateway/node-server";
import { KEY_IN_URL_MESSAGE } from "../../src/gateway/url-keys";
import { rawRequest, type RawAnswer } from "../sandbox/raw-http";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

const ADDIN = "https://addin.example.com";
/** Not shaped like a key: the gateway can only know it from the caller's header. */
const UNSHAPED = "hunter2-x9Q";

let f: SandboxFixture;
let gateway: RunningGateway;
let port: number;
let logs: AccessLogEntry[];
let forwarded: string[];

/** Starts a gateway on `handler`'s path in front of the sandbox, through a recorder of what reaches the sandbox. */
async function startOn(handler: "fast" | "fetch") {
  logs = [];
  forwarded = [];
  gateway = await startGateway({ target: recorder.target, allowOrigins: [ADDIN], log: (entry) => logs.push(entry) }, { headersTimeoutMs: 300, requestTimeoutMs: 600, handler });
  port = Number(new URL(gateway.baseUrl).port);
}

/** Between the gateway and the sandbox: notes the path of each request that got through, and passes it on. */
let recorder: { target: string; close(): Promise<void> };
beforeAll(async () => {
  f = await withSandbox();
  const to = new URL(f.sandbox.baseUrl);
  const server = createServer((req, res) => {
    forwarded.push(req.url ?? "");
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  recorder = {
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
});
afterAll(async () => {
  await recorder?.close();
  await f?.sandbox.close();
});

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const urlSafe = (text: string) => text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** Every byte escaped, as no encoder does by itself but any client may. */
const everyByte = (text: string) => [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
/** Escapes in upper and lower case by turns: `%73%6b%5F%…`. */
const mixedCase = (text: string) => everyByte(text).replace(/%[0-9A-F]{2}/g, (m, at: number) => (at % 6 === 0 ? m.toLowerCase() : m));

/** Where a key can sit in a request's path or query. */
function placements(key: string): [string, string][] {
  const list = `${f.prefix}/corporate-cards/`;
  return [
    ["under an ordinary name", `${list}?k=${key}`],
    ["bare", `${list}?${key}`],
    ["as a parameter's name", `${list}?page=1&${key}=1`],
    ["inside a value, after the scheme (%20)", `${list}?q=Api-Key%20${key}`],
    ["inside a value, after the scheme (+ for space)", `${list}?q=Api-Key+${key}&page=1`],
    ["inside a value, between words", `${list}?note=my+key+is+${key}+ok`],
    ["under a secret-looking name", `${list}?api_key=${key}`],
    ["every byte escaped, upper-case hex", `${list}?k=${everyByte(key)}`],
    ["every byte escaped, lower-case hex", `${list}?k=${everyByte(key).toLowerCase()}`],
    ["every byte escaped, mixed-case hex", `${list}?k=${mixedCase(key)}`],
    ["escaped twice, in a link in a value", `${list}?next=${encodeURIComponent(`/x/?k=${everyByte(key)}`)}`],
    ["in base64", `${list}?t=${b64(key)}`],
    ["in base64, escaped", `${list}?t=${encodeURIComponent(b64(key))}`],
    ["in url-safe base64 without padding", `${list}?t=${urlSafe(b64(key))}`],
    ["in a Basic header's base64, in a value", `${list}?h=Basic%20${b64(`enterprise:${key}`)}`],
    ["as a path segment", `/public/v1/enterprises/${key}/corporate-cards/`],
    ["as a path segment, every byte escaped", `/public/v1/enterprises/${everyByte(key).toLowerCase()}/corporate-cards/`],
    ["as a path segment in base64", `/public/v1/enterprises/${b64(key)}/corporate-cards/`],
    ["inside a path segment, glued to words", `/public/v1/enterprises/id-${key}-x/corporate-cards/`],
    ["in a path segment's parameters", `/public/v1/enterprises/${f.enterprise.id};k=${key}/corporate-cards/`],
    ["on a path the gateway does not forward", `/elsewhere/${key}/`],
    ["on the health check", `/healthz?k=${key}`],
  ];
}

async function send(path: string, headers: string[] = []): Promise<RawAnswer> {
  return rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: gw\r\n${headers.map((h) => `${h}\r\n`).join("")}Connection: close\r\n\r\n`);
}

/** The forms of `key` a log line could hold it in, upper-cased; a line is checked as written and decoded up to three times. */
function holdsKey(line: string, key: string): boolean {
  const forms = [...literalForms(key), ...base64Cores(key)].map((form) => form.toUpperCase());
  let text = line;
  for (let round = 0; round < 4; round++) {
    const upper = text.toUpperCase();
    if (forms.some((form) => upper.includes(form))) return true;
    text = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return false;
}

/** Every line written so far, in both forms, holds no form of `key`. */
function expectNoKeyIn(entries: AccessLogEntry[], key: string): void {
  const leaking = entries.flatMap((e) => [formatText(e), formatJson(e)]).filter((line) => holdsKey(line, key));
  expect(leaking).toEqual([]);
}

/** Sends `path`, and checks it was refused, not forwarded, and logged once with its key part redacted. */
async function expectRefused(path: string, headers: string[], key: string): Promise<void> {
  const before = { logs: logs.length, forwarded: forwarded.length };
  const answer = await send(path, headers);
  expect({ status: answer.status, json: answer.json }).toEqual({ status: 400, json: { status: 400, error: KEY_IN_URL_MESSAGE } });
  expect(forwarded.length).toBe(before.forwarded);
  const mine = logs.slice(before.logs);
  expect(mine.map((e) => [e.method, e.status])).toEqual([["GET", 400]]);
  expect(mine[0].path).toContain("[redacted]");
  expectNoKeyIn(mine, key);
}

describe.each(["fast", "fetch"] as const)("on the %s path", (handler) => {
  beforeAll(() => startOn(handler));
  afterAll(() => gateway?.close());

  describe("a key in the URL, with no Authorization header: known by its shape", () => {
    it("(the sandbox issues keys of that shape)", () => {
      expect(f.enterprise.api_key).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
    });

    it("each placement is refused, never forwarded, and logged redacted", async () => {
      for (const [what, path] of placements(f.enterprise.api_key)) {
        await expectRefused(path, [], f.enterprise.api_key).catch((error: Error) => {
          throw new Error(`${what}: ${error.message}`);
        });
      }
    });
  });

  describe("a key in the URL and in the Authorization header: known as sent", () => {
    it("each placement of the sandbox's key is refused and logged redacted", async () => {
      for (const [what, path] of placements(f.enterprise.api_key)) {
        await expectRefused(path, [`Authorization: Api-Key ${f.enterprise.api_key}`], f.enterprise.api_key).catch((error: Error) => {
          throw new Error(`${what}: ${error.message}`);
        });
      }
    });

    it("each placement of a key with no key's shape is refused and logged redacted too", async () => {
      for (const [what, path] of placements(UNSHAPED)) {
        await expectRefused(path, [`Authorization: Api-Key ${UNSHAPED}`], UNSHAPED).catch((error: Error) => {
          throw new Error(`${what}: ${error.message}`);
        });
      }
    });
  });

  describe("what the gateway answers itself, before its handler", () => {
    it.each([
      ["two Host headers", `GET ${"/public/v1/x/?k=KEY"} HTTP/1.1\r\nHost: gw\r\nHost: other\r\nConnection: close\r\n\r\n`, "duplicate Host", 400],
      ["a backslash in the path", `GET ${"/public/v1\\KEY/"} HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n`, "backslash in path", 400],
    ])("%s: logged with the key redacted", async (_what, request, event, status) => {
      const before = logs.length;
      const key = f.enterprise.api_key;
      const answer = await rawRequest(port, request.replace("KEY", key), { waitForClose: true });
      expect(answer.status).toBe(status);
      const mine = logs.slice(before);
      expect(mine.map((e) => [e.status, e.event])).toEqual([[status, event]]);
      expect(mine[0].path).toContain("[redacted]");
      expectNoKeyIn(mine, key);
    });
  });

  describe("other fields of a line", () => {
    it("an Origin holding the key is logged redacted: where it stands when known, whole when only its shape tells", async () => {
      const key = f.enterprise.api_key;
      for (const [headers, logged] of [[[], "[redacted]"], [[`Authorization: Api-Key ${key}`], "https://[redacted].example.net"]] as const) {
        const before = logs.length;
        const answer = await send(`${f.prefix}/corporate-cards/`, [`Origin: https://${key}.example.net`, ...headers]);
        expect(answer.status).toBe(403);
        expect(logs.slice(before).map((e) => e.origin)).toEqual([logged]);
      }
      expectNoKeyIn(logs, key);
    });
  });

  describe("what is not a key is forwarded and logged as sent", () => {
    it("a list with every filter the spec names, and a record by its UUID", async () => {
      const sub = f.enterprise.subsidiaries[0];
      const paths = [
        `${f.prefix}/subsidiaries/${sub}/expenses/?page=1&page_size=5&state=approved&created_at_from=2026-01-01&created_at_to=2026-11-30&expand=cost_center,category,user,approved_by,fund,fare`,
        `${f.prefix}/subsidiaries/${sub}/allowances/?page=2&page_size=3&expand=beneficiary%2Callowance_segments%2Cdocuments`,
        `${f.prefix}/corporate-cards/${f.enterprise.cards[0].id}/?expand=bank,user`,
      ];
      for (const path of paths) {
        const before = { logs: logs.length, forwarded: forwarded.length };
        const answer = await send(path, [`Authorization: Api-Key ${f.enterprise.api_key}`]);
        expect(answer.status).toBe(200);
        expect(forwarded.length).toBe(before.forwarded + 1);
        expect(logs.slice(before.logs).map((e) => [e.status, e.path])).toEqual([[200, path]]);
      }
      expectNoKeyIn(logs, f.enterprise.api_key);
    });
  });
});
