/** Starts the sandbox as its own process (its own core), through the start-up contract. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { SandboxManifest } from "../src/sandbox/server";

export interface SandboxProcess {
  manifest: SandboxManifest;
  stop(): Promise<void>;
}

export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const root = join(__dirname, "..");
  const child = spawn(join(root, "node_modules", ".bin", "tsx"), [join(root, "src/sandbox/cli.ts"), "--port", "0", "--json", ...args], {
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
    stop: () =>
      new Promise<void>((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
