/**
 * The client's errors: a small hierarchy with a literal `name` each. HTTP errors keep the status and the
 * server's message; every message is written for a finance user and never contains the API key (the
 * client redacts it before an error is built). SchemaError stands apart from the transport family.
 */

/** Base of every error the client throws. */
export class SpendSyncError extends Error {
  override readonly name: string = "SpendSyncError";
}

/** Facts about the request that failed; never its headers. */
export interface RequestInfo {
  method: string;
  /** Path and query, without the origin's credentials (there are none in URLs). */
  url: string;
}

/** The service answered with an error status. */
export class HttpError extends SpendSyncError {
  override readonly name: string = "HttpError";
  constructor(
    message: string,
    readonly status: number,
    /** The `error` text of the service's body, when it sent one. */
    readonly serverMessage: string,
    readonly request: RequestInfo,
  ) {
    super(message);
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

/** No answer: the connection failed or was closed before a response. */
export class NetworkError extends SpendSyncError {
  override readonly name = "NetworkError" as const;
  constructor(message: string, readonly request: RequestInfo) {
    super(message);
  }
}

/** No answer within the request timeout. */
export class TimeoutError extends SpendSyncError {
  override readonly name = "TimeoutError" as const;
  constructor(message: string, readonly request: RequestInfo, readonly timeoutMs: number) {
    super(message);
  }
}

/** The caller cancelled (through its AbortSignal). */
export class CancelledError extends SpendSyncError {
  override readonly name = "CancelledError" as const;
}

/** A `next`/`previous` link pointed away from the configured service; it was not followed. */
export class CrossOriginError extends SpendSyncError {
  override readonly name = "CrossOriginError" as const;
  constructor(message: string, readonly refusedOrigin: string) {
    super(message);
  }
}

/** The records changed on the server while a list was being loaded page by page. */
export class DataMovedError extends SpendSyncError {
  override readonly name = "DataMovedError" as const;
  constructor(message: string, readonly expected: number, readonly received: number) {
    super(message);
  }
}

/** A response did not have the shape of the spec. Not a transport error: retrying will not help. */
export class SchemaError extends SpendSyncError {
  override readonly name = "SchemaError" as const;
  constructor(
    message: string,
    readonly resource: string,
    /** Where in the body, e.g. `results[3].amount`. */
    readonly path: string,
    /** The offending value, shortened. */
    readonly value: string,
  ) {
    super(message);
  }
}

/** True for failures after which the outcome of a request is unknown (it may have been applied). */
export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError;
}

/** The client refused to send a request that the service would reject (nothing was sent). */
export class InvalidRequestError extends SpendSyncError {
  override readonly name = "InvalidRequestError" as const;
}
