/**
 * CORS for the configured add-in origins only. The add-in's calls carry Authorization (and PATCH a JSON
 * body), so the browser asks first with a preflight: OPTIONS with Access-Control-Request-Method and
 * Access-Control-Request-Headers. An allowed origin gets 204 naming exactly what the add-in sends; any other
 * origin gets 403 with no Access-Control-Allow-Origin, so its page's fetch fails before the key leaves it.
 * A request with an Origin that is not allowed is refused outright (403) rather than forwarded without CORS
 * headers: the browser would hide the answer, but the PATCH would already have reached the service.
 * No Origin (curl, a server, a health probe) is not a browser page and passes; the key is what authorizes.
 */
import { errorAnswer, type PlainAnswer } from "./http-errors";
import { FORWARDED_METHODS, PREFLIGHT_MAX_AGE_SECONDS } from "./limits";
import type { RequestHead } from "./request-head";

/** The request headers a page may send: what the add-in's client sets. */
const ALLOWED_HEADERS = ["authorization", "content-type", "accept"];

/** Retry-After is not a CORS-safelisted response header: without this the client could not honour a 429's delay. */
const EXPOSED_HEADERS = "Retry-After";

/** Caches must keep answers for different origins apart. */
const VARY = "Origin";
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

/** A preflight's origin and the method it asks for; undefined when the request is not a preflight. */
export function preflightOf(request: RequestHead): { origin: string; method: string } | undefined {
  const origin = request.header("origin");
  const method = request.header("access-control-request-method");
  return request.method === "OPTIONS" && origin !== null && method !== null ? { origin, method } : undefined;
}

/** Team mode adds its API's POSTs and the header naming a PATCH's batch. */
const TEAM_METHODS = ["POST"];
const TEAM_HEADERS = ["x-spend-batch"];

/** The answer to a preflight. */
export function answerPreflight(request: RequestHead, { origin, method }: { origin: string; method: string }, allowed: ReadonlySet<string>, team = false): PlainAnswer {
  const methods = team ? [...FORWARDED_METHODS, ...TEAM_METHODS] : [...FORWARDED_METHODS];
  const allowedHeaders = team ? [...ALLOWED_HEADERS, ...TEAM_HEADERS] : ALLOWED_HEADERS;
  if (!allowed.has(origin)) return errorAnswer(403, `Origin ${origin.slice(0, 200)} is not allowed by this gateway.`, { Vary: PREFLIGHT_VARY });
  // (Headers has already trimmed the value.)
  if (!methods.includes(method)) {
    return errorAnswer(403, `Method ${method.slice(0, 20)} is not allowed; the gateway forwards ${methods.join(", ")}.`, { Vary: PREFLIGHT_VARY });
  }
  const asked = (request.header("access-control-request-headers") ?? "").split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "");
  const refused = asked.filter((h) => !allowedHeaders.includes(h));
  if (refused.length > 0) {
    return errorAnswer(403, `Request header ${refused.join(", ").slice(0, 200)} is not allowed; the gateway forwards ${allowedHeaders.join(", ")}.`, { Vary: PREFLIGHT_VARY });
  }
  return {
    status: 204,
    body: null,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": allowedHeaders.join(", "),
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: PREFLIGHT_VARY,
    },
  };
}

/** A refusal when the request comes from a page whose origin is not allowed; undefined when it may go on. */
export function refuseOrigin(request: RequestHead, allowed: ReadonlySet<string>): PlainAnswer | undefined {
  const origin = request.header("origin");
  if (origin === null || allowed.has(origin)) return undefined;
  return errorAnswer(403, `Origin ${origin.slice(0, 200)} is not allowed by this gateway.`, { Vary: VARY });
}

/** Team mode's answers also say whether a PATCH was answered from the record, and how to sign in. */
const TEAM_EXPOSED_HEADERS = `${EXPOSED_HEADERS}, X-Spend-Replayed, WWW-Authenticate`;

/** The CORS headers of an actual (non-preflight) answer, for a request whose origin is allowed (or that has none). */
export function corsHeaders(request: RequestHead, team = false): Record<string, string> {
  const origin = request.header("origin");
  return origin === null ? { Vary: VARY } : { Vary: VARY, "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": team ? TEAM_EXPOSED_HEADERS : EXPOSED_HEADERS };
}
