/** Starts the sandbox as its own process (its own core), through the start-up contract. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { SandboxManifest } from "../src/sandbox/server";

export interface SandboxProcess {
  manifest: SandboxManifest;
  /** The sandbox's own process (node itself, not a launcher), for its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const root = join(__dirname, "..");
  // node itself with tsx's loader (not tsx's launcher, which runs node as a child): the pid is the sandbox's.
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "src/sandbox/cli.ts"), "--port", "0", "--json", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
  });
  return {
    manifest: JSON.parse(line) as SandboxManifest,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
