/**
 * The processes around the gateway in bench/gateway.ts, each its own node process so none shares a thread
 * with what is measured: a fixed upstream serving real list pages, the baseline (a plain pass-through proxy
 * on Node's own `http`, piping bodies, rewriting nothing), and the load generator both are driven by.
 * Started as `node --import tsx bench/gateway.ts <role> ...`; each prints one JSON line on stdout.
 */
import { Agent, createServer, get, request, type IncomingHttpHeaders } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";

/** What one load run saw. */
export interface LoadResult {
  /** Answered 200: asked for within the window, answered whenever. */
  done: number;
  /** From the first request to the last answer: the window and the drain after it. */
  elapsedMs: number;
  /** Answered anything else, or failed (a socket error, 60 s without an answer). */
  failed: number;
  /** What the failed ones were: a status or an error code, and how many. */
  failures: Record<string, number>;
  /** Every request answered, also after the window: those over 10 s. */
  over10s: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  bytes: number;
}

const listen = (server: ReturnType<typeof createServer>) => new Promise<string>((resolve) => {
  server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
});

/**
 * Serves the two pages as the service would (a 1,000-record one when page_size=1000 is asked for, else the
 * 100-record one), their links pointing at this server: captured from the sandbox, whose origin is replaced.
 */
async function upstream(smallFile: string, largeFile: string, capturedOrigin: string): Promise<void> {
  // Idle keep-alive connections kept well past a run's pauses (Node closes them after 5 s): a proxy reusing one
  // as it closes would answer 502 for the upstream's sake.
  const server = createServer();
  server.keepAliveTimeout = 120_000;
  const base = await listen(server);
  const page = (file: string) => Buffer.from(readFileSync(file, "utf8").split(capturedOrigin).join(base));
  const small = page(smallFile);
  const large = page(largeFile);
  server.on("request", (req, res) => {
    const body = (req.url ?? "").includes("page_size=1000") ? large : small;
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
    res.end(body);
  });
  console.log(JSON.stringify({ base_url: base }));
}

/** The baseline: every request piped to the target and its answer piped back, headers as they came. */
async function plainProxy(target: string): Promise<void> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  console.log(JSON.stringify({ base_url: await listen(server) }));
}

/** `connections` keep-alive connections, each asking for `url` again as soon as its last answer has been read, for `seconds`. */
async function load(url: string, connections: number, seconds: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers: IncomingHttpHeaders = { authorization: "Api-Key sk_bench_not_a_real_key" };
  const latencies: number[] = [];
  const result = { done: 0, failed: 0, bytes: 0 };
  const failures: Record<string, number> = {};
  const start = performance.now();
  const until = start + seconds * 1000;
  const one = () => new Promise<void>((resolve) => {
    const started = performance.now();
    let settled = false;
    const fail = (error?: NodeJS.ErrnoException | number) => {
      if (settled) return;
      settled = true;
      const what = typeof error === "number" ? String(error) : (error?.code ?? error?.name ?? "error");
      failures[what] = (failures[what] ?? 0) + 1;
      result.failed++;
      latencies.push(performance.now() - started);
      resolve();
    };
    const req = get(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("error", fail);
      res.on("end", () => {
        const now = performance.now();
        if (res.statusCode !== 200) return fail(res.statusCode);
        if (settled) return;
        settled = true;
        latencies.push(now - started);
        result.done++;
        result.bytes += bytes;
        resolve();
      });
    });
    req.setTimeout(60_000, () => req.destroy());
    req.on("error", fail);
  });
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) await one();
  }));
  const elapsedMs = performance.now() - start;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0);
  const out: LoadResult = { ...result, elapsedMs, failures, over10s: sorted.filter((ms) => ms > 10_000).length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
  console.log(JSON.stringify(out));
}

/** The entry of each peer process (`bench/gateway.ts <role> ...`). */
export async function runPeer([role, ...args]: string[]): Promise<void> {
  if (role === "upstream") return upstream(args[0], args[1], args[2]);
  if (role === "proxy") return plainProxy(args[0]);
  if (role === "load") return load(args[0], Number(args[1]), Number(args[2]));
  throw new Error(`unknown peer role ${role}`);
}
