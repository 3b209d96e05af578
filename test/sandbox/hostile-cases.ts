/**
 * The hostile corpus as data: one row per request, with the status decided for it (docs/sandbox.md).
 * `request` is the exact bytes sent. No row may change a record: PATCHes that pass every body check are
 * aimed at a record already in the target state, so they end in "already in … state".
 */
import type { RawAnswer } from "./raw-http";
import type { SandboxFixture } from "../support/sandbox";

export interface HostileCase {
  name: string;
  request: string | Buffer | (string | Buffer)[];
  status: number;
  /** Matched against the JSON error message. */
  error?: RegExp;
  /** Anything else a client would notice; returns a problem or null. */
  check?: (answer: RawAnswer) => string | null;
}

interface Req {
  version?: string;
  host?: string | null;
  key?: string | null;
  headers?: [string, string][];
  body?: string | Buffer;
  contentType?: string | null;
}

/** Bytes of one request; Content-Length is added for a body unless a header already frames it. */
function http(method: string, target: string, r: Req = {}, apiKey = ""): Buffer {
  const lines = [`${method} ${target} ${r.version ?? "HTTP/1.1"}`];
  if (r.host !== null) lines.push(`Host: ${r.host ?? "127.0.0.1"}`);
  const key = r.key === undefined ? apiKey : r.key;
  if (key !== null) lines.push(`Authorization: Api-Key ${key}`);
  const headers = r.headers ?? [];
  if (r.body !== undefined && r.contentType !== null) lines.push(`Content-Type: ${r.contentType ?? "application/json"}`);
  const framed = headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n));
  if (r.body !== undefined && !framed) lines.push(`Content-Length: ${Buffer.byteLength(r.body)}`);
  for (const [n, v] of headers) lines.push(`${n}: ${v}`);
  lines.push("Connection: close");
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), Buffer.from(r.body ?? "")]);
}

const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);
const EXPENSE_ALREADY = /^Expense is already in accounted state$/;
const NOT_JSON = /^The request body is not valid JSON\.$/;
const PAID_AT_FORMAT = /^paid_at must be an ISO 8601 date-time/;
const PAID_AT_WIRE = /^paid_at must be written as ISO 8601 in its extended form/;
const PAID_AT_RANGE = /^paid_at must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z/;
const closes = (a: RawAnswer) => (a.headers.connection === "close" ? null : `Connection: ${a.headers.connection}`);

export function hostileCases(f: SandboxFixture): HostileCase[] {
  const key = f.enterprise.api_key;
  const req = (method: string, target: string, r: Req = {}) => http(method, target, r, key);
  const sub = f.enterprise.subsidiaries[0];
  const card = f.enterprise.cards[0];
  const cards = `${f.prefix}/corporate-cards/`;
  const expenses = `${f.prefix}/subsidiaries/${sub}/expenses/`;
  const movements = `${f.prefix}/corporate-cards/${card.id}/billing-periods/${card.billing_periods[0]}/movements/`;
  const accounted = f.sandbox.store.expensesOf(sub).find((e) => e.state === "accounted")!;
  const expense = `${expenses}${accounted.id}/`;
  const unknownEnterprise = "/public/v1/enterprises/00000000-0000-4000-8000-000000000000";
  const patch = (body: string | Buffer, r: Req = {}) => req("PATCH", expense, { body, ...r });
  const paidAt = (value: string) => patch(JSON.stringify({ state: "paid", paid_at: value }));
  const big = "x".repeat(2 * 1024 * 1024);

  const cases: HostileCase[] = [
    // Authentication comes first (spec 5): nothing under an enterprise path is looked up before the key.
    { name: "no key", request: req("GET", cards, { key: null }), status: 403 },
    { name: "Bearer scheme", request: req("GET", cards, { key: null, headers: [["Authorization", `Bearer ${key}`]] }), status: 403 },
    { name: "unknown key", request: req("GET", cards, { key: "sk_sandbox_nope" }), status: 403 },
    { name: "empty key", request: req("GET", cards, { key: "" }), status: 403 },
    { name: "other enterprise's key", request: req("GET", cards, { key: f.other.api_key }), status: 403 },
    { name: "unknown enterprise, valid key", request: req("GET", `${unknownEnterprise}/corporate-cards/`), status: 403 },
    { name: "unknown enterprise, no key", request: req("GET", `${unknownEnterprise}/corporate-cards/`, { key: null }), status: 403 },
    { name: "unknown enterprise, unknown path, no key", request: req("GET", `${unknownEnterprise}/nothing/here/`, { key: null }), status: 403 },
    { name: "non-UUID enterprise, no key", request: req("GET", "/public/v1/enterprises/not-an-id/corporate-cards/", { key: null }), status: 403 },
    { name: "enterprise path itself, no key", request: req("GET", f.prefix, { key: null }), status: 403 },
    { name: "unknown path under the enterprise, no key", request: req("GET", `${f.prefix}/nothing/`, { key: null }), status: 403 },
    { name: "unknown subsidiary, no key", request: req("GET", `${f.prefix}/subsidiaries/00000000-0000-4000-8000-000000000000/expenses/`, { key: null }), status: 403 },
    { name: "PATCH unknown expense, no key", request: req("PATCH", `${expenses}00000000-0000-4000-8000-000000000000/`, { key: null, body: "{}" }), status: 403 },
    { name: "key in a 10 kB header", request: req("GET", cards, { key: "k".repeat(10_000) }), status: 403 },
    { name: "key with latin-1 bytes", request: req("GET", cards, { key: "cl\u00e9" }), status: 403 },
    { name: "two Authorization headers", request: req("GET", cards, { headers: [["Authorization", "Api-Key other"]] }), status: 403 },
    { name: "key after three spaces (RFC 9110: 1*SP)", request: req("GET", cards, { key: null, headers: [["Authorization", `Api-Key   ${key}`]] }), status: 200 },
    { name: "scheme in lower case (RFC 9110: case-insensitive)", request: req("GET", cards, { key: null, headers: [["Authorization", `api-key ${key}`]] }), status: 200 },
    { name: "tab between scheme and key", request: req("GET", cards, { key: null, headers: [["Authorization", `Api-Key\t${key}`]] }), status: 403, error: /^Unsupported authorization scheme/ },
    { name: "a second word after the key", request: req("GET", cards, { key: null, headers: [["Authorization", `Api-Key ${key} extra`]] }), status: 403, error: /^Unsupported authorization scheme/ },
    { name: "unknown path outside enterprises", request: req("GET", "/"), status: 404 },
    { name: "unknown version prefix", request: req("GET", "/public/v2/enterprises/"), status: 404 },
    { name: "an unknown path under the enterprise is a 404 with a key", request: req("GET", `${f.prefix}/nothing/`), status: 404, error: /^No endpoint for GET/ },

    // Methods: 405 (with Allow) for methods HTTP knows and no route serves, and for unknown ones (never a 5xx).
    ...["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "LOCK", "PURGE"].map((m) => ({
      name: `${m} on a route`, request: req(m, expense, { body: '{"state":"paid"}' }), status: 405,
      check: (a: RawAnswer) => (a.headers.allow === "GET, HEAD, PATCH" ? null : `Allow: ${a.headers.allow}`),
    })),
    { name: "OPTIONS *", request: req("OPTIONS", "*"), status: 405 },
    { name: "CONNECT", request: req("CONNECT", "example.com:443"), status: 405, check: closes },
    { name: "unknown method FOO", request: req("FOO", cards), status: 405, check: closes },
    { name: "lower-case get", request: req("get", cards), status: 405 },
    { name: "method of 200 letters", request: req("X".repeat(200), cards), status: 405 },
    { name: "garbage line", request: "HELLO THERE\r\n\r\n", status: 405 },
    { name: "PATCH on a list (no such endpoint)", request: req("PATCH", cards, { body: "{}" }), status: 404 },
    { name: "HEAD is GET without a body", request: req("HEAD", cards), status: 200, check: (a) => (a.body === "" ? null : "HEAD had a body") },

    // Versions, Host, framing.
    { name: "HTTP/1.0 without Host", request: req("GET", cards, { version: "HTTP/1.0", host: null }), status: 200 },
    { name: "HTTP/1.0 without Host or key", request: req("GET", cards, { version: "HTTP/1.0", host: null, key: null }), status: 403 },
    { name: "HTTP/1.1 without Host", request: req("GET", cards, { host: null }), status: 400, error: /Host header/ },
    { name: "HTTP/2.0 request line", request: req("GET", cards, { version: "HTTP/2.0" }), status: 400 },
    { name: "HTTP/9.9 request line", request: req("GET", cards, { version: "HTTP/9.9" }), status: 400 },
    { name: "no version (HTTP/0.9)", request: `GET ${cards}\r\nHost: x\r\n\r\n`, status: 400 },
    { name: "Host of another site", request: req("GET", cards, { host: "evil.example" }), status: 200 },
    { name: "Host with a bad port", request: req("GET", cards, { host: "127.0.0.1:99999" }), status: 200 },
    { name: "Host with spaces", request: req("GET", cards, { host: "a b c" }), status: 200 },
    { name: "two Host headers", request: req("GET", cards, { headers: [["Host", "evil.example"]] }), status: 400, error: /^A request must carry one Host header; this one has several\.$/, check: closes },
    { name: "absolute-form target", request: req("GET", `http://evil.example${cards}`), status: 200 },
    { name: "absolute-form target that does not parse", request: req("GET", "http://[bad/x"), status: 400 },
    { name: "target without a slash", request: req("GET", "public/v1/"), status: 400 },
    { name: "header without a colon", request: req("GET", cards, { headers: [["NoColonHere", ""]] }).toString("latin1").replace("NoColonHere: ", "NoColonHere"), status: 400 },
    { name: "space in a header name", request: req("GET", cards, { headers: [["Bad Header", "x"]] }), status: 400 },
    { name: "NUL in a header value", request: req("GET", cards, { headers: [["X-Test", "a\u0000b"]] }), status: 400 },
    { name: "obsolete line folding", request: req("GET", cards, { headers: [["X-Test", "a\r\n folded"]] }), status: 400 },
    { name: "Content-Length and Transfer-Encoding", request: patch('{"state":"paid"}', { headers: [["Content-Length", "16"], ["Transfer-Encoding", "chunked"]] }), status: 400 },
    { name: "two Content-Lengths", request: patch('{"state":"paid"}', { headers: [["Content-Length", "16"], ["Content-Length", "17"]] }), status: 400 },
    { name: "Content-Length abc", request: patch('{"state":"paid"}', { headers: [["Content-Length", "abc"]] }), status: 400 },
    { name: "Content-Length -1", request: patch('{"state":"paid"}', { headers: [["Content-Length", "-1"]] }), status: 400 },
    { name: "Transfer-Encoding gzip", request: patch('{"state":"paid"}', { headers: [["Transfer-Encoding", "gzip"]] }), status: 400 },
    { name: "bad chunk size", request: patch("zz\r\n{}\r\n0\r\n\r\n", { headers: [["Transfer-Encoding", "chunked"]] }), status: 400 },
    { name: "chunked body, valid", request: patch(chunked('{"state":"accounted"}'), { headers: [["Transfer-Encoding", "chunked"]] }), status: 400, error: EXPENSE_ALREADY },
    { name: "chunked body over 1 MB", request: patch(chunked(big), { headers: [["Transfer-Encoding", "chunked"]] }), status: 413, check: closes },
    { name: "2 MB body with Content-Length", request: patch(`{"state":"paid","paid_id":"${big}"}`), status: 413, check: closes },
    { name: "2 MB declared, 100-continue, body never sent", request: req("PATCH", expense, { headers: [["Content-Type", "application/json"], ["Content-Length", String(2 * 1024 * 1024)], ["Expect", "100-continue"]] }), status: 413, check: closes },
    { name: "100-continue with a small body", request: patch('{"state":"accounted"}', { headers: [["Expect", "100-continue"]] }), status: 400, error: EXPENSE_ALREADY },
    { name: "body on a GET is ignored", request: req("GET", cards, { body: "{{{{" }), status: 200 },
    { name: "request target of 9 kB", request: req("GET", `${cards}?q=${"a".repeat(9 * 1024)}`), status: 414 },
    { name: "request target of 100 kB", request: req("GET", `${cards}?q=${"a".repeat(100 * 1024)}`), status: 414, check: closes },
    { name: "one header of 20 kB", request: req("GET", cards, { headers: [["X-Big", "b".repeat(20 * 1024)]] }), status: 431, check: closes },
    { name: "300 headers", request: req("GET", cards, { headers: Array.from({ length: 300 }, (_, i) => [`X-H${i}`, "v".repeat(60)] as [string, string]) }), status: 431 },
    { name: "Upgrade: websocket", request: req("GET", cards, { headers: [["Upgrade", "websocket"], ["Connection", "Upgrade"]] }), status: 200 },

    // Content types (spec 4.5: application/json; anything else is an invalid payload, 400).
    { name: "text/plain", request: patch('{"state":"accounted"}', { contentType: "text/plain" }), status: 400, error: /^Content-Type must be application\/json; got 'text\/plain'\.$/ },
    { name: "no Content-Type", request: patch('{"state":"accounted"}', { contentType: null }), status: 400, error: /got none/ },
    { name: "application/json-patch+json", request: patch('{"state":"accounted"}', { contentType: "application/json-patch+json" }), status: 400, error: /^Content-Type/ },
    { name: "application/jsonx", request: patch('{"state":"accounted"}', { contentType: "application/jsonx" }), status: 400, error: /^Content-Type/ },
    { name: "application/json; charset=latin1", request: patch('{"state":"accounted"}', { contentType: "application/json; charset=latin1" }), status: 400, error: /^Content-Type/ },
    { name: "application/json; boundary=x", request: patch('{"state":"accounted"}', { contentType: "application/json; boundary=x" }), status: 400, error: /^Content-Type/ },
    { name: "multipart/form-data", request: patch("state=paid", { contentType: "multipart/form-data; boundary=x" }), status: 400, error: /^Content-Type/ },
    { name: "form-urlencoded", request: patch("state=paid", { contentType: "application/x-www-form-urlencoded" }), status: 400, error: /^Content-Type/ },
    { name: "application/json; charset=utf-8 is accepted", request: patch('{"state":"accounted"}', { contentType: "application/json; charset=utf-8" }), status: 400, error: EXPENSE_ALREADY },
    { name: "APPLICATION/JSON is accepted", request: patch('{"state":"accounted"}', { contentType: "APPLICATION/JSON" }), status: 400, error: EXPENSE_ALREADY },

    // Bodies.
    { name: "invalid JSON", request: patch("{state: paid"), status: 400, error: NOT_JSON },
    { name: "empty body", request: patch(""), status: 400, error: NOT_JSON },
    { name: "trailing garbage", request: patch('{"state":"accounted"} x'), status: 400, error: NOT_JSON },
    { name: "NaN literal", request: patch('{"state":NaN}'), status: 400, error: NOT_JSON },
    { name: "single quotes", request: patch("{'state':'paid'}"), status: 400, error: NOT_JSON },
    { name: "array body", request: patch("[]"), status: 400, error: /must be a JSON object/ },
    { name: "string body", request: patch('"paid"'), status: 400, error: /must be a JSON object/ },
    { name: "null body", request: patch("null"), status: 400, error: /must be a JSON object/ },
    { name: "state nested 10,000 deep", request: patch(`{"state": ${nested(10_000)}}`), status: 400, error: /nested deeper than 32 levels/ },
    { name: "array nested 500,000 deep", request: patch(nested(500_000)), status: 400, error: /nested deeper than 32 levels/ },
    { name: "object nested 1,000 deep", request: patch('{"a":'.repeat(1000) + "1" + "}".repeat(1000)), status: 400, error: /nested deeper/ },
    { name: "unclosed nesting 100,000 deep", request: patch("[".repeat(100_000)), status: 400, error: /nested deeper/ },
    { name: "state nested 3 deep", request: patch(`{"state": ${nested(2)}}`), status: 400, error: /got an array\.$/ },
    { name: "state an object", request: patch('{"state": {"a": 1}}'), status: 400, error: /got an object\.$/ },
    { name: "state a number", request: patch('{"state": 5}'), status: 400, error: /got 5\.$/ },
    { name: "state 1e400", request: patch('{"state": 1e400}'), status: 400, error: /got Infinity\.$/ },
    { name: "state of 500 kB", request: patch(JSON.stringify({ state: "s".repeat(500_000) })), status: 400, check: (a) => (a.body.length < 300 ? null : `answer of ${a.body.length} bytes`) },
    { name: "state null", request: patch('{"state": null}'), status: 400, error: /state is required/ },
    { name: "duplicate key", request: patch('{"state":"accounted","state":"paid"}'), status: 400, error: /repeats the key "state"/ },
    { name: "duplicate key, escaped", request: patch('{"state":"paid","\\u0073tate":"accounted"}'), status: 400, error: /repeats the key "state"/ },
    { name: "duplicate key deeper down", request: patch('{"state":"paid","x":{"a":1,"a":2}}'), status: 400, error: /repeats the key "a"/ },
    { name: "invalid UTF-8", request: patch(Buffer.from([0x7b, 0x22, 0x73, 0x74, 0x61, 0x74, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), status: 400, error: /not valid UTF-8/ },
    { name: "overlong UTF-8", request: patch(Buffer.concat([Buffer.from('{"paid_id":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","state":"paid"}')])), status: 400, error: /not valid UTF-8/ },
    { name: "UTF-16 body", request: patch(Buffer.from('{"state":"accounted"}', "utf16le")), status: 400 },
    { name: "BOM then JSON is accepted", request: patch(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"state":"accounted"}')])), status: 400, error: EXPENSE_ALREADY },
    { name: "__proto__ field", request: patch('{"state":"paid","__proto__":{"x":1}}'), status: 400, error: /Unknown field '__proto__'/ },
    { name: "constructor field", request: patch('{"state":"paid","constructor":"x"}'), status: 400, error: /Unknown field 'constructor'/ },
    { name: "paid_id of 256 characters", request: patch(JSON.stringify({ state: "paid", paid_id: "p".repeat(256) })), status: 400, error: /at most 255/ },
    { name: "paid_id a number", request: patch('{"state":"paid","paid_id":7}'), status: 400, error: /paid_id must be a string/ },
    { name: "accounted_id an array", request: patch('{"state":"paid","accounted_id":["a"]}'), status: 400, error: /accounted_id must be a string/ },

    // paid_at: four-digit years, real dates, 0001–9999 once in UTC (docs/sandbox.md).
    { name: "paid_at 9999-12-31T23:59:59-01:00", request: paidAt("9999-12-31T23:59:59-01:00"), status: 400, error: PAID_AT_RANGE },
    { name: "paid_at 0001-01-01T00:30:00+01:00", request: paidAt("0001-01-01T00:30:00+01:00"), status: 400, error: PAID_AT_RANGE },
    { name: "paid_at year 0000", request: paidAt("0000-06-01T00:00:00Z"), status: 400, error: PAID_AT_RANGE },
    { name: "paid_at +010000", request: paidAt("+010000-01-01T00:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at five-digit year", request: paidAt("10000-01-01T00:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at 2026-02-30", request: paidAt("2026-02-30T10:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at 2025-02-29", request: paidAt("2025-02-29T10:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at 1900-02-29", request: paidAt("1900-02-29T10:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at 24:00", request: paidAt("2026-03-31T24:00:00Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at leap second", request: paidAt("2026-06-30T23:59:60Z"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at without zone", request: paidAt("2026-03-31T12:00:00"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at offset +24:00", request: paidAt("2026-03-31T12:00:00+24:00"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at date only", request: paidAt("2026-03-31"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at with a NUL", request: paidAt("2026-03-31T12:00:00Z\u0000"), status: 400, error: PAID_AT_FORMAT },
    { name: "paid_at with a space for T", request: paidAt("2026-03-31 12:00:00Z"), status: 400, error: PAID_AT_WIRE },
    { name: "paid_at with a basic offset", request: paidAt("2026-03-31T17:30:00+0530"), status: 400, error: PAID_AT_WIRE },
    { name: "paid_at with a lowercase t", request: paidAt("2026-03-31t12:00:00Z"), status: 400, error: PAID_AT_WIRE },
    { name: "paid_at with a lowercase z", request: paidAt("2026-03-31T12:00:00z"), status: 400, error: PAID_AT_WIRE },
    { name: "paid_at a number", request: patch('{"state":"paid","paid_at":1700000000}'), status: 400, error: /paid_at must be a string/ },

    // Query strings and paths.
    { name: "page=0", request: req("GET", `${expenses}?page=0`), status: 400, error: /^page must be/ },
    { name: "page=-1", request: req("GET", `${expenses}?page=-1`), status: 400, error: /^page must be/ },
    { name: "page=1e3", request: req("GET", `${expenses}?page=1e3`), status: 400, error: /^page must be/ },
    { name: "page of 30 digits", request: req("GET", `${expenses}?page=${"9".repeat(30)}`), status: 400, error: /^page must be/ },
    { name: "page=%00", request: req("GET", `${expenses}?page=%00`), status: 400, error: /^page must be/ },
    { name: "page=%zz", request: req("GET", `${expenses}?page=%zz`), status: 400, error: /^page must be/ },
    { name: "page past the last", request: req("GET", `${expenses}?page=999`), status: 404, error: /past the last page/ },
    { name: "page_size=1001", request: req("GET", `${expenses}?page_size=1001`), status: 400, error: /at most 1000/ },
    { name: "state=unknown", request: req("GET", `${expenses}?state=lost`), status: 400, error: /^state must be one of/ },
    { name: "expand=bad", request: req("GET", `${expenses}?expand=user,secrets`), status: 400, error: /^expand accepts/ },
    { name: "created_at_from=2026-02-30", request: req("GET", `${expenses}?created_at_from=2026-02-30`), status: 400 },
    { name: "created_at_from after created_at_to", request: req("GET", `${expenses}?created_at_from=2026-02-02&created_at_to=2026-01-01`), status: 400 },
    { name: "reconciled=yes", request: req("GET", `${movements}?reconciled=yes`), status: 400 },
    { name: "movement type of invalid UTF-8", request: req("GET", `${movements}?type=%ff%fe`), status: 400 },
    { name: "id with %00", request: req("GET", `${expenses}abc%00def/`), status: 404 },
    { name: "id with an encoded slash", request: req("GET", `${expenses}a%2Fb/`), status: 404 },
    { name: "id with invalid UTF-8", request: req("GET", `${expenses}%ff%fe/`), status: 404 },
    { name: "raw latin-1 byte in the target", request: req("GET", `${expenses}caf\u00e9/`), status: 400 },
    { name: "id of 4,000 characters", request: req("GET", `${expenses}${"a".repeat(4000)}/`), status: 404 },
    { name: "dot segments out of the enterprise", request: req("GET", `${f.prefix}/../../../etc/passwd`), status: 404 },
    { name: "encoded dot segments", request: req("GET", `${f.prefix}/%2e%2e/%2e%2e/x`), status: 404 },
    { name: "double slashes", request: req("GET", `/${cards}`), status: 404 },
  ];
  return cases;
}
