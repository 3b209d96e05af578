/**
 * What an answer that is not a 2xx means, as the error class that says so (errors.ts), in words a user can act
 * on: a redirect (never followed with the key), a refused key, a missing record or a wrong base URL, a rate
 * limit, a server failure, a refusal; and an answer too large to read. Every text from the server is redacted.
 */
import {
  AnswerTooLargeError, AuthError, HttpError, RateLimitError, RedirectError, RejectedError, ServerError, type RequestInfo,
} from "./errors";
import { notFoundError } from "./not-found";
import { redactSecrets } from "./redact";
import { parseRetryAfter } from "./retry";
import { wordsOf } from "./request-words";
import type { RawResponse } from "./transport";

/** What the client knows that the messages name or read against. */
export interface AnswerContext {
  baseUrl: string;
  /** The configured origin: a redirect's target is named by its origin, read against it. */
  origin: string;
  enterpriseId: string;
  /** The path of a list that is always there: a 404 on it means a wrong base URL (not-found.ts). */
  alwaysThere: () => string;
  /** The clock that an HTTP-date Retry-After is read against. */
  now: () => number;
}

/** The error a non-2xx answer to `url` means, with the server's message (redacted) when it sent one. */
export function answerError(raw: RawResponse, url: string, info: RequestInfo, context: AnswerContext): HttpError {
  let serverMessage = "";
  try {
    const body = JSON.parse(raw.text) as { error?: unknown };
    if (typeof body?.error === "string") serverMessage = redactSecrets(body.error);
  } catch {
    // Not JSON (a proxy's HTML page, say): the status speaks for itself.
  }
  const said = serverMessage ? ` The service said: "${serverMessage}"` : "";
  const words = wordsOf(info);
  const status = raw.status;
  // A browser's fetch with redirect "manual" shows a redirect as an opaque response with status 0.
  if (status === 0 || (status >= 300 && status < 400)) {
    const location = raw.headers.get("location");
    let to = "";
    try {
      if (location) to = ` to ${new URL(location, context.origin).origin}`;
    } catch {
      to = " to an address that is not a URL";
    }
    return new RedirectError(
      `The service answered ${words.request} with a redirect${to}${status ? ` (HTTP ${status})` : ""}. Redirects are not followed, so that the API key goes nowhere else: check the base URL.${said}`,
      status, serverMessage, info,
    );
  }
  if (status === 403 || status === 401) {
    return new AuthError(
      `The API key was refused for enterprise ${context.enterpriseId}. Check the key and the enterprise id in the connection settings.${said}`,
      status, serverMessage, info,
    );
  }
  if (status === 404) {
    // A missing record, or a wrong base URL: the path and the body tell them apart (not-found.ts).
    return notFoundError(raw, url, info, serverMessage, { baseUrl: context.baseUrl, alwaysThere: context.alwaysThere() });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(raw.headers.get("retry-after"), context.now());
    const wait = retryAfterMs === null ? "in a moment" : `in ${Math.ceil(retryAfterMs / 1000)} s`;
    return new RateLimitError(`The service is limiting requests (HTTP 429); try again ${wait}.${said}`, status, serverMessage, info, retryAfterMs);
  }
  if (status >= 500) {
    return new ServerError(`The service failed (HTTP ${status}) while ${words.doing}; try again later.${said}`, status, serverMessage, info);
  }
  return new RejectedError(
    serverMessage ? `The service refused ${words.request}: ${serverMessage}` : `The service refused ${words.request} (HTTP ${status}).`,
    status, serverMessage, info,
  );
}

/** The refusal of an answer longer than `maxBytes`: it was not read on. */
export function tooLargeError(method: string, info: RequestInfo, maxBytes: number): AnswerTooLargeError {
  return new AnswerTooLargeError(
    `The service's answer to ${wordsOf(info).request} is larger than ${sizeInWords(maxBytes)}, more than any answer of the API needs: it was not read.`,
    info.url,
  );
}

/** A byte limit in words: MB from one MB up, KB below (a limit configured that small would read "0 MB"). */
function sizeInWords(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
