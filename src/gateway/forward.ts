/**
 * Forwards one request under /public/v1 to the service and relays the answer. Only the headers the service
 * reads go up and only plain response headers come back; a success body is streamed through (a list's
 * `next`/`previous` links rewritten to the gateway), an error body is read (bounded) and relayed with the
 * caller's key redacted, since a service or a proxy in front of it may quote the request back. The key itself
 * is passed on and forgotten: nothing here keeps it.
 *
 * Time is bounded wherever a peer can stall: the caller's body may not pause longer than the idle timeout
 * (408); the service has `timeoutMs` to start answering (504), may not pause longer than the idle timeout
 * inside its body, and must have sent all of it by the answer deadline (504 while no byte went out, the
 * connection cut after).
 */
import { relayBody, type Cut } from "./answer-body";
import { readCapped } from "./body";
import type { ResolvedConfig } from "./config";
import { jsonError } from "./http-errors";
import { FORWARDED_METHODS, FORWARDED_REQUEST_HEADERS, MAX_ERROR_BODY_BYTES, RELAYED_RESPONSE_HEADERS } from "./limits";
import { LinkRewriter, rewriteLink } from "./links";
import { deadline } from "./timeout";

export interface ForwardHooks {
  redact: (text: string) => string;
  /** Told when the gateway itself ends an exchange because a peer stalled (for the access log). */
  event: (event: string) => void;
}

export async function forward(request: Request, config: ResolvedConfig, hooks: ForwardHooks): Promise<Response> {
  const { redact } = hooks;
  const url = new URL(request.url);
  // The URL parser has already resolved `..` (also as %2e%2e); an encoded slash or backslash could still be
  // decoded into a path separator by the service, to reach outside /public/v1.
  if (/%2f|%5c/i.test(url.pathname)) return jsonError(400, "A path with an encoded slash or backslash is not forwarded.");
  const method = request.method;
  if (!(FORWARDED_METHODS as readonly string[]).includes(method)) {
    return jsonError(405, `Method ${method.slice(0, 20)} is not forwarded; the gateway forwards ${FORWARDED_METHODS.join(", ")}.`, { Allow: `${FORWARDED_METHODS.join(", ")}, OPTIONS` });
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method === "PATCH") {
    const read = await readCapped(request.body, request.headers.get("content-length"), config.maxBodyBytes, { timer: config.timer, ms: config.idleTimeoutMs });
    if (!read.ok) {
      if (read.reason === "too-large") return jsonError(413, `The request body is larger than ${config.maxBodyBytes} bytes.`);
      // (A body that broke off: the caller left, or Node ended the request at its timeout and logged that.)
      if (read.reason === "idle") hooks.event("request body idle");
      // The rest of the body may still come: this connection is not used again.
      return jsonError(408, read.reason === "idle"
        ? `The request body stopped arriving: nothing came for ${config.idleTimeoutMs} ms.`
        : "The request body broke off.", { Connection: "close" });
    }
    body = read.bytes;
  }
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }

  const timeout = deadline(config.timer, config.timeoutMs);
  const answer = deadline(config.timer, config.answerTimeoutMs);
  // (A signal aborts once: its listeners run once.)
  const answerUp = new Promise<"answer timeout">((resolve) => answer.signal.addEventListener("abort", () => resolve("answer timeout")));
  // Either deadline stops the upstream request, and with it the service's body.
  const upstreamSignal = new AbortController();
  for (const signal of [timeout.signal, answer.signal]) signal.addEventListener("abort", () => upstreamSignal.abort(signal.reason));
  const timedOut = (ms: number) => jsonError(504, `The service did not answer within ${ms} ms.`);
  let upstream: Response;
  try {
    upstream = await config.fetch(`${config.target}${url.pathname}${url.search}`, { method, headers, body, redirect: "manual", signal: upstreamSignal.signal });
  } catch (error) {
    timeout.cancel();
    answer.cancel();
    return timeout.expired() ? timedOut(config.timeoutMs) : jsonError(502, redact(`The service could not be reached (${reasonOf(error)}).`));
  }
  timeout.cancel();
  try {
    return await relay(upstream, method, config, hooks, {
      deadline: answerUp,
      publicBase: config.publicUrl ?? url.origin,
      done: () => answer.cancel(),
    });
  } catch (error) {
    answer.cancel();
    return jsonError(502, redact(`The service's answer broke off (${reasonOf(error)}).`));
  }
}

interface RelayLimits {
  /** Resolves when the whole answer's time is up. */
  deadline: Promise<"answer timeout">;
  /** Where the list links point instead of the service. */
  publicBase: string;
  /** The answer is relayed (or given up): its deadline can go. */
  done: () => void;
}

async function relay(upstream: Response, method: string, config: ResolvedConfig, hooks: ForwardHooks, limits: RelayLimits): Promise<Response> {
  const { redact } = hooks;
  const headers = new Headers();
  // Any of them may quote the request back (a Location most often): each is redacted.
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, redact(value));
  }
  headers.set("X-Content-Type-Options", "nosniff");
  const status = upstream.status;
  // (fetch gives a 204, 205 or 304 no body.)
  if (method === "HEAD" || upstream.body === null) {
    limits.done();
    await upstream.body?.cancel().catch(() => undefined);
    return new Response(null, { status, headers });
  }
  if (status < 400) {
    const json = /\bjson\b/i.test(upstream.headers.get("content-type") ?? "");
    const relayed = await relayBody(upstream.body, {
      timer: config.timer,
      idleMs: config.idleTimeoutMs,
      deadline: limits.deadline,
      transform: json && method === "GET" ? new LinkRewriter((link) => rewriteLink(link, config.target, limits.publicBase)) : undefined,
      onCut: (cut: Cut) => hooks.event(`${cut}: cut after the head was sent`),
      onEnd: limits.done,
    });
    if (!relayed.ok) {
      // (Answered 502 below, naming the error's class only.)
      if (relayed.reason === "broken") throw new AnswerBrokeOff();
      hooks.event(relayed.reason);
      return jsonError(504, relayed.reason === "answer idle"
        ? `The service started answering, then sent nothing for ${config.idleTimeoutMs} ms.`
        : `The service did not finish answering within ${config.answerTimeoutMs} ms.`);
    }
    return new Response(relayed.body, { status, headers });
  }
  const read = await Promise.race([
    readCapped(upstream.body, null, MAX_ERROR_BODY_BYTES, { timer: config.timer, ms: config.idleTimeoutMs }),
    limits.deadline,
  ]);
  limits.done();
  if (read === "answer timeout" || (!read.ok && read.reason === "idle")) {
    hooks.event(read === "answer timeout" ? "answer timeout" : "answer idle");
    return jsonError(504, `The service did not finish its ${status} answer in time.`);
  }
  if (!read.ok && read.reason === "broken") throw new AnswerBrokeOff(); // (as above)
  if (!read.ok) {
    const replaced = jsonError(status, `The service answered ${status} with an error body over ${MAX_ERROR_BODY_BYTES} bytes; it is not relayed.`);
    const retryAfter = headers.get("retry-after");
    if (retryAfter !== null) replaced.headers.set("Retry-After", retryAfter);
    return replaced;
  }
  return new Response(redact(new TextDecoder().decode(read.bytes)), { status, headers });
}

/** The service's answer broke off mid-body: no cause to name, so the operator reads "(Error)" (its name is Error's). */
class AnswerBrokeOff extends Error {}

/** A short cause for the operator (`ECONNREFUSED`, `AbortError`): never the request, never its headers. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code.slice(0, 40);
  return error instanceof Error ? error.name.slice(0, 40) : "unknown error";
}
