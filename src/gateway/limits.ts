/** The gateway's limits and fixed answers (docs/deploy.md, "The gateway"). */

/** Largest request body forwarded (DESIGN.md: the service takes 1 MB); 413 above, before anything is sent upstream. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** How long the service may take to start answering (and to send a whole error body); 504 after it. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * An upstream error body is read whole so the key can be redacted from it; one larger than this is replaced
 * by a short JSON error rather than cut, since a cut could split the key and leave half of it unredacted.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What the gateway forwards: the service's methods (api-spec.md section 4). OPTIONS is answered here. */
export const FORWARDED_METHODS = ["GET", "HEAD", "PATCH"] as const;

/** The request headers the add-in sends and the service reads; nothing else crosses (no cookies, no X-Forwarded-*). */
export const FORWARDED_REQUEST_HEADERS = ["authorization", "content-type", "accept"] as const;

/**
 * The response headers relayed. Not Content-Length or Content-Encoding: fetch decompresses what it reads,
 * so both would describe bytes the client never gets; not the service's own Access-Control-* headers.
 */
export const RELAYED_RESPONSE_HEADERS = ["content-type", "retry-after", "cache-control", "etag", "last-modified", "location", "allow"] as const;

/** Preflights a browser may cache, in seconds (Chromium caps at 7200). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The only path forwarded; everything else but the health check is a 404. */
export const FORWARDED_PREFIX = "/public/v1";

export const HEALTH_PATH = "/healthz";
