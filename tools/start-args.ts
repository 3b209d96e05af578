/**
 * What `npm start -- …` passes to the sandbox. By default the sandbox keeps its data in
 * `.spend-data/sandbox.json` (git-ignored), so a demo's edits and syncs survive a restart; `--fresh` deletes
 * that data first; `--data FILE` keeps it elsewhere. Every other flag goes to the sandbox as it is
 * (`--latency`, `--error-rate`, `--scale`, …: see src/sandbox/cli.ts), after the defaults so that it wins.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

export interface StartArgs {
  /** The sandbox's command-line arguments. */
  sandbox: string[];
  /** The flags given after `npm start --` that go to the sandbox (--fresh and --data taken out). */
  flags: string[];
  dataFile: string;
  fresh: boolean;
}

export function startArgs(argv: string[], root: string, sandboxPort: number): StartArgs {
  const rest = argv.filter((a) => a !== "--fresh");
  const fresh = rest.length !== argv.length;
  let dataFile = join(root, ".spend-data", "sandbox.json");
  const given = rest.findIndex((a) => a === "--data" || a.startsWith("--data="));
  if (given >= 0) {
    const [flag] = rest.splice(given, rest[given] === "--data" ? 2 : 1);
    dataFile = resolve(flag === "--data" ? (argv[argv.indexOf("--data") + 1] ?? dataFile) : flag.slice("--data=".length));
  }
  return { sandbox: ["--seed", "1", "--port", String(sandboxPort), "--json", "--data", dataFile, ...rest], flags: rest, dataFile, fresh };
}

/** Prepares the data file's folder; with --fresh, deletes the file and its change log (FILE.log, temp files). */
export function prepareDataFile(dataFile: string, fresh: boolean): { existed: boolean } {
  mkdirSync(dirname(dataFile), { recursive: true });
  const existed = existsSync(dataFile);
  if (fresh) {
    for (const name of readdirSync(dirname(dataFile))) {
      if (name === basename(dataFile) || name.startsWith(`${basename(dataFile)}.`)) rmSync(join(dirname(dataFile), name), { force: true });
    }
  }
  return { existed: existed && !fresh };
}
