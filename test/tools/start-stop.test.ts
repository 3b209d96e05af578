/**
 * `npm start` twice, then `npm stop`, as a newcomer runs them (issue 24), with real processes: npm, tsx, the
 * sandbox and the webpack dev server, on free ports (SPEND_DEV_PORT, SPEND_SANDBOX_PORT), with the pid file
 * and the sandbox's data in a folder of the test's own (SPEND_PID_FILE, --data) so that an npm start of this
 * checkout is never touched. Nothing is timed: ports and processes are polled a bounded number of times.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { baseUrlExamples, Session, listCards, memoryStorage } from "../../src/api";
import { explain } from "../../src/taskpane/messages";
import { captured, ROOT, type Spawned } from "../support/process";

jest.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), "spend-start-"));
const PID_FILE = join(dir, ".spend-sync.pids");
const DATA = join(dir, "data", "sandbox.json");
const USE_IT = "Use that one, or end it with `npm stop` first. This npm start started nothing and changed nothing.";

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function envWithPorts(): Promise<NodeJS.ProcessEnv> {
  return { ...process.env, SPEND_DEV_PORT: String(await freePort()), SPEND_SANDBOX_PORT: String(await freePort()), SPEND_PID_FILE: PID_FILE };
}

/** `npm <script> -- args`, the documented way, in a process group of its own (the test can end it whatever happens). */
function npm(script: "start" | "stop", env: NodeJS.ProcessEnv, args: string[] = []): Spawned {
  return captured(spawn("npm", ["--silent", script, ...(args.length ? ["--", ...args] : [])], { cwd: ROOT, env, detached: true }), `npm ${script}`);
}

/** What a person reads, without npm's own warnings about this machine's npm configuration. */
const said = (text: string) => text.split("\n").filter((line) => !/^npm (warn|WARN)/.test(line)).join("\n").trim();

/** Resolves once the output holds `text`; rejects if the process exits first. */
function until(p: Spawned, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => p.stdout().includes(text) && resolve();
    p.child.stdout!.on("data", check);
    check();
    p.child.on("exit", (code) => reject(new Error(`exited (${code}) before printing "${text}": ${p.stdout()}\n${p.stderr()}`)));
  });
}

/** /proc/<pid>/stat after the command name: [state, ppid, pgrp, …]. */
function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Running, a zombie (ended, its parent has not reaped it: it holds nothing) excepted. */
function running(pid: number): boolean {
  const s = stat(pid);
  return s !== null && s[0] !== "Z" && s[0] !== "X";
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/** Every running process below `root`, however deep (children in groups of their own included). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (!s) continue;
    const parent = Number(s[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (!running(child)) continue;
      queue.push(child);
      found.push(child);
    }
  }
  return found;
}

/** True when something accepts a connection on the port at that address. */
function answers(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Polls `check` up to `tries` times, 100 ms apart; its last answer. */
async function poll<T>(check: () => T | Promise<T>, done: (value: T) => boolean, tries = 200): Promise<T> {
  let value = await check();
  for (let i = 0; i < tries && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await check();
  }
  return value;
}

/** A pid no process has: one that ran and has been reaped. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid!;
  expect(running(pid)).toBe(false);
  return pid;
}

/** A long-lived stand-in process whose command line holds `marker`, optionally in a group of its own. */
function standIn(marker: string, detached = false): ChildProcess {
  return spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", marker], { stdio: "ignore", detached });
}

describe("npm start twice, then npm stop, on free ports", () => {
  let env: NodeJS.ProcessEnv;
  let first: Spawned;
  let startPid: number;
  let workbench: string;
  let tree: number[];
  let pidFileText: string;
  const stalePid = deadPid();

  beforeAll(async () => {
    env = await envWithPorts();
    // What a crash of an earlier npm start leaves: a pid file naming a process that is gone.
    writeFileSync(PID_FILE, JSON.stringify({ pid: stalePid, devUrl: "http://localhost:1", workbench: null, ports: { dev: 1, sandbox: 2 }, groups: [] }));
    first = npm("start", env, ["--data", DATA, "--latency", "1"]);
    await until(first, "npm stop (or Ctrl-C) ends all of it.");
    workbench = /Workbench \(the add-in beside an in-memory Excel\): +(\S+)/.exec(first.stdout())![1];
    pidFileText = readFileSync(PID_FILE, "utf8");
    startPid = JSON.parse(pidFileText).pid;
    tree = descendants(first.child.pid!);
  });

  afterAll(async () => {
    // Whatever failed above, nothing is left running: npm stop, then the test's own group.
    if (existsSync(PID_FILE)) await npm("stop", env).exited;
    try {
      process.kill(-first.child.pid!, "SIGKILL");
    } catch {
      // ended
    }
  });

  it("the first npm start removes a stale pid file with a sentence, then starts the sandbox and the dev server", async () => {
    expect(said(first.stdout()).split("\n")[0]).toBe(
      `Removed a stale .spend-sync.pids: the npm start it recorded (pid ${stalePid}) is no longer running, and nothing it started is left.`,
    );
    expect(workbench).toMatch(new RegExp(`^http://localhost:${env.SPEND_DEV_PORT}/workbench\\.html\\?enterprise=[0-9a-f-]{36}$`));
    // The flags given after --, echoed (issue 43), the data file's own flag taken out.
    expect(said(first.stdout()).split("\n")).toContain(
      "Sandbox flags: --latency 1. Faults are injected on purpose: slow or failed requests come from the sandbox, not the add-in (docs/sandbox.md).");
    const recorded = JSON.parse(pidFileText);
    expect(recorded).toEqual({
      pid: startPid, devUrl: `http://localhost:${env.SPEND_DEV_PORT}`, workbench,
      ports: { dev: Number(env.SPEND_DEV_PORT), sandbox: Number(env.SPEND_SANDBOX_PORT) },
      groups: [{ role: "sandbox", pid: expect.any(Number) }, { role: "dev server", pid: expect.any(Number) }],
    });
    // The real programs, each the leader of its own process group, all below this npm start.
    const commands = tree.map(commandOf);
    expect(commands.some((c) => c.includes("tools/start.ts"))).toBe(true);
    expect(commands.filter((c) => c.includes("src/sandbox/cli.ts")).length).toBeGreaterThanOrEqual(2); // tsx, then its node
    for (const group of recorded.groups) {
      expect(tree).toContain(group.pid);
      expect(stat(group.pid)![2]).toBe(String(group.pid));
    }
    expect((await fetch(workbench)).status).toBe(200);
  });

  it("a second npm start refuses at once with the running one's workbench URL, exit 1, and leaves its pid file, ports and data alone", async () => {
    const dataBefore = readFileSync(DATA, "utf8");
    // --fresh would delete the first one's data: the refusal comes before any flag is acted on.
    const second = npm("start", env, ["--fresh", "--data", DATA]);
    expect(await second.exited).toBe(1);
    expect(said(second.stdout())).toBe("");
    expect(said(second.stderr())).toBe(
      `Spend Sync is already running in this folder (npm start, pid ${startPid}):\n  Workbench: ${workbench}\n${USE_IT}`,
    );
    expect(readFileSync(PID_FILE, "utf8")).toBe(pidFileText);
    expect(readFileSync(DATA, "utf8")).toBe(dataBefore);
    // The first still runs and answers on both its ports.
    expect(first.child.exitCode).toBeNull();
    expect(tree.filter((pid) => !running(pid))).toEqual([]);
    expect((await fetch(workbench)).status).toBe(200);
    const sandbox = await fetch(`http://127.0.0.1:${env.SPEND_SANDBOX_PORT}/public/v1/enterprises/x/corporate-cards/`);
    expect(sandbox.status).toBe(403);
  });

  it("the taskpane's connection test against this dev server: /proxi is named as the base URL to fix, /proxy connects", async () => {
    const [, id, key] = /enterprise 1: id (\S+)\s+key (\S+)/.exec(first.stdout())!;
    const devUrl = `http://localhost:${env.SPEND_DEV_PORT}`;
    const connectWith = async (baseUrl: string) => {
      const session = new Session(memoryStorage());
      try {
        return (await listCards(session.connect({ baseUrl, enterpriseId: id, apiKey: key }), {}, { pageSize: 1 }).pages().next()).value!.count;
      } catch (error) {
        return explain(error);
      }
    };
    expect(await connectWith(`${devUrl}/proxi`)).toBe(
      `The base URL looks wrong: nothing at ${devUrl}/proxi answers as the Spend Sync service. Every enterprise has a list of corporate cards, ` +
      `but the request for page 1 of the corporate cards answered 404 Not Found, with an HTML page rather than ` +
      `the service's JSON error. ${baseUrlExamples()}`,
    );
    expect(await connectWith(`localhost:${env.SPEND_DEV_PORT}/proxy`)).toBe(
      `The base URL "localhost:${env.SPEND_DEV_PORT}/proxy" has no scheme: start it with http://, as in ${devUrl}/proxy.`,
    );
    expect(await connectWith(`${devUrl}/proxy`)).toBeGreaterThan(0);
  });

  it("the dev server answers the demo ids it printed, by name, for the workbench's pickers, and no key (issue 43)", async () => {
    const [, id, key, subsidiaries] = /enterprise 1: id (\S+)\s+key (\S+)\s+subsidiaries (.+)/.exec(first.stdout())!;
    const answer = await fetch(`http://localhost:${env.SPEND_DEV_PORT}/demo-ids.json`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(key);
    const { enterprises } = JSON.parse(text) as { enterprises: { id: string; subsidiaries: { id: string; name: string }[] }[] };
    const mine = enterprises.find((e) => e.id === id)!;
    expect(mine.subsidiaries.map((s) => s.id)).toEqual(subsidiaries.trim().split(", "));
    expect(mine.subsidiaries.map((s) => s.name)).toEqual(mine.subsidiaries.map(() => expect.stringMatching(/^\S.* \([A-Z]{3}\)$/)));
  });

  it("npm stop ends npm start, the sandbox, the dev server and everything they spawned, and frees both ports", async () => {
    const groups = JSON.parse(pidFileText).groups as { role: string; pid: number }[];
    const stop = npm("stop", env);
    expect(await stop.exited).toBe(0);
    expect(said(stop.stdout())).toBe(
      `Stopped Spend Sync: npm start (pid ${startPid}), the sandbox (pid ${groups[0].pid}), the dev server (pid ${groups[1].pid}) and everything they started have ended.`,
    );
    // npm stop returns once npm start and the groups are gone; the npm, sh and tsx above npm start, and tsx's
    // esbuild beside it, end as soon as it has: polled a bounded number of times.
    const left = () => tree.filter(running).map((pid) => `${pid} ${commandOf(pid)}`);
    expect(await poll(left, (l) => l.length === 0)).toEqual([]);
    expect(await first.exited).toBe(0);
    expect(said(first.stdout()).split("\n").pop()).toBe("Stopping Spend Sync (npm stop)…");
    expect(descendants(first.child.pid!)).toEqual([]);
    const ports = [Number(env.SPEND_DEV_PORT), Number(env.SPEND_SANDBOX_PORT)];
    const listening = () => Promise.all(ports.flatMap((port) => ["127.0.0.1", "::1"].map((host) => answers(port, host))));
    expect(await poll(listening, (open) => open.every((o) => !o))).toEqual([false, false, false, false]);
    expect(existsSync(PID_FILE)).toBe(false);

    const again = npm("stop", env);
    expect(await again.exited).toBe(0);
    expect(said(again.stdout())).toBe("Nothing to stop: npm start is not running in this folder (no .spend-sync.pids).");
  });
});

describe("a sandbox that dies while npm start runs (issue 43: npm start said nothing)", () => {
  it("is reported on stderr, and npm start ends the dev server, frees its port and its pid file, exit 1", async () => {
    const env = await envWithPorts();
    const start = npm("start", env, ["--data", DATA]);
    try {
      await until(start, "npm stop (or Ctrl-C) ends all of it.");
      expect(said(start.stdout()).split("\n")).toContain("Sandbox flags: none (no faults injected).");
      const { groups } = JSON.parse(readFileSync(PID_FILE, "utf8")) as { groups: { role: string; pid: number }[] };
      const sandbox = groups.find((g) => g.role === "sandbox")!;
      process.kill(-sandbox.pid, "SIGKILL");
      expect(await start.exited).toBe(1);
      expect(said(start.stderr()).split("\n")).toContain(
        "The sandbox stopped (killed by SIGKILL): the workbench and the add-in can no longer reach the service. npm start is ending everything it started; run npm start again.");
      expect(await poll(() => answers(Number(env.SPEND_DEV_PORT), "127.0.0.1"), (up) => !up)).toBe(false);
      expect(existsSync(PID_FILE)).toBe(false);
    } finally {
      if (existsSync(PID_FILE)) await npm("stop", env).exited;
    }
  });
});

describe("npm start refuses before it starts anything; npm stop never signals a process it did not start", () => {
  let env: NodeJS.ProcessEnv;
  const standIns: ChildProcess[] = [];
  const holders: Server[] = [];

  beforeEach(async () => {
    env = await envWithPorts();
    rmSync(PID_FILE, { force: true });
    rmSync(DATA, { force: true });
  });

  afterEach(async () => {
    for (const child of standIns.splice(0)) child.kill("SIGKILL");
    for (const server of holders.splice(0)) await new Promise((r) => server.close(r));
  });

  async function hold(port: number): Promise<void> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    holders.push(server);
  }

  it.each([
    ["SPEND_DEV_PORT", "the dev server's"],
    ["SPEND_SANDBOX_PORT", "the sandbox's"],
  ])("a port another program holds (%s): refused with what to do, no pid file, no data file, the port left to its program", async (variable, whose) => {
    const port = Number(env[variable]);
    await hold(port);
    const start = npm("start", env, ["--data", DATA]);
    expect(await start.exited).toBe(1);
    expect(said(start.stdout())).toBe("");
    expect(said(start.stderr())).toBe(
      `Port ${port} (${whose}) is already in use by another program, so npm start started nothing. Stop that program, or choose another port: ${variable}=${port + 1} npm start.`,
    );
    expect(existsSync(PID_FILE)).toBe(false);
    expect(existsSync(DATA)).toBe(false);
    expect(await answers(port, "127.0.0.1")).toBe(true);
  });

  it("while the first npm start is still building: the second says where its workbench will be", async () => {
    const building = standIn("/repo/tools/start.ts");
    standIns.push(building);
    const text = JSON.stringify({ pid: building.pid, devUrl: "http://localhost:3000", workbench: null, ports: { dev: 3000, sandbox: 3100 }, groups: [] });
    writeFileSync(PID_FILE, text);
    const second = npm("start", env, ["--data", DATA]);
    expect(await second.exited).toBe(1);
    expect(said(second.stderr())).toBe(
      `Spend Sync is already starting in this folder (npm start, pid ${building.pid}); once built, its workbench is at\n  http://localhost:3000/workbench.html\n${USE_IT}`,
    );
    expect(readFileSync(PID_FILE, "utf8")).toBe(text);
    expect(existsSync(DATA)).toBe(false);
    expect(running(building.pid!)).toBe(true);
  });

  it("npm start ended but its sandbox runs on: npm start refuses and says so; npm stop ends the sandbox's group", async () => {
    const orphan = standIn("/repo/src/sandbox/cli.ts", true);
    standIns.push(orphan);
    const gone = deadPid();
    writeFileSync(PID_FILE, JSON.stringify({ pid: gone, devUrl: "http://localhost:3000", workbench: null, ports: { dev: 3000, sandbox: 3100 }, groups: [{ role: "sandbox", pid: orphan.pid }] }));
    const start = npm("start", env, ["--data", DATA]);
    expect(await start.exited).toBe(1);
    expect(said(start.stderr())).toBe(
      `A previous npm start (pid ${gone}) has ended, but its sandbox or dev server still runs (process groups ${orphan.pid}). Run \`npm stop\` to end them, then npm start again. This npm start started nothing.`,
    );
    expect(running(orphan.pid!)).toBe(true);

    const stop = npm("stop", env);
    expect(await stop.exited).toBe(0);
    expect(said(stop.stdout())).toBe(`Stopped what an ended npm start (pid ${gone}) left running: the sandbox (pid ${orphan.pid}) and everything they started have ended.`);
    expect(running(orphan.pid!)).toBe(false);
    expect(existsSync(PID_FILE)).toBe(false);
  });

  it("a pid file whose pids now belong to other programs is stale: removed with a sentence, and those programs keep running", async () => {
    const stranger = standIn("someone-else.js");
    const strangerGroup = standIn("someone-elses-server.js", true);
    standIns.push(stranger, strangerGroup);
    writeFileSync(PID_FILE, JSON.stringify({
      pid: stranger.pid, devUrl: "http://localhost:3000", workbench: "http://localhost:3000/workbench.html", ports: { dev: 3000, sandbox: 3100 },
      groups: [{ role: "dev server", pid: strangerGroup.pid }],
    }));
    const stop = npm("stop", env);
    expect(await stop.exited).toBe(0);
    expect(said(stop.stdout())).toBe(
      `Removed a stale .spend-sync.pids: the npm start it recorded (pid ${stranger.pid}) is no longer running, and nothing it started is left. Nothing to stop.`,
    );
    expect(existsSync(PID_FILE)).toBe(false);
    expect([running(stranger.pid!), running(strangerGroup.pid!)]).toEqual([true, true]);
  });

  it("the pid file of an earlier version (a list of pids) is read: stale when they are gone", async () => {
    const [a, b] = [deadPid(), deadPid()];
    writeFileSync(PID_FILE, JSON.stringify([a, b]));
    const stop = npm("stop", env);
    expect(await stop.exited).toBe(0);
    expect(said(stop.stdout())).toBe(`Removed a stale .spend-sync.pids: the npm start it recorded (pid ${a}) is no longer running, and nothing it started is left. Nothing to stop.`);
    expect(existsSync(PID_FILE)).toBe(false);
  });
});
