/**
 * Raw HTTP/1.x over a TCP socket, for requests fetch cannot express (unknown methods, HTTP/1.0 without
 * Host, broken framing) and for watching how the server ends a connection.
 */
import { connect } from "node:net";

export interface RawAnswer {
  /** null: the server sent no status line at all (an empty reply). */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The server closed its side (FIN) after the answer. */
  ended: boolean;
  /** A socket error such as ECONNRESET, or "no answer" when none came within the bound. */
  error: string | null;
}

/** Parses one response (skipping 1xx interim answers) out of what was received. */
export function parseResponse(raw: Buffer): Omit<RawAnswer, "ended" | "error"> & { complete: boolean } {
  let rest = raw;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) return { status: null, headers: {}, body: "", json: undefined, complete: false };
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.subarray(headEnd + 4);
    if (status >= 100 && status < 200) continue;
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
      const { body, complete } = dechunk(rest);
      return { status: Number.isNaN(status) ? null : status, headers, body, json: jsonOf(body), complete };
    }
    const length = headers["content-length"] === undefined ? rest.length : Number(headers["content-length"]);
    const body = rest.subarray(0, length).toString("utf8");
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return { status: Number.isNaN(status) ? null : status, headers, body, json, complete: rest.length >= length };
  }
}

function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A chunked body's data as far as it has arrived; complete once the last (empty) chunk is in. */
function dechunk(raw: Buffer): { body: string; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) break;
    if (size === 0) return { body: Buffer.concat(parts).toString("utf8"), complete: true };
    const start = lineEnd + 2;
    parts.push(raw.subarray(start, Math.min(raw.length, start + size)));
    if (start + size + 2 > raw.length) break;
    at = start + size + 2;
  }
  return { body: Buffer.concat(parts).toString("utf8"), complete: false };
}

/**
 * Sends `request` (string or bytes, or pieces written one after another) and collects the answer until
 * the server closes, or until one whole response has arrived and `keepOpen` is false. `boundMs` only
 * bounds a broken server's silence (reported as "no answer"); nothing here measures time.
 */
export function rawRequest(port: number, request: string | Buffer | (string | Buffer)[], options: { boundMs?: number; waitForClose?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let ended = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks));
      resolve({ status: parsed.status, headers: parsed.headers, body: parsed.body, json: parsed.json, ended, error });
    };
    const timer = setTimeout(() => {
      error ??= "no answer";
      finish();
    }, options.boundMs ?? 10_000);
    socket.on("data", (d) => {
      chunks.push(d);
      if (!options.waitForClose && parseResponse(Buffer.concat(chunks)).complete) finish();
    });
    socket.on("end", () => {
      ended = true;
      finish();
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      finish();
    });
    socket.on("connect", () => {
      for (const piece of Array.isArray(request) ? request : [request]) socket.write(piece);
    });
  });
}
