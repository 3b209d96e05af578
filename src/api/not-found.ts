/**
 * What a 404 means: "this id does not exist" or "the base URL is wrong". Two facts tell them apart.
 *
 * 1. The list of corporate cards exists for every enterprise the key opens (spec 4.2; another enterprise's id
 *    is a 403, spec 5), so a 404 on its first page (`page=1`) says that nothing at the base URL is the service: the
 *    connection test (the taskpane's "Test and save connection" reads that page) names the base URL, whatever
 *    the answer's body.
 * 2. The service answers every error with its JSON body `{"status": 404, "error": "…"}` (DESIGN.md, "Error
 *    body"). A 404 that is an HTML page, plain text, empty, or JSON of another shape comes from a web server or
 *    a proxy at that address (webpack's "Cannot GET /proxi/…", nginx's page), not from the service: that too
 *    names the base URL, on any path. A service 404 on any other path is about the ids.
 *
 * The message quotes what was typed (the client's base URL; user info is refused earlier) and what a base
 * URL looks like. It passes the one redaction point (SpendSyncError), as every message does.
 */
import { baseUrlExamples } from "./base-url";
import { BaseUrlError, NotFoundError, type RequestInfo } from "./errors";
import { wordsOf } from "./request-words";
import type { RawResponse } from "./transport";

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The `error` of the service's own error body, or null when the body is not one. */
function serviceErrorMessage(text: string, status: number): string | null {
  try {
    const body = JSON.parse(text) as { status?: unknown; error?: unknown };
    if (body !== null && typeof body === "object" && body.status === status && typeof body.error === "string") return body.error;
  } catch {
    // not JSON
  }
  return null;
}

/** What an answer that is not the service's was, in a few words. */
function kindOf(raw: RawResponse): string {
  const text = raw.text.trim();
  if (text === "") return "an empty answer";
  const type = raw.headers.get("content-type") ?? "";
  if (/html/i.test(type) || text.startsWith("<")) return "an HTML page";
  try {
    JSON.parse(text);
    return "JSON that is not the service's";
  } catch {
    return "plain text";
  }
}

export interface NotFoundContext {
  /** The base URL as the client holds it (as typed, trimmed, without a trailing "/"). */
  baseUrl: string;
  /** The path of the first page of the corporate-card list: there for every enterprise. */
  alwaysThere: string;
}

/** The error of a 404: BaseUrlError when it says the base URL is wrong (see above), NotFoundError otherwise. */
export function notFoundError(raw: RawResponse, url: string, info: RequestInfo, serverMessage: string, context: NotFoundContext): NotFoundError | BaseUrlError {
  const own = serviceErrorMessage(raw.text, 404);
  const words = wordsOf(info);
  const parsed = new URL(url);
  // The client asks for page 1 by number; a page after it may be gone (the list shrank) and a `next` link
  // (no page number, say) is the service's own: neither proves the base URL wrong.
  const everywhere = parsed.pathname === context.alwaysThere && parsed.searchParams.get("page") === "1";
  if (!everywhere && own !== null) {
    const said = serverMessage ? ` The service said: "${serverMessage}"` : "";
    return new NotFoundError(`Not found while ${words.doing}.${said}`, 404, serverMessage, info);
  }
  const answer = own === null ? `, with ${kindOf(raw)} rather than the service's JSON error.` : `. The server said: "${serverMessage}"`;
  const why = everywhere
    ? `Every enterprise has a list of corporate cards, but ${words.request} answered 404 Not Found${answer}`
    : `${upperFirst(words.request)} answered 404 Not Found${answer}`;
  const path = new URL(context.baseUrl).pathname;
  const hint = /\/public\/v1(\/|$)/.test(path) ? " Leave out /public/v1 and what follows it: the add-in adds those paths itself." : "";
  return new BaseUrlError(
    `The base URL looks wrong: nothing at ${context.baseUrl} answers as the Spend Sync service. ${why}${hint} ${baseUrlExamples()}`,
    404, serverMessage, info,
  );
}
