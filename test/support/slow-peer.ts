/**
 * Peers that stall, over real sockets on loopback: a client that sends its request a little at a time (or
 * not at all), and an upstream that answers a little at a time. Nothing here measures time: a peer sends its
 * next piece every `everyMs` until the other side closes, and the test looks at what came back and how the
 * connection ended. `boundMs` only bounds a broken server's silence (reported as "no answer").
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { parseResponse, type RawAnswer } from "../sandbox/raw-http";

export interface SlowClient {
  /** Resolves once the server has closed the connection (or `boundMs` passed). */
  answer: Promise<RawAnswer & { piecesSent: number }>;
  socket: Socket;
}

/**
 * Connects, writes `head` at once, then `drip` one piece every `everyMs`, over and over, until the server
 * closes. An empty `drip` sends nothing more: a peer that stalled.
 */
export function slowClient(port: number, head: string, drip: string[], everyMs: number, boundMs = 15_000): SlowClient {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  let piecesSent = 0;
  let ended = false;
  let error: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = new Promise<RawAnswer & { piecesSent: number }>((resolve) => {
    const bound = setTimeout(() => {
      error ??= "no answer";
      finish();
    }, boundMs);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(bound);
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks));
      resolve({ status: parsed.status, headers: parsed.headers, body: parsed.body, json: parsed.json, ended, error, piecesSent });
    };
    socket.on("data", (d) => chunks.push(d));
    socket.on("end", () => {
      ended = true;
      finish();
    });
    socket.on("close", finish);
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on("connect", () => {
      socket.write(head);
      const next = () => {
        if (drip.length === 0 || socket.destroyed || ended) return;
        socket.write(drip[piecesSent % drip.length]);
        piecesSent++;
        timer = setTimeout(next, everyMs);
      };
      timer = setTimeout(next, everyMs);
    });
  });
  return { answer, socket };
}

/** Opens a connection that sends nothing; resolves once it is connected. */
export function idleConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", (e) => reject(e));
  });
}

export interface SlowUpstream {
  url: string;
  close(): Promise<void>;
  /** Requests it received. */
  seen: string[];
}

/** An HTTP server on loopback whose answer `answer` writes as it pleases (a piece at a time, or never). */
export async function slowUpstream(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<SlowUpstream> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Writes `first`, then one of `pieces` every `everyMs` until the response is closed by the other side (or ends). */
export function dripAnswer(res: ServerResponse, first: string, pieces: string[], everyMs: number): void {
  res.write(first);
  if (pieces.length === 0) return;
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) return clearInterval(timer);
    res.write(pieces[i++ % pieces.length]);
  }, everyMs);
  res.on("close", () => clearInterval(timer));
}
