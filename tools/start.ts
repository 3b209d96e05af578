/**
 * `npm start`: the sandbox with demo data, and the dev server with the add-in and the workbench page; prints
 * the workbench URL and the demo credentials, and sideloads into desktop Excel where office-addin-debugging
 * can (Windows, macOS). `npm stop` (or Ctrl-C) ends what it started. The sandbox's data is kept across
 * restarts (`npm start -- --fresh` starts over); other flags after `--` go to the sandbox (start-args.ts).
 *
 * One npm start per folder (instance.ts): a second one, while the first runs or is starting, refuses at once
 * with the first one's workbench URL, before it reads a flag, touches the data file or listens on a port, and
 * exits 1. A port another program holds is refused the same way, before anything starts. Each child runs in
 * a process group of its own (processes.ts), recorded in the pid file, so that npm stop ends everything.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { basename, join } from "node:path";
import type { SandboxManifest } from "../src/sandbox/server";
import { MARKERS, ROOT, create, livenessOf, pidFilePath, readInstance, release, removeIfUnchanged, staleSentence, textOf, update, type Instance, type Role } from "./instance";
import { portProblem } from "./ports";
import { OWN_GROUP, endAll } from "./processes";
import { demoIds } from "./demo-ids";
import { prepareDataFile, startArgs } from "./start-args";
import { deathSentence, flagsSentence } from "./start-report";

const PID_FILE = pidFilePath();
const DEV_PORT = Number(process.env.SPEND_DEV_PORT ?? 3000);
const SANDBOX_PORT = Number(process.env.SPEND_SANDBOX_PORT ?? 3100);
const DEV_HOST = process.env.SPEND_DEV_HOST ?? "localhost";
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const children: { role: Role; child: ChildProcess }[] = [];
/** This npm start's record, once it holds the pid file. */
let instance: Instance | null = null;

function certificatesInstalled(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("office-addin-dev-certs") as { isCaCertificateInstalled(): boolean }).isCaCertificateInstalled();
  } catch {
    return false;
  }
}

/** Says why nothing was started and exits 1; the pid file, the ports and the data are left as they were. */
function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

const USE_IT = "Use that one, or end it with `npm stop` first. This npm start started nothing and changed nothing.";

/** The sentence of a second npm start: where the running one is. */
function alreadyRunning(holder: Instance): string {
  if (holder.legacy) return `Spend Sync is already running in this folder (npm start, pid ${holder.pid}); its URL is in the terminal where it runs.\n${USE_IT}`;
  if (holder.workbench) return `Spend Sync is already running in this folder (npm start, pid ${holder.pid}):\n  Workbench: ${holder.workbench}\n${USE_IT}`;
  return `Spend Sync is already starting in this folder (npm start, pid ${holder.pid}); once built, its workbench is at\n  ${holder.devUrl}/workbench.html\n${USE_IT}`;
}

/**
 * Takes the pid file, or refuses: another npm start runs (or is starting), or what an ended one started still
 * runs. A stale pid file is removed with a sentence, then taken.
 */
function claim(devUrl: string): Instance {
  const me: Instance = { pid: process.pid, devUrl, workbench: null, ports: { dev: DEV_PORT, sandbox: SANDBOX_PORT }, groups: [] };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(PID_FILE, me)) return me;
    const text = textOf(PID_FILE);
    const holder = readInstance(PID_FILE);
    if (holder === null) continue; // removed meanwhile
    if (holder !== "unreadable") {
      const state = livenessOf(holder);
      if (state === "running") refuse(alreadyRunning(holder));
      if (state === "orphans") {
        refuse(`A previous npm start (pid ${holder.pid}) has ended, but its sandbox or dev server still runs (process groups ${holder.groups.map((g) => g.pid).join(", ")}). ` +
          "Run `npm stop` to end them, then npm start again. This npm start started nothing.");
      }
    }
    removeIfUnchanged(PID_FILE, text);
    console.log(staleSentence(PID_FILE, holder));
  }
  refuse(`Another npm start took ${basename(PID_FILE)} at the same moment; this one started nothing. Run \`npm start\` again to see it.`);
}

/** Refuses, before anything starts, a port another program holds (so that no URL of that program is printed as ours). */
async function checkPorts(): Promise<void> {
  const ports = [
    { port: DEV_PORT, hosts: [...new Set([DEV_HOST, "127.0.0.1", "::1"])], whose: "the dev server's", variable: "SPEND_DEV_PORT" },
    { port: SANDBOX_PORT, hosts: ["127.0.0.1"], whose: "the sandbox's", variable: "SPEND_SANDBOX_PORT" },
  ];
  for (const { port, hosts, whose, variable } of ports) {
    const problem = await portProblem(port, hosts);
    if (!problem) continue;
    release(PID_FILE, process.pid);
    const why = problem === "EADDRINUSE" ? "is already in use by another program" : `cannot be listened on (${problem})`;
    refuse(`Port ${port} (${whose}) ${why}, so npm start started nothing. Stop that program, or choose another port: ${variable}=${port + 1} npm start.`);
  }
}

let stopping = false;

/** Ends the children's process groups (and what they spawned), releases the pid file, exits. */
async function stopAll(code = 0, said = ""): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (said) console.log(said);
  const left = await endAll(children.map(({ role, child }) => ({ pid: child.pid ?? 0, group: true, marker: MARKERS[role] })), 50);
  if (left.length > 0) console.error(`Could not end process group(s) ${left.map((t) => t.pid).join(", ")}; \`npm stop\` tries again.`);
  else if (instance) release(PID_FILE, process.pid);
  process.exit(code);
}

function record(role: Role, child: ChildProcess): void {
  children.push({ role, child });
  // Once started, a sandbox or dev server that ends on its own takes the rest down with a sentence.
  if (role === "sandbox" || role === "dev server") {
    child.once("exit", (code, signal) => {
      if (stopping || !instance?.workbench) return;
      console.error(deathSentence(role, code, signal));
      void stopAll(1);
    });
  }
  if (instance && child.pid) {
    instance.groups.push({ role, pid: child.pid });
    update(PID_FILE, instance);
  }
}

async function startSandbox(args: string[]): Promise<SandboxManifest> {
  const child = spawn(bin("tsx"), [join(ROOT, "src/sandbox/cli.ts"), ...args], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], ...OWN_GROUP,
  });
  record("sandbox", child);
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
  process.on("SIGINT", () => void stopAll(0, "Stopping Spend Sync…"));
  process.on("SIGTERM", () => void stopAll(0, "Stopping Spend Sync (npm stop)…"));
  const https = certificatesInstalled();
  const devUrl = `${https ? "https" : "http"}://localhost:${DEV_PORT}`;
  // First of all: nothing below may run beside another npm start of this folder (its data file, its ports).
  instance = claim(devUrl);
  await checkPorts();
  const args = startArgs(process.argv.slice(2), ROOT, SANDBOX_PORT);
  const { existed } = prepareDataFile(args.dataFile, args.fresh);
  console.log(existed
    ? `Sandbox data: ${args.dataFile} (kept from the last run; \`npm start -- --fresh\` starts over; --seed, --scale and --anchor apply to fresh data only).`
    : `Sandbox data: ${args.dataFile} (fresh demo data, kept across restarts).`);
  console.log(flagsSentence(args.flags));
  const sandbox = await startSandbox(args.sandbox);
  if (https) process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // our own readiness check against the dev certificate
  console.log(`Sandbox ready at ${sandbox.base_url}. Building the add-in (webpack dev server, ${https ? "https" : "http on loopback"})…`);
  const dev = spawn(bin("webpack"), ["serve", "--mode", "development"], {
    cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], ...OWN_GROUP,
    // The demo ids and names, never the keys, for the workbench's pickers (/demo-ids.json: tools/demo-ids.ts).
    env: { ...process.env, SPEND_SERVICE_URL: sandbox.base_url, SPEND_HTTPS: https ? "1" : "0", SPEND_DEV_PORT: String(DEV_PORT), SPEND_DEMO_IDS: JSON.stringify(demoIds(sandbox)) },
  });
  record("dev server", dev);
  await waitFor(`${devUrl}/workbench.html`, dev);

  const [first] = sandbox.enterprises;
  const workbench = `${devUrl}/workbench.html?enterprise=${first.id}`;
  instance.workbench = workbench;
  update(PID_FILE, instance);
  const lines = [
    "",
    "Spend Sync is running.",
    "",
    `  Workbench (the add-in beside an in-memory Excel):  ${workbench}`,
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
      record("sideload", spawn(bin("office-addin-debugging"), ["start", join(ROOT, "manifest.xml"), "desktop", "--dev-server-port", String(DEV_PORT), "--no-debug"], { cwd: ROOT, stdio: "inherit", ...OWN_GROUP }));
    }
  } else {
    console.log("  No desktop Excel on this system: to try the add-in in Excel on the web, run `npx office-addin-dev-certs install`,");
    console.log("  restart npm start (https), open a workbook at office.com, then Home > Add-ins > More add-ins > Upload My Add-in > manifest.xml.");
  }
  console.log("\n  npm stop (or Ctrl-C) ends all of it.");
}

main().catch((error) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  void stopAll(1);
});
