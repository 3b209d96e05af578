/**
 * Issue 49: on the Node fast path, a relayed body the service declared the length of ends in the same write as
 * its last bytes (chunked framing's last chunk, `0\r\n\r\n`, is not a packet of its own that wakes the caller
 * once more): a one-chunk list goes out head, body and end in one write, a two-chunk one in two. A body of
 * undeclared length still ends, whole, when the service's answer does.
 */
import { createServer, request, type Server } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { startGateway, type RunningGateway } from "../../src/gateway/node-server";

const LINK_PATH = "/public/v1/list/?page=2";
let upstream: Server;
let target: string;
let gateway: RunningGateway;
/** Released by the test: the two-chunk answer's second part waits for it, so the two cannot arrive as one. */
let sendRest: () => void = () => undefined;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const body = JSON.stringify({ count: 1, next: `${target}${LINK_PATH}`, previous: null, results: [{ id: "a" }] });
    const path = req.url ?? "";
    if (path.startsWith("/public/v1/one/")) {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    } else if (path.startsWith("/public/v1/two/")) {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.write(body.slice(0, 20));
      sendRest = () => res.end(body.slice(20));
    } else {
      // Chunked: no length declared.
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write(body.slice(0, 20));
      setTimeout(() => res.end(body.slice(20)), 20);
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gateway = await startGateway({ target, allowOrigins: ["https://addin.example.com"], log: () => undefined });
});
afterAll(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** The gateway's writes to the socket whose peer is `port` (a Writable's _write and _writev, each one write). */
function countWrites(port: () => number | undefined): { writes: () => number; restore: () => void } {
  const proto = Socket.prototype as unknown as Record<"_write" | "_writev", (this: Socket, ...args: unknown[]) => void>;
  const originals = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  for (const name of ["_write", "_writev"] as const) {
    proto[name] = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort !== undefined && this.remotePort === port()) writes++;
      return originals[name].apply(this, args);
    };
  }
  return { writes: () => writes, restore: () => Object.assign(proto, originals) };
}

async function fetchCounting(path: string, afterHead: () => void = () => undefined): Promise<{ body: string; writes: number }> {
  let local: number | undefined;
  const counter = countWrites(() => local);
  try {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${gateway.baseUrl}${path}`, { agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(text));
        afterHead();
      });
      req.on("socket", (socket) => socket.on("connect", () => (local = socket.localPort)));
      req.on("error", reject);
      req.end();
    });
    return { body, writes: counter.writes() };
  } finally {
    counter.restore();
  }
}

const relayed = () => JSON.stringify({ count: 1, next: `${gateway.baseUrl}${LINK_PATH}`, previous: null, results: [{ id: "a" }] });

describe("the end of a relayed body", () => {
  it("of one chunk of declared length: head, body and end in one write", async () => {
    expect(await fetchCounting("/public/v1/one/")).toEqual({ body: relayed(), writes: 1 });
  });

  it("of two chunks of declared length: two writes, the end in the second", async () => {
    expect(await fetchCounting("/public/v1/two/", () => sendRest())).toEqual({ body: relayed(), writes: 2 });
  });

  it("of undeclared length: relayed whole, ended when the service's answer ends", async () => {
    expect((await fetchCounting("/public/v1/chunked/")).body).toBe(relayed());
  });
});
