/**
 * `--data FILE` under kill -9: the sandbox CLI is killed mid-stream of 20 parallel PATCH streams, five
 * times, restarted on the same file each time. Every PATCH that was answered 200 must be in the file on
 * the next start; the file must parse after every kill; no temp file may survive a restart. The kill is
 * triggered by a count of acknowledgements, never by a timer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "../../src/sandbox/server";
import { ROOT } from "../support/process";

const ROUNDS = 5;
const STREAMS = 20;

interface Started {
  child: ChildProcess;
  manifest: { base_url: string; enterprises: { id: string; api_key: string; subsidiaries: string[] }[] };
  exited: Promise<number | null>;
}

/** Node itself runs the CLI (through tsx's loader), so SIGKILL hits the server, not a wrapper process. */
function start(file: string): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/sandbox/cli.ts"),
    "--port", "0", "--json", "--data", file, "--seed", "5", "--scale", "2", "--compact-every", "25"], { cwd: ROOT });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, manifest: JSON.parse(out.slice(0, nl)), exited });
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited (${code}) before starting: ${err}`)));
  });
}

interface Ack {
  kind: "expenses" | "allowances";
  id: string;
  paid_id: string;
}

/** What a restarted sandbox holds for every acknowledged change, read from the file it rewrote on start. */
function lostIn(file: string, acks: Ack[]): Ack[] {
  const data = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map<string, { state: string; paid_id: string | null }>(
    [...data.expenses, ...data.allowances].map((r: { id: string; state: string; paid_id: string | null }) => [r.id, r]),
  );
  return acks.filter((a) => byId.get(a.id)?.state !== "paid" || byId.get(a.id)?.paid_id !== a.paid_id);
}

async function pendingWork(m: Started["manifest"]): Promise<{ kind: Ack["kind"]; path: string }[]> {
  const [e] = m.enterprises;
  const headers = { Authorization: `Api-Key ${e.api_key}` };
  const work: { kind: Ack["kind"]; path: string }[] = [];
  for (const kind of ["expenses", "allowances"] as const) {
    for (const state of ["approved", "accounted"]) {
      const base = `${m.base_url}/public/v1/enterprises/${e.id}/subsidiaries/${e.subsidiaries[0]}/${kind}/`;
      const list = await (await fetch(`${base}?state=${state}&page_size=1000`, { headers })).json();
      for (const r of list.results as { id: string }[]) work.push({ kind, path: `${base}${r.id}/` });
    }
  }
  return work;
}

describe("--data survives kill -9", () => {
  it(`loses no acknowledged PATCH over ${ROUNDS} kills mid-stream, and the file stays valid`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-kill-"));
    const file = join(dir, "state.json");
    const acks: Ack[] = [];
    const figures: string[] = [];
    let running: ChildProcess | undefined;
    try {
      for (let round = 1; round <= ROUNDS + 1; round++) {
        const s = await start(file);
        running = s.child;
        // The previous round's kill is judged on this start: the file was replayed and rewritten.
        expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
        const lost = lostIn(file, acks);
        figures.push(`start ${round}: ${acks.length} acknowledged so far, ${lost.length} lost`);
        expect(lost).toEqual([]);
        if (round > ROUNDS) {
          s.child.kill("SIGTERM");
          expect(await s.exited).toBe(0);
          break;
        }
        const work = await pendingWork(s.manifest);
        const killAfter = 30 + 7 * round; // acknowledgements this round before the kill
        let roundAcks = 0;
        let refused = 0;
        const key = s.manifest.enterprises[0].api_key;
        const stream = async (n: number) => {
          for (let item = work.shift(), i = 0; item; item = work.shift(), i++) {
            const paid_id = `R${round}-S${n}-${i}`;
            let res: Response;
            try {
              res = await fetch(item.path, {
                method: "PATCH", headers: { Authorization: `Api-Key ${key}`, "Content-Type": "application/json" },
                body: JSON.stringify({ state: "paid", paid_id }),
              });
              await res.text();
            } catch {
              return; // the process is gone: this PATCH was never acknowledged
            }
            if (res.status !== 200) {
              refused++;
              continue;
            }
            acks.push({ kind: item.kind, id: item.path.split("/").at(-2)!, paid_id });
            if (++roundAcks === killAfter) s.child.kill("SIGKILL");
          }
        };
        await Promise.all(Array.from({ length: STREAMS }, (_, n) => stream(n)));
        expect(await s.exited).toBeNull(); // killed by the signal
        expect(s.child.signalCode).toBe("SIGKILL");
        expect(roundAcks).toBeGreaterThanOrEqual(killAfter);
        expect(refused).toBe(0);
        expect(() => JSON.parse(readFileSync(file, "utf8"))).not.toThrow();
        figures.push(`round ${round}: ${roundAcks} acknowledged, killed after the ${killAfter}th`);
      }
      process.stdout.write(`kill -9 durability: ${figures.join("; ")}\n`);
      expect(readdirSync(dir)).toEqual(["state.json"]);
    } finally {
      // A failed expectation must not leave a sandbox running (and jest waiting on it).
      if (running && running.exitCode === null && running.signalCode === null) running.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("--data start-up", () => {
  it("removes stray temp files, replays the log, ignores a torn last line, and leaves one valid file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-start-"));
    const file = join(dir, "state.json");
    try {
      const first = await startSandbox({ dataFile: file, seed: 5 });
      const data = JSON.parse(readFileSync(file, "utf8"));
      await first.close();
      const expense = data.expenses.find((e: { state: string }) => e.state === "approved");
      // What a kill -9 can leave: a half-written snapshot temp file and a log whose last append was cut short.
      writeFileSync(join(dir, "state.json.4242.tmp"), '{"version": 1, "expen');
      const set = { state: "paid", updated_at: "2026-11-02T10:00:00Z", paid_id: "FROM-LOG" };
      const transition = { at: set.updated_at, resource: "expense", id: expense.id, from: "approved", to: "paid", fields: { paid_id: "FROM-LOG" } };
      const line = `${JSON.stringify({ seq: data.log_seq + 1, change: { kind: "patch", resource: "expense", id: expense.id, set, transition } })}\n`;
      appendFileSync(`${file}.log`, line);
      appendFileSync(`${file}.log`, `{"seq": ${data.log_seq + 2}, "change": {"kind": "pat`);
      const second = await startSandbox({ dataFile: file });
      try {
        expect(readdirSync(dir)).toEqual(["state.json"]);
        expect(second.store.expenseById(expense.id)).toMatchObject({ state: "paid", paid_id: "FROM-LOG" });
        expect(second.store.transitionsOf(expense.id)).toHaveLength(1);
        const saved = JSON.parse(readFileSync(file, "utf8"));
        expect(saved.expenses.find((e: { id: string }) => e.id === expense.id)).toMatchObject({ paid_id: "FROM-LOG" });
      } finally {
        await second.close();
      }
      // A line the snapshot already holds (a crash between snapshot and log removal) is not replayed twice.
      appendFileSync(`${file}.log`, line);
      const third = await startSandbox({ dataFile: file });
      expect(third.store.transitionsOf(expense.id)).toHaveLength(1);
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
