/**
 * A real HTTP proxy on loopback in front of the sandbox that can answer one request with another's answer:
 * what a cache or gateway mixing up answers does. `route` maps the path and query asked to the one forwarded.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface SwappingProxy {
  /** The proxy's base URL: the sandbox's, on another port. */
  baseUrl: string;
  /** Path and query of every request the proxy was asked, in order. */
  asked: string[];
  /** Which request answers a request asked (default: itself). */
  route: (pathAndQuery: string) => string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function swappingProxy(target: string): Promise<SwappingProxy> {
  const proxy: SwappingProxy = { baseUrl: "", asked: [], route: (p) => p, close: async () => undefined };
  const server = createServer(async (req, res) => {
    const asked = req.url ?? "/";
    proxy.asked.push(asked);
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
    const body = req.method === "GET" ? undefined : new Uint8Array(await bodyOf(req));
    const answer = await fetch(`${target}${proxy.route(asked)}`, { method: req.method, headers, body });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return proxy;
}
