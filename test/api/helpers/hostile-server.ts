/** A real HTTP server on 127.0.0.1, port 0, that answers as a test scripts it and records what it was sent. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface HostileServer {
  /** http://127.0.0.1:<port> */
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function hostileServer(handle: (req: IncomingMessage, res: ServerResponse, key: string) => void): Promise<HostileServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const authorization = req.headers.authorization;
    seen.push({ method: req.method ?? "", url: req.url ?? "", authorization });
    handle(req, res, (authorization ?? "").replace(/^Api-Key /, ""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Sends `body` (an object is written as JSON) with a status and headers. */
export function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "Content-Type": typeof body === "string" ? "text/html" : "application/json", ...headers });
  res.end(text);
}
