/**
 * The processes `npm start` starts and how they are ended. Each child (the sandbox, the dev server) is started
 * as the leader of a process group of its own, so one signal to the group reaches everything it spawned: tsx
 * runs the sandbox in a second node process, webpack may start workers. `npm stop` and Ctrl-C signal the
 * groups, wait a bounded number of rounds, and only then give up with SIGKILL.
 *
 * Windows has no process groups: there the children are not detached (a detached child opens a console of
 * its own) and a tree is ended with `taskkill /T /F`, which reaches the descendants of a leader still alive.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

const WINDOWS = process.platform === "win32";
const LINUX = process.platform === "linux";

/** Spawn options that make a child the leader of its own process group (not on Windows: see above). */
export const OWN_GROUP = { detached: !WINDOWS } as const;

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, …]; null off Linux or once gone. */
function procStat(pid: number): string[] | null {
  if (!LINUX) return null;
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself hold spaces and ")".
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * True while `pid` runs. A zombie (ended, not yet reaped by its parent) does not count: it holds no port and
 * no file, and where the init process does not reap orphans it would otherwise look alive forever.
 */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user (a pid reused by someone else's process).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (!LINUX) return true;
  const stat = procStat(pid);
  return stat !== null && stat[0] !== "Z" && stat[0] !== "X";
}

/** The command line of a running process, "/" for every "\\"; null where it cannot be read (Windows). */
function commandLine(pid: number): string | null {
  try {
    if (LINUX) return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").replace(/\\/g, "/");
    if (process.platform === "darwin") return execFileSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8" }).replace(/\\/g, "/");
  } catch {
    return "";
  }
  return null;
}

/**
 * True when `pid` runs and is the program `marker` names (a part of its command line). A pid is reused once
 * its process has ended: a pid file from yesterday may name someone else's process, which must not be
 * signalled. Where the command line cannot be read, running is taken as enough.
 */
export function isRunningAs(pid: number, marker: string | readonly string[]): boolean {
  if (!isRunning(pid)) return false;
  const command = commandLine(pid);
  return command === null || (typeof marker === "string" ? [marker] : marker).some((m) => command.includes(m));
}

/** Running members of the process group `pgid` (Linux reads them from /proc; elsewhere the leader stands for it). */
function groupMembers(pgid: number): number[] {
  if (!LINUX) {
    if (WINDOWS) return isRunning(pgid) ? [pgid] : [];
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && Number(stat[2]) === pgid && stat[0] !== "Z" && stat[0] !== "X") members.push(Number(name));
  }
  return members;
}

/**
 * True while the group that `leader` started still has a running member and is the one we started: the
 * leader runs as `marker`, or the leader is gone and members remain (a pid cannot be handed out again while
 * a group still carries it as its id, so those members are the ones our leader spawned).
 */
export function groupRunning(leader: number, marker: string | readonly string[]): boolean {
  if (isRunning(leader)) return isRunningAs(leader, marker);
  return groupMembers(leader).length > 0;
}

function signalGroup(leader: number, signal: NodeJS.Signals): void {
  if (WINDOWS) {
    // Ends the tree at once; taskkill has no gentler form for a console program.
    spawnSync("taskkill", ["/PID", String(leader), "/T", "/F"], { stdio: "ignore" });
    return;
  }
  try {
    process.kill(-leader, signal);
  } catch {
    // ESRCH: the group has ended meanwhile.
  }
}

function signalOne(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Target {
  /** A process (`group: false`) or the leader of a process group. */
  pid: number;
  group: boolean;
  /** What its command line holds, or one of several (see isRunningAs). */
  marker: string | readonly string[];
}

const running = (t: Target) => (t.group ? groupRunning(t.pid, t.marker) : isRunningAs(t.pid, t.marker));

/**
 * Ends every target: SIGTERM (each program closes its server and exits), up to `rounds` checks 100 ms apart,
 * then SIGKILL for what is left and as many checks again. Returns the targets still running (none, normally).
 */
export async function endAll(targets: Target[], rounds = 100): Promise<Target[]> {
  let left = targets.filter(running);
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    for (const t of left) (t.group ? signalGroup : signalOne)(t.pid, signal);
    for (let i = 0; i < rounds && left.length > 0; i++) {
      await pause(100);
      left = left.filter(running);
    }
    if (left.length === 0) break;
  }
  return left;
}
