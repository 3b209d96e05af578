/** `npm stop`: ends what `npm start` started (it keeps their pids in .spend-sync.pids). */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const PID_FILE = join(__dirname, "..", ".spend-sync.pids");
if (!existsSync(PID_FILE)) {
  console.log("Nothing to stop: npm start is not running (no .spend-sync.pids).");
} else {
  const pids = JSON.parse(readFileSync(PID_FILE, "utf8")) as number[];
  let stopped = 0;
  for (const pid of pids.reverse()) {
    try {
      process.kill(pid, "SIGTERM");
      stopped++;
    } catch {
      // already gone
    }
  }
  rmSync(PID_FILE, { force: true });
  console.log(`Stopped ${stopped} process(es) of npm start.`);
}
