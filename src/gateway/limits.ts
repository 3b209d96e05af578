/** The gateway's limits and fixed answers (docs/deploy.md, "The gateway"). */

/** Largest request body forwarded (DESIGN.md: the service takes 1 MB); 413 above, before anything is sent upstream. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** How long the service may take to start answering (the head of its answer); 504 after it. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The longest silence inside a body: the caller's request body (408 after it) or the service's answer (504
 * before its first byte, the connection cut after). A peer that is sending does not pause this long; one
 * that stalled holds a connection for no more than this.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;

/**
 * The whole of the service's answer, from the request to its last byte: a service that sends a byte a
 * second never pauses long enough for the idle timeout, and is cut at this. Four times the time it has to
 * start answering; the largest page (1,000 expenses with every expand, 1.4 MB) streams in well under a second
 * from a service in a datacenter.
 */
export const DEFAULT_ANSWER_TIMEOUT_MS = 120_000;

/**
 * Node only (the serverless platforms bound these themselves). A caller's request head must arrive within
 * this (408 after it): a browser sends it in one packet, and Node's own 60 s is what slow-header attacks
 * (slowloris) live on.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** Node only. A caller's whole request, head and body: the body is at most 1 MB (a PATCH is ~200 bytes). 408 after it. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Node only. Connections at once. A browser opens at most 6 to a host, so this is about 40 add-ins loading at
 * the same moment, and each connection may hold a 1 MB body: at most 256 MB. Above it, see OVERFLOW_CONNECTIONS.
 */
export const DEFAULT_MAX_CONNECTIONS = 256;

/**
 * Connections let in beyond the cap only to be answered: `/healthz` as ever (a load balancer's probe still
 * sees a live gateway while slow clients hold every connection), anything else 503 with Retry-After. Past
 * these too, a connection is answered 503 as soon as it opens and closed.
 */
export const OVERFLOW_CONNECTIONS = 16;

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

/** Team mode's own API (team/routes.ts), answered by the gateway itself; nothing under it is forwarded. */
export const TEAM_PREFIX = "/team/v1";
