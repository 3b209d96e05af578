/**
 * The pid file of `npm start` (`.spend-sync.pids`, or SPEND_PID_FILE): which npm start runs in this folder,
 * the process groups it started, and the workbench URL it printed. It is also the lock that lets one npm
 * start run per folder (two would share the sandbox's data file and fight for the ports):
 *
 * - it is created whole and at once (written beside, then hard-linked into place, which fails if it exists),
 *   so a second npm start never reads it half written and two at once cannot both win;
 * - only the npm start that created it rewrites or removes it; a second one reads it and refuses, leaving it,
 *   the ports and the data alone;
 * - a pid file whose npm start and children have all ended (a crash, a killed terminal) is stale: npm start
 *   and npm stop remove it with a sentence. A pid is reused once its process ends, so "running" means
 *   running as the program recorded (processes.ts), never merely "some process has that pid".
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { groupRunning, isRunningAs, type Target } from "./processes";

export const ROOT = join(__dirname, "..");

/** Where the pid file is: SPEND_PID_FILE (a second instance of one folder, with its own ports and --data), or the folder's own. */
export function pidFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPEND_PID_FILE ? resolve(env.SPEND_PID_FILE) : join(ROOT, ".spend-sync.pids");
}

/** What the command line of each recorded program holds. */
export const MARKERS = { start: "start.ts", sandbox: "sandbox/cli.ts", "dev server": "webpack", sideload: "office-addin-debugging" } as const;
export type Role = Exclude<keyof typeof MARKERS, "start">;

export interface Instance {
  /** The process of tools/start.ts. */
  pid: number;
  /** The dev server's origin, known before it is built. */
  devUrl: string;
  /** The workbench URL npm start printed; null while it is starting. */
  workbench: string | null;
  ports: { dev: number; sandbox: number };
  /** The process groups it started, by their leaders' pids. */
  groups: { role: Role; pid: number }[];
  /** A pid file of the earlier format (a list of pids, children not in groups of their own). */
  legacy?: true;
}

/** The recorded instance; null when there is no pid file; "unreadable" when it holds something else. */
export function readInstance(file: string): Instance | null | "unreadable" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    const data = JSON.parse(text) as unknown;
    // The earlier format: [start pid, child pids…].
    if (Array.isArray(data) && data.length > 0 && data.every((p) => Number.isInteger(p))) {
      const [pid, ...rest] = data as number[];
      return { pid, devUrl: "", workbench: null, ports: { dev: 0, sandbox: 0 }, groups: rest.map((p) => ({ role: "sandbox" as Role, pid: p })), legacy: true };
    }
    const i = data as Instance;
    if (Number.isInteger(i?.pid) && Array.isArray(i.groups) && typeof i.devUrl === "string") return i;
  } catch {
    // fall through
  }
  return "unreadable";
}

/** The processes of an instance as npm stop ends them: its npm start, then each group. */
export function targetsOf(instance: Instance): Target[] {
  return [
    { pid: instance.pid, group: false, marker: MARKERS.start },
    // An earlier version's pids say nothing of which program each was: any of ours.
    ...instance.groups.map((g) => ({ pid: g.pid, group: !instance.legacy, marker: instance.legacy ? Object.values(MARKERS).slice(1) : MARKERS[g.role] })),
  ];
}

export type Liveness = "running" | "orphans" | "stale";

/** running: its npm start runs; orphans: it ended but something it started runs on; stale: nothing runs. */
export function livenessOf(instance: Instance): Liveness {
  if (isRunningAs(instance.pid, MARKERS.start)) return "running";
  const live = targetsOf(instance).slice(1).some((t) => (t.group ? groupRunning(t.pid, t.marker) : isRunningAs(t.pid, t.marker)));
  return live ? "orphans" : "stale";
}

/** "Removed a stale …" */
export function staleSentence(file: string, instance: Instance | "unreadable"): string {
  return instance === "unreadable"
    ? `Removed ${basename(file)}: it did not hold a list of processes, so nothing was stopped by it.`
    : `Removed a stale ${basename(file)}: the npm start it recorded (pid ${instance.pid}) is no longer running, and nothing it started is left.`;
}

/** Removes the file only if it still holds exactly `text` (another npm start may have replaced it meanwhile). */
export function removeIfUnchanged(file: string, text: string): void {
  try {
    if (readFileSync(file, "utf8") === text) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

export function textOf(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Creates the pid file with `instance` in it, whole, unless one exists: true when this call created it. */
export function create(file: string, instance: Instance): boolean {
  const beside = `${file}.${process.pid}.tmp`;
  writeFileSync(beside, JSON.stringify(instance));
  try {
    linkSync(beside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(beside, { force: true });
  }
}

/** Rewrites the pid file of this process (whole: written beside, then renamed over it). Never another's. */
export function update(file: string, instance: Instance): void {
  const current = readInstance(file);
  if (current === null || current === "unreadable" || current.pid !== instance.pid) return;
  const beside = `${file}.${process.pid}.tmp`;
  writeFileSync(beside, JSON.stringify(instance));
  renameSync(beside, file);
}

/** Removes the pid file if it is the one of the npm start with this pid. */
export function release(file: string, pid: number): void {
  const current = readInstance(file);
  if (current !== null && current !== "unreadable" && current.pid === pid) rmSync(file, { force: true });
}
