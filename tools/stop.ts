/**
 * `npm stop`: ends what `npm start` started in this folder, as its pid file records it (instance.ts): npm
 * start itself, and the process groups of the sandbox and the dev server with everything they spawned, even
 * when npm start itself has already ended. It waits until they are gone (SIGTERM, then SIGKILL after a bounded
 * number of checks), then removes the pid file. A stale pid file (nothing it names runs) is removed with a
 * sentence. Exit code 0, or 1 when something could not be ended.
 */
import { basename } from "node:path";
import { livenessOf, pidFilePath, readInstance, release, removeIfUnchanged, staleSentence, targetsOf, textOf } from "./instance";
import { portProblem } from "./ports";
import { endAll } from "./processes";

async function main(): Promise<number> {
  const file = pidFilePath();
  const text = textOf(file);
  const instance = readInstance(file);
  if (instance === null) {
    const ports = [Number(process.env.SPEND_DEV_PORT ?? 3000), Number(process.env.SPEND_SANDBOX_PORT ?? 3100)];
    const busy: number[] = [];
    for (const port of ports) if (await portProblem(port, ["127.0.0.1"])) busy.push(port);
    console.log(`Nothing to stop: npm start is not running in this folder (no ${basename(file)}).` +
      (busy.length ? ` Port ${busy.join(" and ")} is in use, but not by an npm start of this folder.` : ""));
    return 0;
  }
  if (instance === "unreadable" || livenessOf(instance) === "stale") {
    removeIfUnchanged(file, text);
    console.log(`${staleSentence(file, instance)} Nothing to stop.`);
    return 0;
  }
  const wasRunning = livenessOf(instance) === "running";
  // npm start first: told SIGTERM, it ends its groups itself; they are signalled here too, in case it cannot.
  const left = await endAll(targetsOf(instance));
  if (left.length > 0) {
    console.error(`Could not end ${left.map((t) => `pid ${t.pid}`).join(", ")} of npm start (pid ${instance.pid}); ${basename(file)} is kept so that npm stop can try again.`);
    return 1;
  }
  release(file, instance.pid);
  const started = instance.legacy
    ? `processes ${instance.groups.map((g) => g.pid).join(", ")}`
    : instance.groups.map((g) => `the ${g.role} (pid ${g.pid})`).join(", ") || "nothing yet";
  console.log(wasRunning
    ? `Stopped Spend Sync: npm start (pid ${instance.pid}), ${started} and everything they started have ended.`
    : `Stopped what an ended npm start (pid ${instance.pid}) left running: ${started} and everything they started have ended.`);
  return 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(`npm stop failed: ${(error as Error).message}`);
  process.exit(1);
});
