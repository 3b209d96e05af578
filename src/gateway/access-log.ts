/**
 * One access-log entry per request: what an operator needs (who, what, outcome, how long) and nothing a
 * secret could hide in. The Authorization header is never read here. No line ever holds a key in any form:
 * the keys the gateway knows (the caller's, from its header) are redacted however encoded, and so is anything
 * shaped like a key (key-shape.ts) from a caller that put its key in the URL and sent no header.
 */
import { decodedForms, holdsKeyShape } from "./key-shape";
import { REDACTED } from "./redact";

export interface AccessLogEntry {
  /** ISO 8601 UTC, when the request arrived. */
  time: string;
  method: string;
  /** Path and query, secrets removed. */
  path: string;
  status: number;
  /** Milliseconds until the response head (a streamed body may still be flowing). */
  ms: number;
  /** The page's Origin header, when a browser sent one (a refused preflight names who was refused). */
  origin?: string;
  /**
   * Why the gateway itself ended the exchange, when a peer stalled or a limit was reached: "headers timeout",
   * "request timeout", "request body idle", "answer idle", "answer timeout", "over connection cap",
   * "duplicate Host", "backslash in path", "invalid Host". Method and path are "-" when the request head never arrived.
   */
  event?: string;
}

/** Query parameters whose values are never logged, whatever the service calls them. */
const SECRET_PARAM = /key|token|secret|passw|auth|sig|session|cred|code/i;

/** The longest path and query logged (a longer one is cut after its secrets are gone, never before). */
const MAX_LOGGED_PATH = 2048;

/**
 * Whether `text` would put a key in the log: it holds, as sent or once decoded (percent-encoding, base64), a key
 * the redactor knows, or something shaped like a key (key-shape.ts).
 */
export function leaksKey(text: string, redact: (text: string) => string): boolean {
  // The refusal (url-keys.ts) and the log line ask of the same parts with the same request's redactor: once.
  let seen = verdicts.get(redact);
  if (!seen) verdicts.set(redact, (seen = new Map()));
  let verdict = seen.get(text);
  if (verdict === undefined) {
    verdict = holdsKeyShape(text) || decodedForms(text).some((form) => redact(form) !== form);
    // (A redactor serves every request with its key, redact.ts: its answers are bounded, not kept for good.)
    if (seen.size >= MAX_VERDICTS) seen.clear();
    seen.set(text, verdict);
  }
  return verdict;
}

const MAX_VERDICTS = 4096;

/** leaksKey's answers per redactor (they go with it). */
const verdicts = new WeakMap<(text: string) => string, Map<string, boolean>>();

/**
 * Path and query for the log. Each path segment, query name and query value that holds a key (known or
 * key-shaped, in any encoding) is logged as [redacted], whole; so is the value of a secret-looking parameter,
 * and any form of a known key left across them.
 */
export function loggedPath(url: URL, redact: (text: string) => string): string {
  const hide = (part: string) => (leaksKey(part, redact) ? REDACTED : part);
  const path = url.pathname.split("/").map(hide).join("/");
  const query = url.search === ""
    ? ""
    : `?${url.search.slice(1).split("&").map((pair) => {
      const [name, ...rest] = pair.split("=");
      if (rest.length === 0) return hide(name);
      // (A pair that holds no key has no part that does: checked whole first, the parts only when it does.)
      if (leaksKey(pair, redact)) return `${hide(name)}=${REDACTED}`;
      return SECRET_PARAM.test(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    }).join("&")}`;
  return redact(`${path}${query}`).slice(0, MAX_LOGGED_PATH);
}

/**
 * A free text for the log (the Origin header, an event, a method): known keys redacted where they stand,
 * and the whole text [redacted] if it still holds a key in any form.
 */
function loggedText(text: string, redact: (text: string) => string): string {
  const known = redact(text);
  return leaksKey(known, redact) ? REDACTED : known;
}

/**
 * Every text of an entry through loggedText (its path has been through loggedPath), then cut to a readable
 * length: the one place an entry is made safe to write. Cut after, never before: half a key is still a key.
 */
export function scrubbedEntry(entry: AccessLogEntry, redact: (text: string) => string): AccessLogEntry {
  return {
    ...entry,
    method: loggedText(entry.method, redact).slice(0, 20),
    ...(entry.origin === undefined ? {} : { origin: loggedText(entry.origin, redact).slice(0, 200) }),
    ...(entry.event === undefined ? {} : { event: loggedText(entry.event, redact) }),
  };
}

/** (A `+`, a space in a query, is left as it is: neither is part of any word SECRET_PARAM looks for.) */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The human form: `2026-05-01T10:00:00.000Z GET /public/v1/… 200 12ms origin=https://… (event)`. */
export function formatText(entry: AccessLogEntry): string {
  return `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms${entry.origin ? ` origin=${entry.origin}` : ""}${entry.event ? ` (${entry.event})` : ""}`;
}

/** The machine form: one JSON object per line. */
export function formatJson(entry: AccessLogEntry): string {
  return JSON.stringify(entry);
}
