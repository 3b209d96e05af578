/**
 * `npm run sandbox -- [--port N] [--host H] [--json] [--seed N] [--scale K] [--data FILE] [faults…]`
 * With --json, prints exactly one JSON line once listening (the start-up contract); otherwise a banner.
 */
import { parseArgs } from "node:util";
import { startSandbox, type SandboxManifest, type SandboxOptions } from "./server";
import { messageOf } from "../domain";

const USAGE = `Usage: npm run sandbox -- [options]
  --port N             port to listen on (0: any free port; default 3000)
  --host H             address to listen on (default 127.0.0.1)
  --json               print one JSON line with base_url, ids and keys once listening
  --seed N             demo data and fault seed (default 1)
  --scale K            multiply the demo record counts (default 1)
  --anchor YYYY-MM-DD  the demo data's dates lead up to this day (default: first of this month)
  --card-close N       add two cards whose movements come from their holders' expenses, N in the first one's
                       period, the true matches kept in the data only (docs/reconciliation.md)
  --card-close-expenses E  with --card-close: E more card expenses of the holders' colleagues (benchmarks)
  --data FILE          keep state in FILE: a PATCH is answered once it is on disk (reloaded on start)
  --compact-every N    with --data: fold the change log into FILE every N changes (default 2000)
  --latency MS         delay every response
  --error-rate R       answer this share of requests with 500
  --drop-rate R        close this share of connections without a response
  --rate-limit N       answer 429 (Retry-After) above N requests a second
  --lost-patch-rate R  apply this share of PATCHes, then drop the connection
  --headers-timeout MS a request head must arrive within this (default 10000; 408 after)
  --request-timeout MS a whole request must arrive within this (default 30000; 408 after)
  --idle-timeout MS    longest pause inside a request body (default 10000; 408 after)
  --max-connections N  connections at once; above, 503 (default 256)`;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function number(name: string, raw: string | undefined, check: (n: number) => boolean, rule: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || !check(value)) fail(`--${name} must be ${rule}; got '${raw}'.`);
  return value;
}

export function parseCli(argv: string[]): Omit<SandboxOptions, "log"> & { json: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: "string" }, host: { type: "string" }, json: { type: "boolean" }, seed: { type: "string" },
        scale: { type: "string" }, anchor: { type: "string" }, data: { type: "string" }, latency: { type: "string" },
        "error-rate": { type: "string" }, "drop-rate": { type: "string" }, "rate-limit": { type: "string" },
        "lost-patch-rate": { type: "string" }, "compact-every": { type: "string" }, help: { type: "boolean" },
        "headers-timeout": { type: "string" }, "request-timeout": { type: "string" }, "idle-timeout": { type: "string" },
        "max-connections": { type: "string" }, "card-close": { type: "string" }, "card-close-expenses": { type: "string" },
      },
    });
  } catch (error) {
    fail(messageOf(error));
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const rate = (name: string) => number(name, v[name as keyof typeof v] as string | undefined, (n) => n >= 0 && n <= 1, "a share from 0 to 1");
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  const positive = (n: number) => Number.isInteger(n) && n >= 1;
  if (v.anchor !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v.anchor)) fail(`--anchor must be YYYY-MM-DD; got '${v.anchor}'.`);
  return {
    json: v.json ?? false,
    port: number("port", v.port, (n) => whole(n) && n <= 65535, "a port number from 0 to 65535") ?? 3000,
    host: v.host ?? "127.0.0.1",
    seed: number("seed", v.seed, whole, "a whole number"),
    scale: number("scale", v.scale, (n) => n > 0 && n <= 1000, "a number above 0 and at most 1000"),
    anchor: v.anchor,
    ...cardClose(number("card-close", v["card-close"], (n) => positive(n) && n <= 100_000, "a whole number from 1 to 100000"),
      number("card-close-expenses", v["card-close-expenses"], (n) => whole(n) && n <= 1_000_000, "a whole number from 0 to 1000000")),
    dataFile: v.data,
    compactEvery: number("compact-every", v["compact-every"], (n) => Number.isInteger(n) && n >= 1, "a whole number from 1 up"),
    faults: {
      latencyMs: number("latency", v.latency, (n) => n >= 0 && n <= 60_000, "milliseconds from 0 to 60000") ?? 0,
      errorRate: rate("error-rate") ?? 0,
      dropRate: rate("drop-rate") ?? 0,
      rateLimit: number("rate-limit", v["rate-limit"], whole, "a whole number of requests a second") ?? 0,
      lostPatchRate: rate("lost-patch-rate") ?? 0,
    },
    limits: Object.fromEntries(Object.entries({
      headersTimeoutMs: number("headers-timeout", v["headers-timeout"], positive, "milliseconds above 0"),
      requestTimeoutMs: number("request-timeout", v["request-timeout"], positive, "milliseconds above 0"),
      idleTimeoutMs: number("idle-timeout", v["idle-timeout"], positive, "milliseconds above 0"),
      maxConnections: number("max-connections", v["max-connections"], positive, "a whole number above 0"),
    }).filter(([, value]) => value !== undefined)),
  };
}

function cardClose(movements: number | undefined, otherExpenses: number | undefined): Pick<SandboxOptions, "cardClose"> {
  if (movements === undefined && otherExpenses !== undefined) fail("--card-close-expenses needs --card-close.");
  return movements === undefined ? {} : { cardClose: { movements, otherExpenses } };
}

function banner(m: SandboxManifest): string {
  const [first] = m.enterprises;
  const lines = [
    "Spend Sync sandbox: a local implementation of the service in api-spec.md, with demo data.",
    `Listening on ${m.base_url}   (Ctrl+C to stop)`,
    "",
  ];
  for (const e of m.enterprises) {
    lines.push(`Enterprise ${e.id}`, `  API key       ${e.api_key}`);
    lines.push(`  subsidiaries  ${e.subsidiaries.join(", ")}`);
    for (const c of e.cards) lines.push(`  card ${c.id}  billing periods ${c.billing_periods.join(", ")}`);
    lines.push("");
  }
  lines.push(
    "Try it:",
    `  curl -H "Authorization: Api-Key ${first.api_key}" \\`,
    `    "${m.base_url}/public/v1/enterprises/${first.id}/subsidiaries/${first.subsidiaries[0]}/expenses/?page_size=5"`,
    "",
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { json, ...options } = parseCli(process.argv.slice(2));
  let sandbox;
  try {
    // The connections it ends itself (timeouts, the cap), one line each on stderr: never a header or a query.
    sandbox = await startSandbox({ ...options, log: (line) => process.stderr.write(`sandbox: ${line}\n`) });
  } catch (error) {
    fail(messageOf(error));
  }
  const manifest = sandbox.manifest();
  process.stdout.write(json ? `${JSON.stringify(manifest)}\n` : `${banner(manifest)}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (require.main === module) void main();
