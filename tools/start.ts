/**
 * `npm start`: the sandbox with demo data, and the dev server with the add-in and the workbench page; prints
 * the workbench URL and the demo credentials, and sideloads into desktop Excel where office-addin-debugging
 * can (Windows, macOS). `npm stop` (or Ctrl-C) ends what it started. The sandbox's data is kept across
 * restarts (`npm start -- --fresh` starts over); other flags after `--` go to the sandbox (start-args.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SandboxManifest } from "../src/sandbox/server";
import { prepareDataFile, startArgs } from "./start-args";

const ROOT = join(__dirname, "..");
export const PID_FILE = join(ROOT, ".spend-sync.pids");
const DEV_PORT = Number(process.env.SPEND_DEV_PORT ?? 3000);
const SANDBOX_PORT = Number(process.env.SPEND_SANDBOX_PORT ?? 3100);
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const children: ChildProcess[] = [];

function certificatesInstalled(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("office-addin-dev-certs") as { isCaCertificateInstalled(): boolean }).isCaCertificateInstalled();
  } catch {
    return false;
  }
}

function stopAll(code = 0): never {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(PID_FILE, { force: true });
  process.exit(code);
}

async function startSandbox(args: string[]): Promise<SandboxManifest> {
  const child = spawn(bin("tsx"), [join(ROOT, "src/sandbox/cli.ts"), ...args], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as SandboxManifest);
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}) before it was ready; is port ${SANDBOX_PORT} free? (SPEND_SANDBOX_PORT)`)));
  });
}

async function waitFor(url: string, child: ChildProcess, seconds = 180): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the dev server exited (${child.exitCode}); is port ${DEV_PORT} free? (SPEND_DEV_PORT)`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the dev server did not answer at ${url} within ${seconds} s`);
}

async function main(): Promise<void> {
  process.on("SIGINT", () => stopAll());
  process.on("SIGTERM", () => stopAll());
  const https = certificatesInstalled();
  const args = startArgs(process.argv.slice(2), ROOT, SANDBOX_PORT);
  const { existed } = prepareDataFile(args.dataFile, args.fresh);
  console.log(existed
    ? `Sandbox data: ${args.dataFile} (kept from the last run; \`npm start -- --fresh\` starts over; --seed, --scale and --anchor apply to fresh data only).`
    : `Sandbox data: ${args.dataFile} (fresh demo data, kept across restarts).`);
  const sandbox = await startSandbox(args.sandbox);
  const devUrl = `${https ? "https" : "http"}://localhost:${DEV_PORT}`;
  if (https) process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // our own readiness check against the dev certificate
  console.log(`Sandbox ready at ${sandbox.base_url}. Building the add-in (webpack dev server, ${https ? "https" : "http on loopback"})…`);
  const dev = spawn(bin("webpack"), ["serve", "--mode", "development"], {
    cwd: ROOT, stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SPEND_SERVICE_URL: sandbox.base_url, SPEND_HTTPS: https ? "1" : "0", SPEND_DEV_PORT: String(DEV_PORT) },
  });
  children.push(dev);
  writeFileSync(PID_FILE, JSON.stringify([process.pid, ...children.map((c) => c.pid)]));
  await waitFor(`${devUrl}/workbench.html`, dev);

  const [first] = sandbox.enterprises;
  const lines = [
    "",
    "Spend Sync is running.",
    "",
    `  Workbench (the add-in beside an in-memory Excel):  ${devUrl}/workbench.html?enterprise=${first.id}`,
    `  Add-in page for Excel (shared runtime):            ${devUrl}/taskpane.html`,
    `  Sandbox (the service, demo data):                 ${sandbox.base_url}`,
    "",
    `  Connect with base URL ${devUrl}/proxy (the dev server forwards to the sandbox) and a demo enterprise:`,
    ...sandbox.enterprises.map((e, i) => `    enterprise ${i + 1}: id ${e.id}\n                  key ${e.api_key}\n                  subsidiaries ${e.subsidiaries.join(", ")}` +
      (e.cards[0] ? `\n                  card ${e.cards[0].id}, billing period ${e.cards[0].billing_periods[0]}` : "")),
    "",
  ];
  console.log(lines.join("\n"));
  if (process.platform === "win32" || process.platform === "darwin") {
    if (!https) console.log("  Desktop Excel needs https: run `npx office-addin-dev-certs install`, then npm start again to sideload.");
    else {
      console.log("  Sideloading into desktop Excel (office-addin-debugging)…");
      children.push(spawn(bin("office-addin-debugging"), ["start", join(ROOT, "manifest.xml"), "desktop", "--dev-server-port", String(DEV_PORT), "--no-debug"], { cwd: ROOT, stdio: "inherit" }));
    }
  } else {
    console.log("  No desktop Excel on this system: to try the add-in in Excel on the web, run `npx office-addin-dev-certs install`,");
    console.log("  restart npm start (https), open a workbook at office.com, then Home > Add-ins > More add-ins > Upload My Add-in > manifest.xml.");
  }
  console.log("\n  npm stop (or Ctrl-C) ends all of it.");
}

main().catch((error) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  stopAll(1);
});
