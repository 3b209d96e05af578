/**
 * The one decision on a request, before anything is read of its body or sent to the service: answered here
 * (a preflight, a refused origin, a key in the URL, the health check, a path or method not forwarded, a body
 * declared too large) or forwarded, and then with which headers to the service and which CORS headers back.
 * The fetch handler (app.ts) and the Node fast path (node-fast.ts) both ask this function and act on its
 * answer alone, so the two cannot disagree on who is let through. A check added later (team mode's token,
 * verified per request, possibly asynchronously) goes here, and both paths await it.
 */
import { corsHeaders, answerPreflight, preflightOf, refuseOrigin } from "./cors";
import type { ResolvedConfig } from "./config";
import { tooLarge } from "./forward-answers";
import { errorAnswer, type PlainAnswer } from "./http-errors";
import { FORWARDED_METHODS, FORWARDED_PREFIX, FORWARDED_REQUEST_HEADERS, HEALTH_PATH, TEAM_PREFIX } from "./limits";
import type { RequestHead } from "./request-head";
import { refuseKeyInUrl } from "./url-keys";

/** A request let through: where it goes and what goes with it. */
export interface Forwarding {
  /** The service's URL for it: the target, then the request's path and query as received. */
  url: string;
  method: string;
  /** The request headers the service reads, nothing else (limits.ts). */
  headers: Record<string, string>;
  /** Where a list's links point instead of the service. */
  publicBase: string;
  /** The CORS headers every answer to it carries, the gateway's own ones included. */
  cors: Record<string, string>;
}

/**
 * `team`: a request to team mode's API (only when team mode is on), answered by the fetch handler's team
 * routes with these CORS headers. (A `forward` in team mode then also passes team admission, app.ts.)
 */
export type Decision = { answer: PlainAnswer } | { forward: Forwarding } | { team: { cors: Record<string, string> } };

const HEALTH: PlainAnswer = { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" }, body: JSON.stringify({ status: "ok" }) };

/**
 * Decides on a request (see the file's comment); `redact` is this request's redactor (redact.ts). A Promise
 * only when a check needs one (none does today): callers await it then, and otherwise decide in the same tick,
 * before a byte of a refused body is read.
 */
export function admit(head: RequestHead, settings: ResolvedConfig, redact: (text: string) => string): Decision | Promise<Decision> {
  const preflight = preflightOf(head);
  const team = settings.team !== null;
  if (preflight) return { answer: answerPreflight(head, preflight, settings.allowOrigins, team) };
  const refused = refuseOrigin(head, settings.allowOrigins);
  if (refused) return { answer: refused };
  // From here on every answer carries CORS headers, so an allowed page can read why it was refused.
  const cors = corsHeaders(head, team);
  const withCors = (answer: PlainAnswer) => ({ answer: { ...answer, headers: { ...answer.headers, ...cors } } });
  // Before anything that could forward it.
  const keyInUrl = refuseKeyInUrl(head.url, redact);
  if (keyInUrl) return withCors(keyInUrl);
  const { method, url } = head;
  const path = routedPath(url.pathname);
  // Liveness only: it does not call the service (that would need a key), so a 200 means the gateway runs.
  if (path === HEALTH_PATH && (method === "GET" || method === "HEAD")) return withCors(HEALTH);
  if (team && (path === TEAM_PREFIX || path.startsWith(`${TEAM_PREFIX}/`))) return { team: { cors } };
  if (path !== FORWARDED_PREFIX && !path.startsWith(`${FORWARDED_PREFIX}/`)) {
    return withCors(errorAnswer(404, `Nothing here: the gateway forwards ${FORWARDED_PREFIX}/* and answers ${HEALTH_PATH}.`));
  }
  // The URL parser has already resolved `..` (also as %2e%2e); an encoded slash or backslash could still be
  // decoded into a path separator by the service, to reach outside /public/v1.
  if (/%2f|%5c/i.test(url.pathname)) return withCors(errorAnswer(400, "A path with an encoded slash or backslash is not forwarded."));
  if (!(FORWARDED_METHODS as readonly string[]).includes(method)) {
    return withCors(errorAnswer(405, `Method ${method.slice(0, 20)} is not forwarded; the gateway forwards ${FORWARDED_METHODS.join(", ")}.`, { Allow: `${FORWARDED_METHODS.join(", ")}, OPTIONS` }));
  }
  // (None declared: Number(null) is 0. A body longer than it declares is cut as it is read.)
  if (method === "PATCH" && Number(head.header("content-length")) > settings.maxBodyBytes) return withCors(tooLarge(settings.maxBodyBytes));
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = head.header(name);
    if (value !== null) headers[name] = value;
  }
  return { forward: { url: `${settings.target}${url.pathname}${url.search}`, method, headers, publicBase: settings.publicUrl ?? url.origin, cors } };
}

/**
 * The path a route is chosen by: percent-escapes decoded as hono's router decodes them (decodeURI, escape by
 * escape where a sequence is not UTF-8; `%25` kept), so `/%70ublic/v1/…` is forwarded as it always was.
 */
function routedPath(pathname: string): string {
  if (!pathname.includes("%")) return pathname;
  const text = pathname.replace(/%25/g, "%2525");
  try {
    return decodeURI(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
      try {
        return decodeURI(escapes);
      } catch {
        return escapes;
      }
    });
  }
}
