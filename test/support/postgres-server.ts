/**
 * A throwaway PostgreSQL server for tests: initdb in a temporary folder, `postgres` on a free loopback port,
 * removed afterwards. It needs Debian's `postgresql` binaries (/usr/lib/postgresql/<version>/bin, or PG_BIN);
 * when they are missing, `findPostgres` says so and the caller skips loudly. As root (CI containers) the
 * server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";

export interface PostgresBinaries {
  bin: string;
  /** Run as this user (root cannot run PostgreSQL). */
  user: { name: string; uid: number; gid: number } | null;
}

/** The binaries and who runs them, or a sentence saying why there is no PostgreSQL to test against. */
export function findPostgres(): PostgresBinaries | string {
  const candidates = [process.env.PG_BIN, ...versionsIn("/usr/lib/postgresql"), "/usr/local/bin", "/usr/bin"].filter((d): d is string => !!d);
  const bin = candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres")));
  if (!bin) return `no PostgreSQL server binaries (initdb, postgres) in ${candidates.join(", ")}: install Debian's postgresql (.ci/run does) or set PG_BIN`;
  if (process.getuid?.() !== 0) return { bin, user: null };
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    return { bin, user: { name: "postgres", uid, gid } };
  } catch {
    return "running as root and there is no postgres user to run PostgreSQL as";
  }
}

function versionsIn(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).sort((a, b) => Number(b) - Number(a)).map((v) => join(root, v, "bin"));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Starts a fresh server; resolves once it accepts connections. */
export async function startPostgres(binaries: PostgresBinaries): Promise<RunningPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "spend-pg-"));
  const data = join(dir, "data");
  if (binaries.user) chownSync(dir, binaries.user.uid, binaries.user.gid);
  const asUser = { ...(binaries.user ? { uid: binaries.user.uid, gid: binaries.user.gid } : {}), env: { ...process.env, LC_ALL: "C" } };
  execFileSync(join(binaries.bin, "initdb"), ["-D", data, "-A", "trust", "-U", "team", "-E", "UTF8", "--no-sync"], { ...asUser, stdio: "pipe" });
  const port = await freePort();
  const server: ChildProcess = spawn(join(binaries.bin, "postgres"), ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"], { ...asUser, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const url = `postgres://team@127.0.0.1:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt > 300 || server.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      server.kill("SIGINT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
