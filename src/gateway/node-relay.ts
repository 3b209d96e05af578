/**
 * The Node fast path's forwarding (what forward.ts and answer-body.ts do for the fetch handler, with Node's
 * streams instead of web streams, and answering in the same words, forward-answers.ts): the request body read
 * under its cap, the service called (node-upstream.ts), a success body piped to the caller through the link
 * rewriter as it arrives, its head sent with its first byte; an error body read (bounded) and redacted. The
 * same deadlines: `timeoutMs` for the service's head (504), the idle timeout between its chunks while the
 * caller is reading, the answer deadline for all of it (504 before its head went out, the connection cut after).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Forwarding } from "./admission";
import type { ResolvedConfig } from "./config";
import {
  bodyRefused, brokeOff, errorStalled, errorTooLarge, notAnsweredIn, relayedHeaders, rewritesLinks, successStalled, unreachable,
} from "./forward-answers";
import type { PlainAnswer } from "./http-errors";
import { MAX_ERROR_BODY_BYTES } from "./limits";
import { LinkRewriter, rewriteLink, type FindBytes } from "./links";
import { readNodeBody } from "./node-body";
import { callService, type UpstreamAgents } from "./node-upstream";

/**
 * Buffer's native search for the rewriter (the answer's chunks are Buffers).
 * @internal bench/gateway.ts measures the fast path's search alone.
 */
export const nativeFind: FindBytes = (haystack, needle, from) => (Buffer.isBuffer(haystack) ? haystack : Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength)).indexOf(needle, from);

/** As the fetch handler decodes an error body (a BOM dropped, bad bytes replaced). */
const DECODER = new TextDecoder();

/** One exchange on the fast path. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  to: Forwarding;
  settings: ResolvedConfig;
  redact: (text: string) => string;
  /** Notes an event for the access log (RequestLog.note). */
  note(event: string): void;
  /** Writes a whole answer the gateway makes (with the CORS headers) and logs it. */
  answer(answer: PlainAnswer): void;
  /** Sends the head of a relayed answer (with the CORS headers) and logs it; false when a fault was answered instead. */
  head(status: number, headers: Record<string, string>): boolean;
}

/** Which deadline ended the wait, if one did. */
type Deadline = "timeout" | "answer timeout" | "answer idle" | null;

export async function relayNode(x: Exchange, agents: UpstreamAgents): Promise<void> {
  const { settings, to } = x;
  const { timer } = settings;
  let body: Buffer | undefined;
  if (to.method === "PATCH") {
    const read = await readNodeBody(x.req, settings.maxBodyBytes, { timer, ms: settings.idleTimeoutMs });
    if (!read.ok) return x.answer(bodyRefused(read.reason, settings, (what) => x.note(what)));
    body = read.bytes;
  }
  const call = callService(to, body, agents);
  let fired: Deadline = null;
  /** Told when a deadline fires while the answer is being read. */
  let onDeadline: () => void = () => undefined;
  const fire = (which: Exclude<Deadline, null>) => () => {
    fired ??= which;
    onDeadline();
  };
  const headTimer = timer.set(fire("timeout"), settings.timeoutMs);
  const answerTimer = timer.set(fire("answer timeout"), settings.answerTimeoutMs);
  const done = () => timer.clear(answerTimer);
  // The caller left: nothing more is asked of the service. (A finished answer's connection stays in the pool.)
  x.res.once("close", () => {
    if (x.res.writableFinished) return;
    done();
    call.abort();
  });
  onDeadline = () => call.abort();
  const head = await call.head;
  timer.clear(headTimer);
  if ("error" in head) {
    done();
    // (Only the head's own timeout answers 504 here: the answer deadline is never shorter, and fires after it.)
    return x.answer(fired === "timeout" ? notAnsweredIn(settings.timeoutMs) : unreachable(fired ? "TimeoutError" : (head.error.code ?? head.error.name).slice(0, 40), x.redact));
  }
  const status = head.statusCode ?? 502;
  const headers = relayedHeaders((name) => headerValue(head, name), x.redact);
  if (to.method === "HEAD" || status === 204 || status === 205 || status === 304) {
    done();
    head.resume();
    if (x.head(status, headers)) x.res.end();
    return;
  }
  const reading = { head, x, done, onDeadline: (f: () => void) => (onDeadline = f), fired: () => fired, idle: () => (fired = "answer idle") };
  // An answer with a body and no type gets the one @hono/node-server gives it on the fetch handler's path.
  headers["content-type"] ??= "text/plain; charset=UTF-8";
  if (status < 400) relaySuccess(reading, status, headers);
  else relayError(reading, status, headers);
}

/** What reading the service's answer needs. */
interface Reading {
  head: IncomingMessage;
  x: Exchange;
  /** The answer deadline can go. */
  done(): void;
  /** Sets what a deadline firing does from now on. */
  onDeadline(f: () => void): void;
  fired(): Deadline;
  /** The idle timeout fired. */
  idle(): void;
}

/** A Node timer, which can be pushed back in place (a test's manual timer cannot). */
const refreshable = (handle: unknown): handle is { refresh(): unknown } => typeof (handle as { refresh?: unknown } | undefined)?.refresh === "function";

/**
 * Arms the idle timeout while waiting for the service's next chunk; `stop` is told when it fires. Re-armed after
 * each chunk, an armed Node timer is pushed back in place rather than cleared and made anew (issue 49: a timer
 * made and dropped per chunk, ~20 for a 1 MB page).
 */
function idleWatch(r: Reading, stop: () => void): { arm(): void; clear(): void } {
  const { timer, idleTimeoutMs } = r.x.settings;
  let handle: unknown;
  /** Set and not yet fired nor cleared (a fired Node timer, refreshed, would fire again). */
  let armed = false;
  const clear = () => {
    if (armed) timer.clear(handle);
    armed = false;
  };
  return {
    clear,
    arm() {
      if (armed && refreshable(handle)) {
        handle.refresh();
        return;
      }
      clear();
      armed = true;
      handle = timer.set(() => {
        armed = false;
        r.idle();
        stop();
      }, idleTimeoutMs);
    },
  };
}

/** What reading an answer's body takes, success or error alike: the deadlines armed, and its end however it comes. */
interface Watch {
  /** The answer is over (relayed, cut or broken): nothing more is done with it. */
  over(): boolean;
  /** Marks it over and lets the deadlines go. */
  finish(): void;
  idle: { arm(): void; clear(): void };
}

/**
 * Watches the service's answer: at a deadline it is destroyed and `cutOff` told which one fired; when it breaks
 * off, broken() answers (`headSent` says whether a byte went out).
 */
function watchAnswer(r: Reading, cutOff: (cut: "answer idle" | "answer timeout") => void, headSent: () => boolean): Watch {
  const answer = r.head;
  let over = false;
  const finish = () => {
    over = true;
    idle.clear();
    r.done();
  };
  const stop = () => {
    if (over) return;
    finish();
    answer.destroy();
    cutOff(r.fired() === "answer idle" ? "answer idle" : "answer timeout");
  };
  const idle = idleWatch(r, stop);
  r.onDeadline(stop);
  const broke = () => broken(r, headSent(), finish, () => over);
  answer.once("error", broke);
  answer.once("close", () => {
    if (!answer.complete) broke();
  });
  return { over: () => over, finish, idle };
}

/** Writes the parts of a chunk (links.ts) as one write; false when the caller is not reading as fast. */
function writeParts(res: ServerResponse, parts: Uint8Array[]): boolean {
  if (parts.length === 1) return parts[0].byteLength === 0 || res.write(parts[0]);
  let ready = true;
  res.cork();
  for (const part of parts) if (part.byteLength > 0) ready = res.write(part);
  res.uncork();
  return ready;
}

function relaySuccess(r: Reading, status: number, headers: Record<string, string>): void {
  const { x, head: answer } = r;
  const { settings, to, res } = x;
  const rewriter = rewritesLinks(to.method, headerValue(answer, "content-type")) ? new LinkRewriter((link) => rewriteLink(link, settings.target, to.publicBase), nativeFind) : undefined;
  let headSent = false;
  const watch = watchAnswer(r, (cut) => {
    if (!headSent) {
      x.note(cut);
      return x.answer(successStalled(cut, settings));
    }
    x.note(`${cut}: cut after the head was sent`);
    res.destroy();
  }, () => headSent);
  /** False when the head could not go out (a fault was answered instead): nothing more is relayed. */
  const sendHead = () => {
    if (headSent) return true;
    headSent = true;
    if (x.head(status, headers)) return true;
    watch.finish();
    answer.destroy();
    return false;
  };
  /** What the service still has to send, when it declared its length: its last chunk is then known as it arrives. */
  let left = Number(headerValue(answer, "content-length") ?? Number.NaN);
  /** The body's last bytes and its end in one write: chunked framing's last chunk goes out in the same packet. */
  const finishWith = (parts: Uint8Array[]) => {
    watch.finish();
    const rest = rewriter?.end();
    res.cork();
    for (const part of rest?.byteLength ? [...parts, rest] : parts) if (part.byteLength > 0) res.write(part);
    // (end() uncorks the socket whole: one write for what was corked and the end.)
    res.end();
  };
  answer.on("data", (chunk: Buffer) => {
    if (watch.over()) return;
    left -= chunk.length;
    if (!sendHead()) return;
    const parts = rewriter ? rewriter.pushParts(chunk) : [chunk];
    if (left === 0) return finishWith(parts);
    // (Re-armed, not cleared first: nothing between here and there waits, so the timer cannot fire meanwhile.)
    if (writeParts(res, parts)) return watch.idle.arm();
    // The caller reads slowly: the service is not asked for more (nor timed) until it has.
    watch.idle.clear();
    answer.pause();
    res.once("drain", () => {
      if (watch.over()) return;
      watch.idle.arm();
      answer.resume();
    });
  });
  answer.once("end", () => {
    if (watch.over()) return;
    if (!sendHead()) return;
    finishWith([]);
  });
  watch.idle.arm();
}

/** The service's answer broke off: 502 while no byte went out, the connection cut after. */
function broken(r: Reading, headSent: boolean, finish: () => void, over: () => boolean): void {
  if (over()) return;
  finish();
  if (headSent) r.x.res.destroy();
  // (The fetch handler names this error's class only: Error.)
  else r.x.answer(brokeOff("Error", r.x.redact));
}

/** An error body, read whole (at most MAX_ERROR_BODY_BYTES) so the caller's key can be redacted from it. */
function relayError(r: Reading, status: number, headers: Record<string, string>): void {
  const { x, head: answer } = r;
  const chunks: Buffer[] = [];
  let size = 0;
  const watch = watchAnswer(r, (cut) => {
    x.note(cut);
    x.answer(errorStalled(status));
  }, () => false);
  answer.on("data", (chunk: Buffer) => {
    if (watch.over()) return;
    size += chunk.length;
    if (size > MAX_ERROR_BODY_BYTES) {
      watch.finish();
      answer.destroy();
      return x.answer(errorTooLarge(status, headers["retry-after"]));
    }
    chunks.push(chunk);
    watch.idle.arm();
  });
  answer.once("end", () => {
    if (watch.over()) return;
    watch.finish();
    x.answer({ status, headers, body: x.redact(DECODER.decode(Buffer.concat(chunks, size))) });
  });
  watch.idle.arm();
}

/** A header of the service's answer as fetch's Headers gives it (Node joins repeated ones too, but for a few). */
function headerValue(answer: IncomingMessage, name: string): string | null {
  const value = answer.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
