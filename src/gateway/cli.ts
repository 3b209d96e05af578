/**
 * `npm run gateway -- --target URL --allow-origin ORIGIN [--allow-origin ORIGIN2] [--port N] [--host H] [--timeout MS] [limits] [--json]`
 * With --json, prints exactly one line `{"base_url": "http://127.0.0.1:PORT"}` on stdout once listening and
 * writes the access log as JSON lines on stderr; otherwise a banner, then one text line per request on stdout.
 */
import { parseArgs } from "node:util";
import { formatJson, formatText } from "./access-log";
import { GatewayConfigError, type GatewayConfig } from "./config";
import { lineBatch } from "./node-line-batch";
import { startGateway, type NodeListen, type RunningGateway } from "./node-server";

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

/**
 * The flag of each field whose configuration error can reach the operator: the numbers of the other flags are
 * checked here first (whole, above 0), so the gateway never refuses them.
 */
const FLAG_OF: Partial<Record<GatewayConfigError["field"], string>> = {
  target: "--target", allowOrigins: "--allow-origin", answerTimeoutMs: "--answer-timeout", requestTimeoutMs: "--request-timeout", publicUrl: "--public-url",
};

/** What the CLI does to its process: the real one by default; tests run it in their own process with their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  exit(code: number): never;
  onSignal(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
}

const PROCESS_IO: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  exit: (code) => process.exit(code),
  onSignal: (signal, handler) => void process.on(signal, handler),
};

function fail(io: CliIo, message: string): never {
  io.stderr(`gateway: ${message}\n\n${USAGE}\n`);
  return io.exit(2);
}

export interface CliOptions {
  config: Omit<GatewayConfig, "log">;
  listen: NodeListen & { port: number; host: string };
  json: boolean;
}

export function parseCli(argv: string[], io: CliIo = PROCESS_IO): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        target: { type: "string" }, "allow-origin": { type: "string", multiple: true }, port: { type: "string" },
        host: { type: "string" }, timeout: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" },
        "idle-timeout": { type: "string" }, "answer-timeout": { type: "string" }, "headers-timeout": { type: "string" },
        "request-timeout": { type: "string" }, "max-connections": { type: "string" }, "public-url": { type: "string" },
      },
    });
  } catch (error) {
    fail(io, (error as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    io.stdout(`${USAGE}\n`);
    io.exit(0);
  }
  if (v.target === undefined) fail(io, "--target is required: the service's base URL, like https://api.example.com.");
  if (!v["allow-origin"]?.length) fail(io, "--allow-origin is required: the add-in's origin, like https://addin.example.com.");
  const whole = (name: string, raw: string | undefined, max: number): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isInteger(n) || n < 0 || n > max) fail(io, `--${name} must be a whole number from 0 to ${max}; got '${raw}'.`);
    return n;
  };
  const above0 = (name: string, raw: string | undefined, max: number): number | undefined => {
    const n = whole(name, raw, max);
    if (n === 0) fail(io, `--${name} must be above 0; got '0'.`);
    return n;
  };
  return {
    config: {
      target: v.target, allowOrigins: v["allow-origin"], timeoutMs: above0("timeout", v.timeout, 600_000),
      idleTimeoutMs: above0("idle-timeout", v["idle-timeout"], 600_000), answerTimeoutMs: above0("answer-timeout", v["answer-timeout"], 3_600_000),
      ...(v["public-url"] === undefined ? {} : { publicUrl: v["public-url"] }),
    },
    listen: {
      port: whole("port", v.port, 65535) ?? 8080,
      host: v.host ?? "127.0.0.1",
      headersTimeoutMs: above0("headers-timeout", v["headers-timeout"], 600_000),
      requestTimeoutMs: above0("request-timeout", v["request-timeout"], 3_600_000),
      maxConnections: above0("max-connections", v["max-connections"], 1_000_000),
    },
    json: v.json ?? false,
  };
}

/** Starts the gateway as `npm run gateway -- …` does; resolves once it listens, with the running gateway. */
export async function runCli(argv: string[], io: CliIo = PROCESS_IO): Promise<RunningGateway> {
  const { config, listen, json } = parseCli(argv, io);
  const { port, host } = listen;
  // The access log goes out once per event-loop turn (node-line-batch.ts); the banner and errors as they happen.
  const lines = lineBatch(json ? io.stderr : io.stdout);
  const log = json ? (entry: Parameters<typeof formatJson>[0]) => lines.write(`${formatJson(entry)}\n`) : (entry: Parameters<typeof formatText>[0]) => lines.write(`${formatText(entry)}\n`);
  let gateway;
  try {
    gateway = await startGateway({ ...config, log }, listen);
  } catch (error) {
    if (error instanceof GatewayConfigError) fail(io, `${FLAG_OF[error.field] ?? error.field}: ${error.message}`);
    fail(io, `cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  io.stdout(json
    ? `{"base_url": ${JSON.stringify(gateway.baseUrl)}}\n`
    : `Spend Sync gateway: ${gateway.baseUrl} -> ${config.target} for ${config.allowOrigins.join(", ")}   (Ctrl+C to stop)\n`);
  // (close() never fails, and a second signal's close ends at once: the process exits at the first exit.)
  const stop = () => void gateway.close().then(() => {
    lines.flush();
    io.exit(0);
  });
  io.onSignal("SIGTERM", stop);
  io.onSignal("SIGINT", stop);
  return gateway;
}

if (require.main === module) void runCli(process.argv.slice(2));
