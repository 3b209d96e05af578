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
