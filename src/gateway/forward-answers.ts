/**
 * What the gateway answers when forwarding goes wrong, and which of the service's headers it relays: shared by
 * the fetch handler (forward.ts) and the Node fast path (node-relay.ts), so a caller reads the same either way.
 */
import type { ResolvedConfig } from "./config";
import { errorAnswer, type PlainAnswer } from "./http-errors";
import { MAX_ERROR_BODY_BYTES, RELAYED_RESPONSE_HEADERS } from "./limits";

/** Why a request body was not read whole (body.ts, node-relay.ts). */
export type BodyFailure = "too-large" | "idle" | "broken";

/** The answer to a request body not read whole; `note` is told of an idle one (for the access log). */
export function bodyRefused(reason: BodyFailure, config: ResolvedConfig, note: (event: string) => void): PlainAnswer {
  if (reason === "too-large") return tooLarge(config.maxBodyBytes);
  // (A body that broke off: the caller left, or Node ended the request at its timeout and logged that.)
  if (reason === "idle") note("request body idle");
  // The rest of the body may still come: this connection is not used again.
  return errorAnswer(408, reason === "idle"
    ? `The request body stopped arriving: nothing came for ${config.idleTimeoutMs} ms.`
    : "The request body broke off.", { Connection: "close" });
}

/** The 413 of a request body over the cap, declared or counted as it arrives. */
export const tooLarge = (max: number) => errorAnswer(413, `The request body is larger than ${max} bytes.`);

/** The service sent no answer head in time. */
export const notAnsweredIn = (ms: number) => errorAnswer(504, `The service did not answer within ${ms} ms.`);

/** The service could not be reached; `reason` a short cause (ECONNREFUSED), redacted all the same. */
export const unreachable = (reason: string, redact: (text: string) => string) => errorAnswer(502, redact(`The service could not be reached (${reason}).`));

/** The service's answer broke off before its head was relayed. */
export const brokeOff = (reason: string, redact: (text: string) => string) => errorAnswer(502, redact(`The service's answer broke off (${reason}).`));

/** A success body that stalled before its first byte. */
export function successStalled(reason: "answer idle" | "answer timeout", config: ResolvedConfig): PlainAnswer {
  return errorAnswer(504, reason === "answer idle"
    ? `The service started answering, then sent nothing for ${config.idleTimeoutMs} ms.`
    : `The service did not finish answering within ${config.answerTimeoutMs} ms.`);
}

/** An error body that stalled (error bodies are read whole, to redact them). */
export const errorStalled = (status: number) => errorAnswer(504, `The service did not finish its ${status} answer in time.`);

/** An error body too large to redact safely, replaced; its Retry-After kept. */
export function errorTooLarge(status: number, retryAfter: string | undefined): PlainAnswer {
  return errorAnswer(status, `The service answered ${status} with an error body over ${MAX_ERROR_BODY_BYTES} bytes; it is not relayed.`, retryAfter === undefined ? {} : { "Retry-After": retryAfter });
}

/** The service's headers that go back, each redacted (any may quote the request back, a Location most often). */
export function relayedHeaders(get: (name: string) => string | null, redact: (text: string) => string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = get(name);
    if (value !== null) headers[name] = redact(value);
  }
  headers["X-Content-Type-Options"] = "nosniff";
  return headers;
}

/** Whether a success body is a list whose links are rewritten: JSON, answering a GET. */
export const rewritesLinks = (method: string, contentType: string | null) => method === "GET" && /\bjson\b/i.test(contentType ?? "");

/** A short cause for the operator (`ECONNREFUSED`, `AbortError`): never the request, never its headers. */
export function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code.slice(0, 40);
  return error instanceof Error ? error.name.slice(0, 40) : "unknown error";
}
