/**
 * One access-log entry per request: what an operator needs (who, what, outcome, how long) and nothing a
 * secret could hide in. The Authorization header is never read here; the path's query keeps its parameter
 * names, but the values of secret-looking ones are dropped and the caller's key is redacted in any form.
 */
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
   * "duplicate Host", "backslash in path". Method and path are "-" when the request head never arrived.
   */
  event?: string;
}

/** Query parameters whose values are never logged, whatever the service calls them. */
const SECRET_PARAM = /key|token|secret|passw|auth|sig|session|cred|code/i;

/** Path and query for the log: secret-looking parameter values dropped, then every form of the key redacted. */
export function loggedPath(url: URL, redact: (text: string) => string): string {
  const query = url.search === ""
    ? ""
    : `?${url.search.slice(1).split("&").map((pair) => {
      const [name, ...value] = pair.split("=");
      return value.length > 0 && SECRET_PARAM.test(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    }).join("&")}`;
  return redact(`${url.pathname}${query}`).slice(0, 2048);
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
