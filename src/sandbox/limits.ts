/** The sandbox's request limits (docs/sandbox.md, "Limits"); the spec gives none. */

/** Largest request body accepted (DESIGN.md); 413 above. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Longest request target (path and query); 414 above. */
export const MAX_URL_BYTES = 8 * 1024;

/** Node's limit on the request line and headers together; 431 (or 414 for a long request line) above. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * An oversized body is read and thrown away up to this many bytes before the 413 is sent, so the client
 * finishes writing and then reads a clean answer and close. Past it the connection is reset after the 413.
 */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The methods some route serves (HEAD through GET); any other method known to HTTP gets 405. */
export const SERVED_METHODS = ["GET", "HEAD", "PATCH"] as const;

/**
 * Time and connection limits (docs/sandbox.md, "Slow clients"): the same defaults as the gateway's, for the
 * same reasons. A request head must arrive within the headers timeout and the whole request within the
 * request timeout (408 after either); a body may not pause longer than the idle timeout (408, connection
 * closed); above the cap, a connection is answered 503 as it opens.
 */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 10_000,
  maxConnections: 256,
};
