/**
 * Issue 49's benchmark of the gateway under load: 200 keep-alive connections for 15 s, through the gateway
 * (`npm run gateway`, its own process) and through the fair baseline, a plain pass-through proxy on Node's own
 * `http` (piping bodies, rewriting nothing, its own process), both in front of the same fixed upstream serving
 * real 100- and 1,000-record list pages captured from the sandbox. The load generator is the same process
 * for both, apart from them; runs alternate, proxy then gateway, round after round, and each keeps its median.
 * Then the link rewriter alone on a 1,000-record page, as the Node fast path and as the fetch handler run it,
 * against copying the same chunks (Buffer.concat).
 *
 * GATEWAY_BENCH_SECONDS and GATEWAY_BENCH_ROUNDS shorten it (default 15 s, 3 rounds after a warm-up).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LinkRewriter, rewriteLink } from "../src/gateway/links";
import { nativeFind } from "../src/gateway/node-relay";
import { runPeer, type LoadResult } from "./gateway-peers";
import { collectGarbage, processCpuMs, table } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const CONNECTIONS = 200;
const SECONDS = Number(process.env.GATEWAY_BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.GATEWAY_BENCH_ROUNDS ?? 3);
const ROOT = join(__dirname, "..");

interface Peer {
  child: ChildProcess;
  baseUrl: string;
  stop(): Promise<void>;
}

/** A node process (tsx's loader) that prints one JSON line; what it writes after that is read and dropped. */
async function startProcess(args: string[]): Promise<{ child: ChildProcess; line: Record<string, unknown> }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  // (The gateway's access log goes to stderr: drained, as a log collector would.)
  child.stderr!.on("data", () => undefined);
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
  return { child, line: JSON.parse(line) as Record<string, unknown> };
}

async function startPeer(args: string[]): Promise<Peer> {
  const { child, line } = await startProcess(args);
  return {
    child,
    baseUrl: String(line.base_url),
    stop: () => new Promise<void>((resolve) => {
      child.on("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}

const runLoad = async (url: string, seconds: number) => (await startProcess([__filename, "load", url, String(CONNECTIONS), String(seconds)])).line as unknown as LoadResult;

/** The two pages, from the sandbox as it answers them (links and all), in files for the upstream. */
async function capturePages(dir: string): Promise<{ small: string; large: string; origin: string; path: string }> {
  const sandbox = await startSandboxProcess(["--scale", "70", "--seed", "1"]);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const path = `/public/v1/enterprises/${enterprise.id}/subsidiaries/${enterprise.subsidiaries[0]}/expenses/?page=2`;
    const files = { small: join(dir, "page-100.json"), large: join(dir, "page-1000.json") };
    for (const [size, file] of [[100, files.small], [1000, files.large]] as const) {
      const res = await fetch(`${sandbox.manifest.base_url}${path}&page_size=${size}`, { headers: { Authorization: `Api-Key ${enterprise.api_key}` } });
      if (res.status !== 200) throw new Error(`the sandbox answered ${res.status}`);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    }
    return { ...files, origin: sandbox.manifest.base_url, path };
  } finally {
    await sandbox.stop();
  }
}

/** Each way relays the page as it should: the proxy byte for byte, the gateway with its links rewritten to itself. */
async function checkWays(upstream: string, proxy: string, gateway: string, path: string): Promise<void> {
  const text = async (base: string) => (await fetch(`${base}${path}`, { headers: { Authorization: "Api-Key k" } })).text();
  const sent = await text(upstream);
  if (await text(proxy) !== sent) throw new Error("the proxy changed the page");
  const relayed = await text(gateway);
  if (relayed !== sent.split(`"next":"${upstream}`).join(`"next":"${gateway}`).split(`"previous":"${upstream}`).join(`"previous":"${gateway}`)) {
    throw new Error("the gateway did not relay the page with its two links rewritten");
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Run extends LoadResult {
  cpuMs: number;
}

async function benchLoad(peers: { proxy: Peer; gateway: Peer }, path: string, what: string): Promise<void> {
  const runs: Record<"proxy" | "gateway", Run[]> = { proxy: [], gateway: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    for (const way of ["proxy", "gateway"] as const) {
      const pid = peers[way].child.pid!;
      const before = processCpuMs(pid);
      // Round 0 warms both up (JIT, connection pools) and is not counted.
      const result = await runLoad(`${peers[way].baseUrl}${path}`, round === 0 ? Math.min(3, SECONDS) : SECONDS);
      if (round > 0) runs[way].push({ ...result, cpuMs: processCpuMs(pid) - before });
    }
  }
  /** Answers a second: every 200 over the time from the first request to the last answer (the drain included). */
  const rate = (r: Run) => r.done / (r.elapsedMs / 1000);
  const row = (way: "proxy" | "gateway", label: string) => {
    const list = runs[way];
    return [
      label, `${Math.round(median(list.map(rate)))}/s`, median(list.map((r) => r.p50Ms)), median(list.map((r) => r.p99Ms)), Math.max(...list.map((r) => r.maxMs)),
      list.reduce((n, r) => n + r.over10s, 0), list.reduce((n, r) => n + r.failed, 0),
      median(list.map((r) => r.cpuMs / Math.max(1, r.done))).toFixed(2), list.map((r) => Math.round(rate(r))).join(" "),
    ];
  };
  console.log(`\n## ${what}: ${CONNECTIONS} connections, ${SECONDS} s a run (alternating, median of ${ROUNDS} rounds after a warm-up)\n`);
  console.log(table([
    ["way", "throughput", "p50 ms", "p99 ms", "max ms", "over 10 s", "failed", "CPU ms/request", "per run (/s)"],
    row("proxy", "plain http proxy (baseline)"),
    row("gateway", "gateway"),
  ]));
  const ratio = median(runs.gateway.map(rate)) / median(runs.proxy.map(rate));
  const over = runs.gateway.reduce((n, r) => n + r.over10s, 0);
  const failures = (way: "proxy" | "gateway") => {
    const all: Record<string, number> = {};
    for (const run of runs[way]) for (const [what, n] of Object.entries(run.failures)) all[what] = (all[what] ?? 0) + n;
    return Object.entries(all).map(([what, n]) => `${n} ${what}`).join(", ") || "none";
  };
  console.log(`failed, all runs: proxy ${failures("proxy")}; gateway ${failures("gateway")}`);
  console.log(`throughput gateway/proxy: ${ratio.toFixed(2)}; requests over 10 s: proxy ${runs.proxy.reduce((n, r) => n + r.over10s, 0)}, gateway ${over}`);
  console.log(`target: ${what}, gateway >= 90% of the proxy's throughput -> ${ratio >= 0.9 ? "met" : "NOT met"} (${(ratio * 100).toFixed(0)}%)`);
  console.log(`target: ${what}, 0 requests over 10 s through the gateway -> ${over === 0 ? "met" : "NOT met"} (${over})`);
}

/** The rewriter alone on the 1,000-record page in 64 KiB chunks (a socket's reads), against copying them; CPU time. */
function benchRewriter(file: string, origin: string): void {
  const page = readFileSync(file);
  // Both as a socket gives them: Buffers for the Node fast path, plain byte arrays for the fetch handler (Workers).
  const buffers: Buffer[] = [];
  for (let at = 0; at < page.length; at += 65536) buffers.push(Buffer.from(page.subarray(at, at + 65536)));
  const arrays = buffers.map((b) => new Uint8Array(b));
  const relink = (link: string) => rewriteLink(link, origin, "http://gateway.test");
  const ways = {
    // What node-relay.ts runs: Buffer's native search, the page given out in parts.
    fast: () => {
      const rewriter = new LinkRewriter(relink, nativeFind);
      for (const chunk of buffers) rewriter.pushParts(chunk);
      rewriter.end();
    },
    // What the fetch handler runs (web-standard search, one array a chunk).
    portable: () => {
      const rewriter = new LinkRewriter(relink);
      for (const chunk of arrays) rewriter.push(chunk);
      rewriter.end();
    },
    copy: () => Buffer.concat(buffers),
  };
  const times: Record<string, number[]> = { fast: [], portable: [], copy: [] };
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  for (let round = 0; round < 12; round++) {
    for (const [name, way] of Object.entries(ways)) {
      collectGarbage();
      const started = cpu();
      for (let i = 0; i < 20; i++) way();
      if (round > 1) times[name].push((cpu() - started) / 20);
    }
  }
  const mbs = (ms: number) => page.length / 1e6 / (ms / 1000);
  const [fast, portable, copy] = [median(times.fast), median(times.portable), median(times.copy)];
  console.log(`\n## The link rewriter alone, a ${(page.length / 1e6).toFixed(2)} MB page of 1,000 records in 64 KiB chunks (CPU time, median of 10 rounds)\n`);
  console.log(`Buffer.concat of the same chunks (the copy): ${mbs(copy).toFixed(0)} MB/s (${copy.toFixed(2)} ms a page)`);
  console.log(`rewriter, Node fast path (native search, parts): ${mbs(fast).toFixed(0)} MB/s (${fast.toFixed(2)} ms): ${(fast / copy).toFixed(2)}x the copy`);
  console.log(`rewriter, fetch handler (portable search): ${mbs(portable).toFixed(0)} MB/s (${portable.toFixed(2)} ms): ${(portable / copy).toFixed(2)}x the copy`);
}

export async function benchGateway(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gateway-bench-"));
  const started: Peer[] = [];
  try {
    const pages = await capturePages(dir);
    benchRewriter(pages.large, pages.origin);
    const upstream = await startPeer([__filename, "upstream", pages.small, pages.large, pages.origin]);
    started.push(upstream);
    const proxy = await startPeer([__filename, "proxy", upstream.baseUrl]);
    started.push(proxy);
    const gateway = await startPeer(["src/gateway/cli.ts", "--target", upstream.baseUrl, "--allow-origin", "https://addin.example.com", "--port", "0", "--json"]);
    started.push(gateway);
    await checkWays(upstream.baseUrl, proxy.baseUrl, gateway.baseUrl, `${pages.path}&page_size=1000`);
    const kb = (file: string) => `${Math.round(readFileSync(file).length / 1000).toLocaleString("en-US")} KB`;
    await benchLoad({ proxy, gateway }, `${pages.path}&page_size=100`, `100-record pages (${kb(pages.small)})`);
    await benchLoad({ proxy, gateway }, `${pages.path}&page_size=1000`, `1,000-record pages (${kb(pages.large)})`);
  } finally {
    for (const peer of started) await peer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Started as a peer process (bench/gateway-peers.ts) rather than imported by bench/run.ts.
if (require.main === module) {
  runPeer(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
