/**
 * Rule: `npm run gateway` tells the operator exactly what it does: once listening, one line on stdout (the
 * base_url JSON line with --json, else a banner), then one access-log line per request (JSON on stderr with
 * --json, text on stdout otherwise); a flag it cannot run with ends it with exit 2, the message naming the flag
 * and the usage after it; SIGTERM or SIGINT close it with exit 0. Run in jest's own process (the spawned CLI's
 * tests, cli.test.ts, check the same through npm), with the process's output, exit and signals handed in.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runCli, type CliIo } from "../../src/gateway/cli";
import type { RunningGateway } from "../../src/gateway/node-server";
import { rawRequest } from "../sandbox/raw-http";

const ADDIN = "https://addin.example.com";
const USAGE = `Usage: npm run gateway -- --target URL --allow-origin ORIGIN [options]
  --target URL          the service's base URL (https; http only on loopback)
  --allow-origin ORIGIN the add-in's origin (where dist/ is hosted), answered by CORS; repeat for more
  --port N              port to listen on (0: any free port; default 8080)
  --host H              address to listen on (default 127.0.0.1; put TLS in front for anything else)
  --timeout MS          how long the service may take to start answering (default 30000)
  --idle-timeout MS     longest pause inside a request body or the service's answer (default 10000)
  --answer-timeout MS   the service's whole answer, head to last byte (default 120000)
  --headers-timeout MS  how long a caller may take to send its request head (default 10000)
  --request-timeout MS  how long a caller may take to send its whole request (default 30000)
  --max-connections N   connections at once; above, 503 (default 256; /healthz is still answered)
  --public-url URL      the gateway's own public URL, that list links point to (required unless --host
                        is loopback; there, default: the request's)
  --json                print one JSON line with base_url once listening; access log as JSON lines on stderr`;

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** The process as the CLI sees it: what it wrote, how it exited, the signal handlers it set. */
function fakeProcess() {
  const seen = { stdout: "", stderr: "", exits: [] as number[], signals: new Map<string, () => void>(), exitStops: true };
  let exited!: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const io: CliIo = {
    stdout: (text) => void (seen.stdout += text),
    stderr: (text) => void (seen.stderr += text),
    exit: (code) => {
      seen.exits.push(code);
      exited(code);
      // While starting, exit stops the CLI where it is, as process.exit would.
      if (seen.exitStops) throw new Exited(code);
      return undefined as never;
    },
    onSignal: (signal, handler) => void seen.signals.set(signal, handler),
  };
  return { io, seen, exit };
}

let upstream: Server;
let target: string;
const running: RunningGateway[] = [];
beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => {
  upstream.closeAllConnections();
  upstream.close(() => resolve());
}));
beforeEach(() => {
  // The access log's time and duration from a clock that stands still; timers and sockets run as ever.
  jest.useFakeTimers({ now: Date.UTC(2026, 4, 1, 10, 0, 0), doNotFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate", "nextTick", "queueMicrotask", "hrtime", "performance"] });
});
afterEach(async () => {
  jest.useRealTimers();
  await Promise.all(running.splice(0).map((g) => g.close()));
});

async function start(args: string[]) {
  const p = fakeProcess();
  const gateway = await runCli(args, p.io);
  running.push(gateway);
  return { ...p, gateway };
}

/** Runs the CLI with `args`, expecting it to stop with an exit code. */
async function refused(args: string[]) {
  const p = fakeProcess();
  await expect(runCli(args, p.io)).rejects.toBeInstanceOf(Exited);
  return { code: p.seen.exits, stdout: p.seen.stdout, stderr: p.seen.stderr };
}

const failure = (message: string) => ({ code: [2], stdout: "", stderr: `gateway: ${message}\n\n${USAGE}\n` });

describe("once listening", () => {
  it("with --json: one base_url line on stdout, and each request as a JSON line on stderr", async () => {
    const { gateway, seen } = await start(["--target", target, "--allow-origin", ADDIN, "--port", "0", "--json"]);
    expect(seen.stdout).toBe(`{"base_url": "${gateway.baseUrl}"}\n`);
    expect(gateway.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${gateway.baseUrl}/public/v1/x/?token=abc&page=2`, { headers: { Origin: ADDIN } });
    expect(await res.json()).toEqual({ path: "/public/v1/x/?token=abc&page=2" });
    expect(seen.stderr).toBe(`${JSON.stringify({ time: "2026-05-01T10:00:00.000Z", method: "GET", path: "/public/v1/x/?token=[redacted]&page=2", status: 200, ms: 0, origin: ADDIN })}\n`);
  });

  it("without --json: a banner on stdout, then each request as a text line there too", async () => {
    const { gateway, seen } = await start(["--target", target, "--allow-origin", ADDIN, "--allow-origin", "https://second.example.com", "--port", "0"]);
    await (await fetch(`${gateway.baseUrl}/healthz`)).text();
    expect(seen.stdout).toBe(
      `Spend Sync gateway: ${gateway.baseUrl} -> ${target} for ${ADDIN}, https://second.example.com   (Ctrl+C to stop)\n`
      + "2026-05-01T10:00:00.000Z GET /healthz 200 0ms\n",
    );
    expect(seen.stderr).toBe("");
  });

  it("listens on 127.0.0.1:8080 by default", async () => {
    const { gateway } = await start(["--target", target, "--allow-origin", ADDIN]);
    expect(gateway.baseUrl).toBe("http://127.0.0.1:8080");
    expect((await fetch("http://127.0.0.1:8080/healthz")).status).toBe(200);
  });

  it("listens on the host it is given, an IPv6 one in brackets", async () => {
    const { gateway } = await start(["--target", target, "--allow-origin", ADDIN, "--host", "::1", "--port", "0", "--json"]);
    expect(gateway.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await fetch(`${gateway.baseUrl}/healthz`)).status).toBe(200);
  });

  it("listens on every address once given --public-url, and its links point there, not at the Host a client names", async () => {
    const linked = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ next: `http://127.0.0.1:${(linked.address() as AddressInfo).port}/public/v1/x/?page=2` }));
    });
    await new Promise<void>((resolve) => linked.listen(0, "127.0.0.1", resolve));
    try {
      const { gateway } = await start(["--target", `http://127.0.0.1:${(linked.address() as AddressInfo).port}`, "--allow-origin", ADDIN, "--host", "0.0.0.0", "--port", "0", "--public-url", "https://gw.example.com"]);
      expect(gateway.baseUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      const port = new URL(gateway.baseUrl).port;
      const answer = await rawRequest(Number(port), "GET /public/v1/x/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
      expect(answer.json).toEqual({ next: "https://gw.example.com/public/v1/x/?page=2" });
    } finally {
      linked.closeAllConnections();
      linked.close();
    }
  });

  it.each(["localhost", "127.0.0.2"])("on loopback (%s) needs no --public-url", async (host) => {
    const { gateway } = await start(["--target", target, "--allow-origin", ADDIN, "--host", host, "--port", "0"]);
    expect((await fetch(`${gateway.baseUrl}/healthz`)).status).toBe(200);
  });

  it("takes every limit at its largest", async () => {
    const { gateway, seen } = await start([
      "--target", target, "--allow-origin", ADDIN, "--json", "--port", "65535", "--timeout", "600000", "--idle-timeout", "600000", "--answer-timeout", "3600000",
      "--headers-timeout", "600000", "--request-timeout", "3600000", "--max-connections", "1000000",
    ]);
    expect(seen.stdout).toBe('{"base_url": "http://127.0.0.1:65535"}\n');
    expect((await fetch(`${gateway.baseUrl}/healthz`)).status).toBe(200);
  });

  it("points list links at --public-url", async () => {
    const linked = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ next: `http://127.0.0.1:${(linked.address() as AddressInfo).port}/public/v1/x/?page=2` }));
    });
    await new Promise<void>((resolve) => linked.listen(0, "127.0.0.1", resolve));
    try {
      const { gateway } = await start(["--target", `http://127.0.0.1:${(linked.address() as AddressInfo).port}`, "--allow-origin", ADDIN, "--port", "0", "--public-url", "https://gw.example.com"]);
      expect(await (await fetch(`${gateway.baseUrl}/public/v1/x/`)).json()).toEqual({ next: "https://gw.example.com/public/v1/x/?page=2" });
    } finally {
      linked.closeAllConnections();
      await new Promise<void>((resolve) => linked.close(() => resolve()));
    }
  });
});

describe("a signal", () => {
  it.each(["SIGTERM", "SIGINT"])("%s closes the gateway and exits 0", async (signal) => {
    const { gateway, seen, exit } = await start(["--target", target, "--allow-origin", ADDIN, "--port", "0", "--json"]);
    seen.exitStops = false;
    expect([...seen.signals.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);
    seen.signals.get(signal)!();
    expect(await exit).toBe(0);
    await expect(fetch(`${gateway.baseUrl}/healthz`)).rejects.toThrow();
  });
});

describe("--help", () => {
  it("prints the usage and exits 0", async () => {
    expect(await refused(["--help"])).toEqual({ code: [0], stdout: `${USAGE}\n`, stderr: "" });
  });
});

describe("a flag it cannot run with", () => {
  const base = () => ["--target", target, "--allow-origin", ADDIN];

  it.each([
    [["--allow-origin", ADDIN], "--target is required: the service's base URL, like https://api.example.com."],
    [["--target", "https://api.example.com"], "--allow-origin is required: the add-in's origin, like https://addin.example.com."],
    [["--target", "http://api.example.com", "--allow-origin", ADDIN], "--target: The target must be an https URL (http only on loopback), like https://api.example.com; got 'http://api.example.com'."],
    [["--target", "https://api.example.com", "--allow-origin", "*"], "--allow-origin: An allowed origin must be scheme://host[:port] with no path, https (http only on loopback), like https://addin.example.com; got '*'."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--public-url", "ftp://gw.example.com"], "--public-url: The public URL must be the gateway's own https URL (http only on loopback), with no user info, query or fragment, like https://gateway.example.com; got 'ftp://gw.example.com'."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--host", "0.0.0.0"], "--public-url: The gateway listens on 0.0.0.0, which others can reach: give its public URL (list links point there, never at the Host a client names), like https://gateway.example.com."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--host", "192.168.1.10"], "--public-url: The gateway listens on 192.168.1.10, which others can reach: give its public URL (list links point there, never at the Host a client names), like https://gateway.example.com."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--timeout", "5000", "--answer-timeout", "4000"], "--answer-timeout: answerTimeoutMs (4000) must be at least timeoutMs (5000): the whole answer cannot take less than its start."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--headers-timeout", "5000", "--request-timeout", "1000"], "--request-timeout: requestTimeoutMs (1000) must be at least headersTimeoutMs (5000): a request cannot take less than its head."],
  ])("%j ends with exit 2 naming the flag", async (args, message) => {
    expect(await refused(args)).toEqual(failure(message));
  });

  it.each([
    ["port", "", 65535], ["port", " ", 65535], ["port", "http", 65535], ["port", "1.5", 65535], ["port", "-1", 65535], ["port", "65536", 65535],
    ["timeout", "600001", 600_000], ["idle-timeout", "600001", 600_000], ["answer-timeout", "3600001", 3_600_000],
    ["headers-timeout", "600001", 600_000], ["request-timeout", "3600001", 3_600_000], ["max-connections", "1000001", 1_000_000],
  ])("--%s '%s' ends with exit 2: a whole number from 0 to its largest", async (flag, value, max) => {
    expect(await refused([...base(), `--${flag}=${value}`])).toEqual(failure(`--${flag} must be a whole number from 0 to ${max}; got '${value}'.`));
  });

  it.each(["timeout", "idle-timeout", "answer-timeout", "headers-timeout", "request-timeout", "max-connections"])("--%s 0 ends with exit 2: above 0", async (flag) => {
    expect(await refused([...base(), `--${flag}`, "0"])).toEqual(failure(`--${flag} must be above 0; got '0'.`));
  });

  it("an unknown flag ends with exit 2, in Node's words", async () => {
    const { code, stderr } = await refused([...base(), "--colour"]);
    expect(code).toEqual([2]);
    expect(stderr.split("\n")[0]).toBe("gateway: Unknown option '--colour'");
    expect(stderr.endsWith(`\n\n${USAGE}\n`)).toBe(true);
  });

  it("a port already taken ends with exit 2, naming the address", async () => {
    const { gateway } = await start([...base(), "--port", "0"]);
    const port = new URL(gateway.baseUrl).port;
    expect(await refused([...base(), "--port", port])).toEqual(failure(`cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`));
  });
});

describe("on the real process (what npm run gateway wires it to)", () => {
  it("writes to the process's stdout and stderr, exits through process.exit, and stops on the process's signals", async () => {
    const stdout = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    let exitStops = true;
    let stopped!: () => void;
    const stoppedNow = new Promise<void>((resolve) => (stopped = resolve));
    const exit = jest.spyOn(process, "exit").mockImplementation(((code: number) => {
      if (exitStops) throw new Exited(code);
      stopped();
      return undefined as never;
    }) as typeof process.exit);
    const handlers = new Map<string, () => void>();
    const on = jest.spyOn(process, "on").mockImplementation(((event: string, handler: () => void) => {
      handlers.set(event, handler);
      return process;
    }) as typeof process.on);
    try {
      await expect(runCli(["--allow-origin", ADDIN])).rejects.toBeInstanceOf(Exited);
      expect(exit.mock.calls).toEqual([[2]]);
      expect(stderr.mock.calls).toEqual([[`gateway: --target is required: the service's base URL, like https://api.example.com.\n\n${USAGE}\n`]]);

      const gateway = await runCli(["--target", target, "--allow-origin", ADDIN, "--port", "0", "--json"]);
      running.push(gateway);
      expect(stdout.mock.calls).toEqual([[`{"base_url": "${gateway.baseUrl}"}\n`]]);
      await (await fetch(`${gateway.baseUrl}/healthz`)).text();
      expect(stderr.mock.calls.slice(1)).toEqual([[`${JSON.stringify({ time: "2026-05-01T10:00:00.000Z", method: "GET", path: "/healthz", status: 200, ms: 0 })}\n`]]);
      expect([...handlers.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);
      exitStops = false;
      handlers.get("SIGTERM")!();
      await stoppedNow;
      expect(exit.mock.calls).toEqual([[2], [0]]);
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      exit.mockRestore();
      on.mockRestore();
    }
  });
});
