/**
 * Runs the gateway on Node's HTTP server (the CLI and the tests): by default on the fast path (node-fast.ts:
 * Node's own streams and node:http to the service, the fetch handler's decisions and answers), or with
 * `handler: "fetch"` the fetch handler itself behind @hono/node-server; either way with what only a server of its own can bound (serverless platforms bound these
 * themselves): the time a caller has to send its request head and its whole request (408 after it), the
 * connections at once (an idle one closed for a newcomer, connection-cap.ts; 503 when all are busy), and a
 * request with two Host headers (400, RFC 9112 section 3.2). Each of these gets one access-log entry, without
 * secrets: never a header, never what the caller sent. Off loopback it needs the gateway's public URL.
 */
import { getRequestListener } from "@hono/node-server";
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { loggedPath, scrubbedEntry } from "./access-log";
import { createGateway } from "./app";
import { GatewayConfigError, isLoopbackHost, positive, resolveConfig, type GatewayConfig, type ResolvedConfig } from "./config";
import { ConnectionCap } from "./connection-cap";
import { serveFast } from "./node-fast";
import { nodeHead } from "./node-head";
import { upstreamAgents } from "./node-upstream";
import { redactorFor, requestSecrets } from "./redact";
import {
  DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS, HEALTH_PATH, OVERFLOW_CONNECTIONS,
} from "./limits";

export interface RunningGateway {
  /** `http://host:port`, the base URL to give the add-in. */
  baseUrl: string;
  /** Connections open now (tests watch a refused one go). */
  connections(): number;
  close(): Promise<void>;
}

export interface NodeListen {
  /** 0, the default, picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A caller's request head must have arrived within this; default DEFAULT_HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
  /** A caller's whole request, head and body; default DEFAULT_REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** Connections at once; default DEFAULT_MAX_CONNECTIONS. */
  maxConnections?: number;
  /**
   * "fast" (the default): Node's own streams, node:http to the service (config.fetch is not used, so it may
   * not be given). "fetch": the web-standard fetch handler behind @hono/node-server, as on the other platforms.
   * In team mode only "fetch" (the default then): see nodeHandler.
   */
  handler?: "fast" | "fetch";
}

/**
 * The handler a gateway runs on. Team mode runs on the fetch handler only: its admission (team/admission.ts:
 * the token verified, a PATCH claimed once from its batch and its answer recorded) is wired there, and the
 * fast path streams bodies where team mode must read a PATCH whole and record the answer whole. So a team
 * gateway defaults to "fetch", and asking for "fast" is refused rather than run without those checks.
 */
function nodeHandler(config: GatewayConfig, listen: NodeListen): "fast" | "fetch" {
  if (config.team === undefined) return listen.handler ?? "fast";
  if (listen.handler === "fast") {
    throw new GatewayConfigError("handler", "Team mode runs on the fetch handler only (its token and batch checks are wired there): leave handler unset or give \"fetch\".");
  }
  return "fetch";
}

/** How long a closed-for-writing socket may still send before it is destroyed (so the close is a clean FIN). */
const LINGER_MS = 2000;

function rawAnswer(status: number, message: string, extra: Record<string, string> = {}): string {
  const body = JSON.stringify({ status, error: message });
  const headers = {
    "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), "X-Content-Type-Options": "nosniff", Connection: "close", ...extra,
  };
  // (Only 400, 408, 431 and 503 are answered here: Node names each.)
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n${body}`;
}

function endWith(socket: Duplex, text: string): void {
  socket.on("error", () => undefined);
  socket.resume();
  socket.end(text);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** A server's own bounds, checked (GatewayConfigError for a pair it cannot run with). */
interface ServerLimits {
  headersTimeout: number;
  requestTimeout: number;
  /** Connections at once. */
  cap: number;
}

function serverLimits(listen: NodeListen): ServerLimits {
  const headersTimeout = positive("headersTimeoutMs", listen.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeout = positive("requestTimeoutMs", listen.requestTimeoutMs, Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout));
  if (requestTimeout < headersTimeout) {
    throw new GatewayConfigError("requestTimeoutMs", `requestTimeoutMs (${requestTimeout}) must be at least headersTimeoutMs (${headersTimeout}): a request cannot take less than its head.`);
  }
  const cap = positive("maxConnections", listen.maxConnections, DEFAULT_MAX_CONNECTIONS);
  return { headersTimeout, requestTimeout, cap };
}

/** One access-log entry for what the server answers itself, before or without the fetch handler. */
type ServerEvent = (status: number, what: string, req?: IncomingMessage) => void;

function serverEvents(settings: ResolvedConfig): ServerEvent {
  // (The resolved keys: in team mode the enterprise key is among them.)
  const { log, now, knownKeys } = settings;
  return (status, what, req) => {
    const redact = redactorFor(requestSecrets(req?.headers.authorization, knownKeys));
    log(scrubbedEntry({
      time: new Date(now()).toISOString(),
      method: req?.method ?? "-", // (Node's parser takes only the methods it knows, none longer than 20 characters)
      path: req ? pathForLog(req, redact) : "-",
      status, ms: 0, event: what,
    }, redact));
  };
}

/** Listens on `host` and `port`; throws GatewayConfigError for a configuration it cannot run with. */
export async function startGateway(config: GatewayConfig, listen: NodeListen = {}): Promise<RunningGateway> {
  // Created first, so a configuration mistake throws before a port is taken.
  const gateway = createGateway(config);
  const limits = serverLimits(listen);
  const host = listen.host ?? "127.0.0.1";
  if (config.publicUrl === undefined && !isLoopbackHost(host)) {
    // Without it, list links follow the request's Host header: any client could have them name any host.
    throw new GatewayConfigError("publicUrl", `The gateway listens on ${host}, which others can reach: give its public URL (list links point there, never at the Host a client names), like https://gateway.example.com.`);
  }
  const fast = nodeHandler(config, listen) === "fast";
  if (fast && config.fetch !== undefined) {
    throw new GatewayConfigError("fetch", "The Node fast path calls the service with node:http: a fetch function is used only with handler \"fetch\".");
  }
  const settings = resolveConfig(config);
  const agents = upstreamAgents();
  const event = serverEvents(settings);
  const viaFetch = getRequestListener(gateway.fetch);
  /** Connections beyond the cap: let in only to be answered (healthz, or 503). */
  const overflow = new WeakSet<Socket>();
  const slots = new ConnectionCap<Socket>(limits.cap, OVERFLOW_CONNECTIONS);
  const server: Server = createServer({
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    // Node checks the two timeouts above only this often (30 s by default): a tenth of the shorter one keeps
    // a stalled caller's connection within 10% of its limit.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeout / 10))),
  }, (req: IncomingMessage, res: ServerResponse) => {
    slots.busy(req.socket);
    res.once("close", () => slots.rest(req.socket));
    if (answeredBeforeHandler(req, res, overflow.has(req.socket), limits.cap, event)) return;
    const head = nodeHead(req);
    if (head === null) return answerInvalidHost(req, res, event);
    if (fast) void serveFast(req, res, head, settings, agents);
    else void viaFetch(req, res);
  });
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open++;
    socket.once("close", () => open--);
    const admission = slots.admit(socket);
    if (admission === "refused") {
      event(503, "over connection cap");
      endWith(socket, rawAnswer(503, `The gateway is at its limit of ${limits.cap} connections; try again in a moment.`, { "Retry-After": "1" }));
    } else if (admission === "overflow") overflow.add(socket);
  });
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, limits, event));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    connections: () => open,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agents.destroy();
    }),
  };
}

/**
 * Refuses, in the gateway's words, what the fetch handler must not see: two Host headers, a backslash in the
 * path, and on a connection over the cap anything but a health check. True when it answered.
 */
function answeredBeforeHandler(req: IncomingMessage, res: ServerResponse, overCap: boolean, cap: number, event: ServerEvent): boolean {
  if (hostHeaders(req) > 1) {
    event(400, "duplicate Host", req);
    res.writeHead(400, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", Connection: "close" });
    res.end(JSON.stringify({ status: 400, error: "A request must carry one Host header; this one has several." }));
    return true;
  }
  // @hono/node-server answers a backslash in the path with an empty 400 of its own, before the gateway (and
  // its log line) sees the request: refused here instead, in the gateway's words. In the query it is data.
  const path = (req.url ?? "").split("?")[0];
  if (path.includes("\\")) {
    event(400, "backslash in path", req);
    res.writeHead(400, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" });
    res.end(JSON.stringify({ status: 400, error: "A path with a backslash is not forwarded." }));
    return true;
  }
  if (!overCap) return false;
  res.setHeader("Connection", "close");
  if (req.method === "GET" && path === HEALTH_PATH) return false;
  event(503, "over connection cap", req);
  res.writeHead(503, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", "Retry-After": "1" });
  res.end(JSON.stringify({ status: 503, error: `The gateway is at its limit of ${cap} connections; try again in a moment.` }));
  return true;
}

/**
 * A Host header (or target) that makes no URL: refused in the gateway's words on both paths (@hono/node-server
 * would answer an empty 400 of its own, unlogged).
 */
function answerInvalidHost(req: IncomingMessage, res: ServerResponse, event: ServerEvent): void {
  event(400, "invalid Host", req);
  res.writeHead(400, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", Connection: "close" });
  res.end(JSON.stringify({ status: 400, error: "The request's Host header and target do not make a valid URL." }));
}

/** What never reaches a handler: a request head or body not received in time, bytes Node's parser refuses. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, limits: ServerLimits, event: ServerEvent): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  // (Node 20 reports both its headers timeout and its request timeout as ERR_HTTP_REQUEST_TIMEOUT.)
  const timedOut = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
  if (timedOut) event(408, inFlight ? "request timeout" : "headers timeout", inFlight?.req);
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = timedOut
    ? [408, inFlight ? `The request was not received within ${limits.requestTimeout} ms.` : `The request head was not received within ${limits.headersTimeout} ms.`]
    : err.code === "HPE_HEADER_OVERFLOW" ? [431, "The request head is too large."] : [400, `Malformed HTTP request (${err.code ?? "parse error"}).`];
  endWith(socket, rawAnswer(status, message));
}

/** The path and query as the access log writes them: secret-looking values and any key redacted. */
function pathForLog(req: IncomingMessage, redact: (text: string) => string): string {
  try {
    return loggedPath(new URL(req.url ?? "", "http://gateway.invalid"), redact);
  } catch {
    return "-";
  }
}

/** Host header lines of a request (Node keeps only the first in `headers`). */
function hostHeaders(req: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === "host") count++;
  return count;
}
