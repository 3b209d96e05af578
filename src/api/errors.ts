/**
 * The client's errors: a small hierarchy with a literal `name` each. HTTP errors keep the status and the
 * server's message; every message is written for a finance user. The base class and every class that keeps
 * text from the service pass it through `redactSecrets`, so no error can carry the API key, whoever built it.
 * SchemaError stands apart from the transport family.
 */
import { redactSecrets } from "./redact";

/** Base of every error the client throws. Its message (and so its stack) is redacted before Error sees it. */
export class SpendSyncError extends Error {
  override readonly name: string = "SpendSyncError";
  constructor(message: string) {
    super(redactSecrets(message));
  }
}

function redactedRequest(request: RequestInfo): RequestInfo {
  return { method: request.method, url: redactSecrets(request.url) };
}

/** Facts about the request that failed; never its headers. */
export interface RequestInfo {
  method: string;
  /** Path and query (base URLs with credentials are refused), redacted: a `next` link could quote the key. */
  url: string;
}

/** The service answered with an error status. */
export class HttpError extends SpendSyncError {
  override readonly name: string = "HttpError";
  /** The `error` text of the service's body, when it sent one (redacted). */
  readonly serverMessage: string;
  readonly request: RequestInfo;
  constructor(message: string, readonly status: number, serverMessage: string, request: RequestInfo) {
    super(message);
    this.serverMessage = redactSecrets(serverMessage);
    this.request = redactedRequest(request);
  }
}

/** 403: the key is invalid or belongs to another enterprise (spec 5). */
export class AuthError extends HttpError {
  override readonly name = "AuthError" as const;
}

/** 404: the record, or the subsidiary, card or billing period around it, does not exist. */
export class NotFoundError extends HttpError {
  override readonly name = "NotFoundError" as const;
}

/**
 * 404 from something at the base URL that is not the service: on the corporate-card list, which every
 * enterprise has, or with a body that is not the service's error JSON (a web server's or a proxy's page). The
 * base URL is wrong, not an id (not-found.ts). Not a NotFoundError: nothing here says a record is gone.
 */
export class BaseUrlError extends HttpError {
  override readonly name = "BaseUrlError" as const;
}

/** 400 and other 4xx: the service refused the request as it was written. */
export class RejectedError extends HttpError {
  override readonly name = "RejectedError" as const;
}

/** 429: too many requests. `retryAfterMs` is what the service asked for, when it said. */
export class RateLimitError extends HttpError {
  override readonly name = "RateLimitError" as const;
  constructor(message: string, status: number, serverMessage: string, request: RequestInfo, readonly retryAfterMs: number | null) {
    super(message, status, serverMessage, request);
  }
}

/** 5xx: the service failed. */
export class ServerError extends HttpError {
  override readonly name = "ServerError" as const;
}

/**
 * The service answered with a redirect (3xx, or a browser's opaque redirect). Redirects are never followed:
 * the request carried the key, and the new address may be another origin.
 */
export class RedirectError extends HttpError {
  override readonly name = "RedirectError" as const;
}

/** No answer: the connection failed or was closed before a response. */
export class NetworkError extends SpendSyncError {
  override readonly name = "NetworkError" as const;
  readonly request: RequestInfo;
  constructor(message: string, request: RequestInfo) {
    super(message);
    this.request = redactedRequest(request);
  }
}

/** No answer within the request timeout. */
export class TimeoutError extends SpendSyncError {
  override readonly name = "TimeoutError" as const;
  readonly request: RequestInfo;
  constructor(message: string, request: RequestInfo, readonly timeoutMs: number) {
    super(message);
    this.request = redactedRequest(request);
  }
}

/** The caller cancelled (through its AbortSignal). */
export class CancelledError extends SpendSyncError {
  override readonly name = "CancelledError" as const;
}

/** A `next`/`previous` link pointed away from the configured service; it was not followed. */
export class CrossOriginError extends SpendSyncError {
  override readonly name = "CrossOriginError" as const;
  readonly refusedOrigin: string;
  constructor(message: string, refusedOrigin: string) {
    super(message);
    this.refusedOrigin = redactSecrets(refusedOrigin);
  }
}

/** The records changed on the server while a list was being loaded page by page. */
export class DataMovedError extends SpendSyncError {
  override readonly name = "DataMovedError" as const;
  constructor(message: string, readonly expected: number, readonly received: number) {
    super(message);
  }
}

/**
 * The pages of a list cannot be trusted: a `next` link back to a page already read, a page that repeats
 * records already read (the service ignores `page`), a `count` the pages contradict, or more records than a
 * sheet can hold. Loading stops at the first page that shows it; loading again will not help.
 */
export class PaginationError extends SpendSyncError {
  override readonly name = "PaginationError" as const;
  constructor(message: string, readonly page: number) {
    super(message);
  }
}

/** A response did not have the shape of the spec. Not a transport error: retrying will not help. */
export class SchemaError extends SpendSyncError {
  override readonly name = "SchemaError" as const;
  /** Where in the body, e.g. `results[3].amount` (redacted). */
  readonly path: string;
  /** The offending value, redacted then shortened. */
  readonly value: string;
  constructor(message: string, readonly resource: string, path: string, value: string) {
    super(message);
    this.path = redactSecrets(path);
    this.value = redactSecrets(value);
  }
}

/**
 * An answer larger than anything the request could need (more bytes than the client reads, more records than
 * the page size asked for, more values than that many records hold): refused before it is parsed or checked,
 * so a hostile answer costs its text and nothing more. Not a transport error: retrying will not help.
 */
export class AnswerTooLargeError extends SpendSyncError {
  override readonly name = "AnswerTooLargeError" as const;
  constructor(message: string, readonly resource: string) {
    super(message);
  }
}

/**
 * A base URL that is not one the client may use (empty, not a URL, with a user name, http:// to another machine):
 * refused before anything is sent. A TypeError still, as the URL constructor's own refusal is, for callers that
 * tell a typing mistake from a failure by it; its message quotes what was typed, redacted.
 */
export class InvalidBaseUrlError extends TypeError {
  override readonly name = "InvalidBaseUrlError" as const;
}

/** The client refused to send a request that the service would reject (nothing was sent). */
export class InvalidRequestError extends SpendSyncError {
  override readonly name = "InvalidRequestError" as const;
}

/**
 * The service answered a read with another record than the one asked for: another id (a proxy's or a cache's
 * answer, a service that mixed up its records). Its values say nothing about the record asked for, so nothing is
 * decided, shown or kept from them. Not a transport error: the request may well succeed next time, but not by
 * retrying blind.
 */
export class WrongRecordError extends SpendSyncError {
  override readonly name = "WrongRecordError" as const;
  /** The id asked for, redacted. */
  readonly asked: string;
  /** The id the answer named, as the message quotes it, redacted. */
  readonly answered: string;
  constructor(message: string, asked: string, answered: string) {
    super(message);
    this.asked = redactSecrets(asked);
    this.answered = redactSecrets(answered);
  }
}
