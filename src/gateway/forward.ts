/**
 * The fetch handler's forwarding of a request admitted by admission.ts: to the service with `fetch`, and its
 * answer relayed. Only the headers the service reads go up and only plain response headers come back; a success
 * body is streamed through (a list's `next`/`previous` links rewritten to the gateway), an error body is read
 * (bounded) and relayed with the caller's key redacted, since a service or a proxy in front of it may quote the
 * request back. The key itself is passed on and written nowhere (redact.ts keeps the redactors of the last 64 keys, in memory only). (The Node fast path does the
 * same with node:http, node-relay.ts; the answers both give are in forward-answers.ts.)
 *
 * Time is bounded wherever a peer can stall: the caller's body may not pause longer than the idle timeout
 * (408); the service has `timeoutMs` to start answering (504), may not pause longer than the idle timeout
 * inside its body, and must have sent all of it by the answer deadline (504 while no byte went out, the
 * connection cut after).
 */
import type { Forwarding } from "./admission";
import { relayBody, type Cut } from "./answer-body";
import { readCapped } from "./body";
import type { ResolvedConfig } from "./config";
import {
  bodyRefused, brokeOff, errorStalled, errorTooLarge, notAnsweredIn, reasonOf, relayedHeaders, rewritesLinks, successStalled, unreachable,
} from "./forward-answers";
import { toResponse } from "./http-errors";
import { MAX_ERROR_BODY_BYTES } from "./limits";
import { LinkRewriter, rewriteLink } from "./links";
import { deadline } from "./timeout";

export interface ForwardHooks {
  redact: (text: string) => string;
  /** Told when the gateway itself ends an exchange because a peer stalled (for the access log). */
  event: (event: string) => void;
}

export async function forward(request: Request, to: Forwarding, config: ResolvedConfig, hooks: ForwardHooks): Promise<Response> {
  const { redact } = hooks;
  const { method } = to;
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method === "PATCH") {
    const read = await readCapped(request.body, null, config.maxBodyBytes, { timer: config.timer, ms: config.idleTimeoutMs });
    if (!read.ok) return toResponse(bodyRefused(read.reason, config, hooks.event));
    body = read.bytes;
  }
  const timeout = deadline(config.timer, config.timeoutMs);
  const answer = deadline(config.timer, config.answerTimeoutMs);
  // (A signal aborts once: its listeners run once.)
  const answerUp = new Promise<"answer timeout">((resolve) => answer.signal.addEventListener("abort", () => resolve("answer timeout")));
  // Either deadline stops the upstream request, and with it the service's body.
  const upstreamSignal = new AbortController();
  for (const signal of [timeout.signal, answer.signal]) signal.addEventListener("abort", () => upstreamSignal.abort(signal.reason));
  let upstream: Response;
  try {
    upstream = await config.fetch(to.url, { method, headers: to.headers, body, redirect: "manual", signal: upstreamSignal.signal });
  } catch (error) {
    timeout.cancel();
    answer.cancel();
    return toResponse(timeout.expired() ? notAnsweredIn(config.timeoutMs) : unreachable(reasonOf(error), redact));
  }
  timeout.cancel();
  try {
    return await relay(upstream, method, config, hooks, { deadline: answerUp, publicBase: to.publicBase, done: () => answer.cancel() });
  } catch (error) {
    answer.cancel();
    return toResponse(brokeOff(reasonOf(error), redact));
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
  const headers = relayedHeaders((name) => upstream.headers.get(name), redact);
  const status = upstream.status;
  // (fetch gives a 204, 205 or 304 no body.)
  if (method === "HEAD" || upstream.body === null) {
    limits.done();
    await upstream.body?.cancel().catch(() => undefined);
    return new Response(null, { status, headers });
  }
  if (status < 400) {
    const relayed = await relayBody(upstream.body, {
      timer: config.timer,
      idleMs: config.idleTimeoutMs,
      deadline: limits.deadline,
      transform: rewritesLinks(method, upstream.headers.get("content-type")) ? new LinkRewriter((link) => rewriteLink(link, config.target, limits.publicBase)) : undefined,
      onCut: (cut: Cut) => hooks.event(`${cut}: cut after the head was sent`),
      onEnd: limits.done,
    });
    if (!relayed.ok) {
      // (Answered 502 below, naming the error's class only.)
      if (relayed.reason === "broken") throw new AnswerBrokeOff();
      hooks.event(relayed.reason);
      return toResponse(successStalled(relayed.reason, config));
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
    return toResponse(errorStalled(status));
  }
  if (!read.ok && read.reason === "broken") throw new AnswerBrokeOff(); // (as above)
  if (!read.ok) return toResponse(errorTooLarge(status, headers["retry-after"]));
  return new Response(redact(new TextDecoder().decode(read.bytes)), { status, headers });
}

/** The service's answer broke off mid-body: no cause to name, so the operator reads "(Error)" (its name is Error's). */
class AnswerBrokeOff extends Error {}
