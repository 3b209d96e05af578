/** Runs the sandbox CLI as a separate process, as outside tools do. */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

export const ROOT = join(__dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

export interface Spawned {
  child: ChildProcess;
  /** Resolves with the first stdout line. */
  firstLine: Promise<string>;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `command` is "npm" (through the package script, the documented way) or "tsx" (directly). */
export function spawnSandbox(args: string[], command: "npm" | "tsx" = "tsx"): Spawned {
  const child =
    command === "npm"
      ? spawn("npm", ["run", "--silent", "sandbox", "--", ...args], { cwd: ROOT, detached: true })
      : spawn(TSX, [join(ROOT, "src/sandbox/cli.ts"), ...args], { cwd: ROOT });
  return captured(child, "sandbox");
}

/** A child's output as it comes (stdout, stderr, the first stdout line) and its exit code. */
export function captured(child: ChildProcess, name: string): Spawned {
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`${name} exited (${code}) before printing: ${err}`)));
  });
  firstLine.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, firstLine, stdout: () => out, stderr: () => err, exited };
}
