/**
 * A loopback server for browser tests: the built add-in's files, /proxy/* forwarded to the service (like the dev
 * server's proxy), and `answers` (a path and its JSON) as the dev server answers /demo-ids.json.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".png": "image/png", ".xml": "application/xml" };

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function serveBuild(dir: string, service: string, answers: Record<string, unknown> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    try {
      if (Object.hasOwn(answers, url.pathname)) {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(answers[url.pathname]));
        return;
      }
      if (url.pathname.startsWith("/proxy/")) {
        const headers: Record<string, string> = {};
        for (const name of ["authorization", "content-type", "accept"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
        const body = req.method === "GET" ? undefined : new Uint8Array(await bodyOf(req));
        const answer = await fetch(`${service}${url.pathname.slice("/proxy".length)}${url.search}`, { method: req.method, headers, body });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await answer.arrayBuffer()));
        return;
      }
      const file = normalize(join(dir, url.pathname === "/" ? "workbench.html" : url.pathname));
      if (!file.startsWith(dir)) throw new Error("outside");
      const data = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(data);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
