/**
 * The front door between Node's HTTP server and hono: checks what hono cannot answer well (Host, one Host
 * only, request target, method, body size), reads the body itself under the limit and without a pause longer
 * than the idle timeout (408 after it), and pins the URL the app
 * sees to the server's own base URL. Every refusal is a JSON error; an oversized body is read to its end
 * (up to DRAIN_LIMIT_BYTES) before the 413, so the client reads the answer and a clean close instead of a
 * reset mid-send, and a keep-alive client never reuses that connection (`Connection: close`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "./http-errors";
import { DRAIN_LIMIT_BYTES, MAX_BODY_BYTES, MAX_URL_BYTES, SERVED_METHODS } from "./limits";

type Listener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** @hono/node-server takes a pre-read body from here instead of reading the stream again. */
type WithRawBody = IncomingMessage & { rawBody?: Buffer };

export function sendError(res: ServerResponse, status: number, message: string, options: { close?: boolean; headers?: Record<string, string> } = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(errorBody(status, message));
  const headers: Record<string, string | number> = {
    "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...options.headers,
  };
  if (options.close) headers.Connection = "close";
  res.writeHead(status, headers);
  res.end(text);
}

const tooLarge = (res: ServerResponse) =>
  sendError(res, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { close: true });

/** The declared Content-Length when it is over the limit (Node has already refused malformed ones). */
function declaredTooLarge(req: IncomingMessage): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && Number(declared) > MAX_BODY_BYTES;
}

/**
 * Checks the request line and headers; returns false once it has answered. `authority` is `host:port`
 * of the server itself: the app's URLs (and so `next`/`previous` links) never come from the client's Host.
 */
function checkHead(req: IncomingMessage, res: ServerResponse, authority: string): boolean {
  if (req.httpVersionMajor !== 1) {
    sendError(res, 400, "HTTP version not supported; use HTTP/1.1 or HTTP/1.0.", { close: true });
    return false;
  }
  if (req.headers.host === undefined && req.httpVersion !== "1.0") {
    sendError(res, 400, "An HTTP/1.1 request must carry a Host header.", { close: true });
    return false;
  }
  // Node keeps the first of several Host lines in `headers`; RFC 9112 section 3.2 says such a request gets 400.
  if (hostLines(req) > 1) {
    sendError(res, 400, "A request must carry one Host header; this one has several.", { close: true });
    return false;
  }
  if (!(SERVED_METHODS as readonly string[]).includes(req.method ?? "")) {
    sendError(res, 405, `Method ${req.method} is not allowed; the service serves ${SERVED_METHODS.join(", ")}.`, {
      headers: { Allow: SERVED_METHODS.join(", ") },
    });
    return false;
  }
  let target = req.url ?? "";
  if (Buffer.byteLength(target) > MAX_URL_BYTES) {
    sendError(res, 414, `The request target is longer than ${MAX_URL_BYTES} bytes.`, { close: true });
    return false;
  }
  if (/^https?:\/\//i.test(target)) {
    // Absolute form (RFC 9112 3.2.2): only its path and query matter; its host is not ours to trust.
    try {
      const url = new URL(target);
      target = `${url.pathname}${url.search}`;
    } catch {
      target = "";
    }
  }
  if (!target.startsWith("/")) {
    sendError(res, 400, "The request target must be a path starting with /.", { close: true });
    return false;
  }
  req.url = target;
  req.headers.host = authority;
  return true;
}

function hostLines(req: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === "host") count++;
  return count;
}

/** The method and path of a request for a log line: never its query, never a header. */
const described = (req: IncomingMessage) => `${req.method} ${(req.url ?? "").split("?")[0].slice(0, 200)}`;

/** How long a closed-for-writing socket may still send before it is destroyed (so the close is a clean FIN). */
const LINGER_MS = 2000;

/**
 * A body the answer does not need (a refused request's, one over the limit) is read and dropped so a client
 * that sends it at once reads its answer and a clean close, not a reset mid-send; but only for `ms` in all,
 * not at the client's pace (a byte a second never pauses long enough for the idle timeout, and would hold the
 * connection until the request timeout). Then `cut` answers, if nothing was sent yet, and the connection ends.
 */
function drainWithin(req: IncomingMessage, res: ServerResponse, ms: number, log: (line: string) => void, cut: { status: number; answer?: () => void }): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete || req.socket.destroyed) return;
    log(`${cut.status} unread body cut: ${described(req)}`);
    req.pause();
    if (!res.headersSent && cut.answer) cut.answer();
    else {
      req.socket.end();
      setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    }
  }, ms);
  timer.unref(); // a pending cut never keeps the process alive
  req.on("end", () => clearTimeout(timer));
  req.on("close", () => clearTimeout(timer));
}

/**
 * Reads the whole body, or answers 413 once it is known to be too large (after draining it, within the idle
 * timeout in all). A body that stops arriving for `idleMs` is answered 408 and its connection closed: the
 * rest of it may still come.
 */
function readBody(req: WithRawBody, res: ServerResponse, idleMs: number, log: (line: string) => void, then: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const overLimit = () => {
    if (over) return;
    over = true;
    drainWithin(req, res, idleMs, log, { status: 413, answer: () => tooLarge(res) });
  };
  const watch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (res.headersSent) return; // answered already (a 413 past the drain limit)
      log(`408 request body idle: ${described(req)}`);
      sendError(res, 408, `The request body stopped arriving: nothing came for ${idleMs} ms.`, { close: true });
      req.pause();
    }, idleMs);
    idle.unref(); // a pending check never keeps the process alive
  };
  watch();
  if (declaredTooLarge(req)) overLimit();
  req.on("close", () => clearTimeout(idle));
  res.on("close", () => clearTimeout(idle));
  req.on("data", (chunk: Buffer) => {
    watch();
    size += chunk.length;
    if (size > MAX_BODY_BYTES) overLimit();
    if (!over) chunks.push(chunk);
    else if (size > DRAIN_LIMIT_BYTES) {
      // Not worth reading further: answer now; Node resets the connection when it closes it.
      tooLarge(res);
      req.pause();
    }
  });
  req.on("end", () => {
    clearTimeout(idle);
    if (res.headersSent) return; // answered already (408)
    if (over) return tooLarge(res);
    req.rawBody = Buffer.concat(chunks, size);
    then();
  });
  // A client that goes away mid-body gets nothing; there is nobody left to answer.
  req.on("error", () => undefined);
}

/** Wraps the app's Node listener with the checks above; `log` is told of a body given up (never its content). */
export function guard(authority: string, next: Listener, idleMs: number, log: (line: string) => void): Listener {
  return (req, res) => {
    if (!checkHead(req, res, authority)) {
      // Read and drop any body, so the connection stays usable; within the idle timeout, not at the client's pace.
      drainWithin(req, res, idleMs, log, { status: res.statusCode });
      req.resume();
      return;
    }
    readBody(req, res, idleMs, log, () => void next(req, res));
  };
}

/**
 * `server.on("checkContinue")`: a client that asked `Expect: 100-continue` with an oversized
 * Content-Length is refused before it sends the body; otherwise it is told to go on.
 */
export function continueOrRefuse(handle: Listener): Listener {
  return (req, res) => {
    if (declaredTooLarge(req)) {
      tooLarge(res);
      return;
    }
    res.writeContinue();
    void handle(req, res);
  };
}
