/**
 * CORS for the configured add-in origins only. The add-in's calls carry Authorization (and PATCH a JSON
 * body), so the browser asks first with a preflight: OPTIONS with Access-Control-Request-Method and
 * Access-Control-Request-Headers. An allowed origin gets 204 naming exactly what the add-in sends; any other
 * origin gets 403 with no Access-Control-Allow-Origin, so its page's fetch fails before the key leaves it.
 * A request with an Origin that is not allowed is refused outright (403) rather than forwarded without CORS
 * headers: the browser would hide the answer, but the PATCH would already have reached the service.
 * No Origin (curl, a server, a health probe) is not a browser page and passes; the key is what authorizes.
 */
import { jsonError } from "./http-errors";
import { FORWARDED_METHODS, PREFLIGHT_MAX_AGE_SECONDS } from "./limits";

/** The request headers a page may send: what the add-in's client sets. */
const ALLOWED_HEADERS = ["authorization", "content-type", "accept"];

/** Retry-After is not a CORS-safelisted response header: without this the client could not honour a 429's delay. */
const EXPOSED_HEADERS = "Retry-After";

/** Caches must keep answers for different origins apart. */
const VARY = "Origin";
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

/** A preflight's origin and the method it asks for; undefined when the request is not a preflight. */
export function preflightOf(request: Request): { origin: string; method: string } | undefined {
  const origin = request.headers.get("origin");
  const method = request.headers.get("access-control-request-method");
  return request.method === "OPTIONS" && origin !== null && method !== null ? { origin, method } : undefined;
}

/** Team mode adds its API's POSTs and the header naming a PATCH's batch. */
const TEAM_METHODS = ["POST"];
const TEAM_HEADERS = ["x-spend-batch"];

/** The answer to a preflight. */
export function answerPreflight(request: Request, { origin, method }: { origin: string; method: string }, allowed: ReadonlySet<string>, team = false): Response {
  const methods = team ? [...FORWARDED_METHODS, ...TEAM_METHODS] : [...FORWARDED_METHODS];
  const allowedHeaders = team ? [...ALLOWED_HEADERS, ...TEAM_HEADERS] : ALLOWED_HEADERS;
  if (!allowed.has(origin)) return jsonError(403, `Origin ${origin.slice(0, 200)} is not allowed by this gateway.`, { Vary: PREFLIGHT_VARY });
  // (Headers has already trimmed the value.)
  if (!methods.includes(method)) {
    return jsonError(403, `Method ${method.slice(0, 20)} is not allowed; the gateway forwards ${methods.join(", ")}.`, { Vary: PREFLIGHT_VARY });
  }
  const asked = (request.headers.get("access-control-request-headers") ?? "").split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "");
  const refused = asked.filter((h) => !allowedHeaders.includes(h));
  if (refused.length > 0) {
    return jsonError(403, `Request header ${refused.join(", ").slice(0, 200)} is not allowed; the gateway forwards ${allowedHeaders.join(", ")}.`, { Vary: PREFLIGHT_VARY });
  }
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": allowedHeaders.join(", "),
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: PREFLIGHT_VARY,
    },
  });
}

/** A refusal when the request comes from a page whose origin is not allowed; undefined when it may go on. */
export function refuseOrigin(request: Request, allowed: ReadonlySet<string>): Response | undefined {
  const origin = request.headers.get("origin");
  if (origin === null || allowed.has(origin)) return undefined;
  return jsonError(403, `Origin ${origin.slice(0, 200)} is not allowed by this gateway.`, { Vary: VARY });
}

/** Team mode's answers also say whether a PATCH was answered from the record, and how to sign in. */
const TEAM_EXPOSED_HEADERS = `${EXPOSED_HEADERS}, X-Spend-Replayed, WWW-Authenticate`;

/** Adds the CORS headers of an actual (non-preflight) answer for an allowed origin, in place. */
export function addCorsHeaders(headers: Headers, request: Request, team = false): void {
  const origin = request.headers.get("origin");
  headers.append("Vary", VARY);
  if (origin === null) return;
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", team ? TEAM_EXPOSED_HEADERS : EXPOSED_HEADERS);
}
