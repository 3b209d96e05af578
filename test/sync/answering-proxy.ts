/**
 * A real HTTP server on loopback in front of the sandbox, as a misbehaving proxy or cache would stand: it
 * forwards each request, and a test's rule may send it to another path (a GET of one record answered with
 * another's), rewrite a 200 answer's JSON, answer in the service's place without forwarding, or close the
 * connection after forwarding (an answer lost on the way back). Every request is recorded, in order.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

interface Passed {
  method: string;
  /** The path asked for, with its query. */
  asked: string;
  /** The path forwarded to the sandbox (another record's, when the rule said so); "" when not forwarded. */
  forwarded: string;
}

interface Twist {
  /** Forward to this path (and the asked query) instead. */
  to?: string;
  /** The answer's JSON as the client gets it, from the sandbox's (a 200's only). */
  rewrite?: (json: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Answer this 200 JSON without forwarding: the sandbox never sees the request. */
  answer?: () => unknown;
  /** Close the connection without an answer (after forwarding, unless `answer` is given). */
  drop?: boolean;
}

/** What to do with a request: nothing (forward it as it is), or a twist. */
export type Rule = (method: string, path: string, query: URLSearchParams) => Twist | undefined;

export interface AnsweringProxy {
  baseUrl: string;
  passed: Passed[];
  /** The PATCH requests that reached the sandbox. */
  patchesForwarded(): number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function answeringProxy(upstream: string, rule: Rule): Promise<AnsweringProxy> {
  const passed: Passed[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const method = req.method ?? "GET";
    const twist = rule(method, url.pathname, url.searchParams) ?? {};
    const body = method === "GET" ? undefined : new Uint8Array(await bodyOf(req));
    const record: Passed = { method, asked: `${url.pathname}${url.search}`, forwarded: "" };
    passed.push(record);
    try {
      let status = 200;
      let text: string;
      if (twist.answer) {
        text = JSON.stringify(twist.answer());
      } else {
        record.forwarded = `${twist.to ?? url.pathname}${url.search}`;
        const headers: Record<string, string> = {};
        for (const name of ["authorization", "content-type", "accept"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
        const answer = await fetch(`${upstream}${record.forwarded}`, { method, headers, body });
        status = answer.status;
        text = await answer.text();
        if (twist.rewrite && status === 200) text = JSON.stringify(twist.rewrite(JSON.parse(text)));
      }
      if (twist.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(status, { "content-type": "application/json" });
      res.end(text);
    } catch (error) {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: 502, error: String(error) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    passed,
    patchesForwarded: () => passed.filter((p) => p.method === "PATCH" && p.forwarded !== "").length,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
