/**
 * Answers for what never reaches a request handler: bytes Node's HTTP parser refuses (`clientError`)
 * and CONNECT. Written straight on the socket, as Node's docs prescribe, always JSON, then closed.
 * Node's default for these was to destroy the socket: a client saw a hang-up and no status.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "./http-errors";
import { MAX_URL_BYTES, SERVED_METHODS, type ConnectionLimits } from "./limits";

/** How long a closed-for-writing socket may still send before it is destroyed. */
const LINGER_MS = 2000;

export function rawResponse(status: number, message: string, extra: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(status, message));
  const headers = {
    "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), Connection: "close", ...extra,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n${lines}\r\n${body}`;
}

/** Node's parser error codes -> the status a client should see. */
function classifyParseError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, string] {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW": {
      // The request line is still incomplete (or alone too long): the URL is what overflowed.
      const packet = err.rawPacket?.subarray(0, MAX_URL_BYTES + 64).toString("latin1") ?? "";
      const lineEnd = packet.indexOf("\n");
      return lineEnd < 0 || lineEnd > MAX_URL_BYTES
        ? [414, `The request target is longer than ${MAX_URL_BYTES} bytes.`]
        : [431, "The request headers are too large."];
    }
    // Bad input is never a 5xx (issue 13): an unknown method is "not allowed here" (405, with Allow),
    // an unknown HTTP version a malformed request (400); HTTP's own 501 and 505 would read as server faults.
    case "HPE_INVALID_METHOD":
      return [405, `Unknown method; the service serves ${SERVED_METHODS.join(", ")}.`];
    case "HPE_INVALID_VERSION":
      return [400, "HTTP version not supported; use HTTP/1.1 or HTTP/1.0."];
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADERS_TIMEOUT":
      return [408, "The request was not received in time."];
    default:
      return [400, `Malformed HTTP request (${err.code ?? "parse error"}).`];
  }
}

/** Ends the socket after `text`; incoming bytes are discarded for a while so the close stays a clean FIN. */
export function endWith(socket: Duplex, text: string): void {
  socket.on("error", () => undefined);
  socket.resume();
  socket.end(text);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * `server.on("clientError")`: a JSON answer whenever nothing has been written on this connection yet. A
 * request head or body not received within the limits is a 408 that says which, and is logged (`log`, one line,
 * with the method and path when the head had arrived: never a header, never the query).
 */
export function clientErrorAnswerer(limits: Pick<ConnectionLimits, "headersTimeoutMs" | "requestTimeoutMs">, log: (line: string) => void) {
  return (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void => {
    // A response already under way (headers sent) cannot be followed by another one: just close.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    const timedOut = err.code === "ERR_HTTP_REQUEST_TIMEOUT" || err.code === "HPE_HEADERS_TIMEOUT";
    const [status, parsed] = classifyParseError(err);
    let message = parsed;
    if (timedOut) {
      const req = inFlight?.req;
      message = req
        ? `The request was not received within ${limits.requestTimeoutMs} ms.`
        : `The request head was not received within ${limits.headersTimeoutMs} ms.`;
      log(`408 ${req ? `request timeout: ${req.method} ${(req.url ?? "").split("?")[0].slice(0, 200)}` : "headers timeout"}`);
    }
    if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    endWith(socket, rawResponse(status, message));
  };
}

/** `server.on("connect")`: CONNECT is an HTTP method the service does not serve. */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  endWith(socket, rawResponse(405, "Method CONNECT is not allowed.", { Allow: SERVED_METHODS.join(", ") }));
}
