/** Runs `npm run gateway -- …` as an operator does, in its own process group (npm, tsx, node). */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { ROOT, captured, type Spawned } from "../support/process";

export interface SpawnedGateway extends Spawned {
  /**
   * Signals the gateway's own process, as systemd or Ctrl-C reach it (npm runs the script through `sh -c`,
   * which passes no signal on); its exit code then travels back up through tsx, sh and npm.
   */
  signal(name: NodeJS.Signals): void;
  /** Ends the whole process tree (clean-up after a failed test). */
  kill(): void;
}

export function spawnGateway(args: string[]): SpawnedGateway {
  const child = spawn("npm", ["run", "--silent", "gateway", "--", ...args], { cwd: ROOT, detached: true });
  return { ...captured(child, "gateway"), signal: (name) => process.kill(deepestDescendant(child.pid!), name), kill: () => process.kill(-child.pid!, "SIGKILL") };
}

/**
 * The gateway's own process down the chain npm -> sh -> tsx -> node: the descendant whose command line runs
 * src/gateway/cli.ts and that has no such descendant itself. (Not simply the deepest process: tsx's node may
 * have an esbuild service as a child, and a signal to it would never reach the gateway.)
 */
function deepestDescendant(pid: number): number {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const runsGateway = (p: number) => {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
      return cmd.includes("gateway/cli.ts") && !/esbuild/.test(cmd);
    } catch {
      return false;
    }
  };
  let found = pid;
  const queue = [pid];
  for (let guard = 0; queue.length > 0 && guard < 1000; guard++) {
    const current = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent !== current) continue;
      if (runsGateway(child)) found = child;
      queue.push(child);
    }
  }
  return found;
}
