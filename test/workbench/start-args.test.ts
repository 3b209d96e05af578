/** `npm start -- …`: the sandbox keeps its data in .spend-data by default, --fresh resets it, other flags pass on. */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCli } from "../../src/sandbox/cli";
import { prepareDataFile, startArgs } from "../../tools/start-args";

describe("npm start's sandbox arguments", () => {
  it("keeps the data in <repo>/.spend-data/sandbox.json and passes the other flags on, which the sandbox accepts", () => {
    const args = startArgs(["--latency", "200", "--error-rate", "0.1"], "/repo", 3100);
    expect(args).toEqual({ sandbox: ["--seed", "1", "--port", "3100", "--json", "--data", "/repo/.spend-data/sandbox.json", "--latency", "200", "--error-rate", "0.1"], flags: ["--latency", "200", "--error-rate", "0.1"], dataFile: "/repo/.spend-data/sandbox.json", fresh: false });
    expect(parseCli(args.sandbox)).toMatchObject({ dataFile: "/repo/.spend-data/sandbox.json", port: 3100, faults: { latencyMs: 200, errorRate: 0.1 } });
  });

  it("--fresh is npm start's own; --data moves the file; a later --seed wins over the default", () => {
    const args = startArgs(["--fresh", "--data", "/tmp/x.json", "--seed", "7"], "/repo", 3100);
    expect(args.fresh).toBe(true);
    expect(args.dataFile).toBe("/tmp/x.json");
    expect(parseCli(args.sandbox)).toMatchObject({ dataFile: "/tmp/x.json", seed: 7 });
  });

  it("--fresh deletes the data file and its change log, and nothing else in the folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "spend-data-"));
    const file = join(dir, "sandbox.json");
    for (const name of ["sandbox.json", "sandbox.json.log", "notes.txt"]) writeFileSync(join(dir, name), "{}");
    expect(prepareDataFile(file, false)).toEqual({ existed: true });
    expect(prepareDataFile(file, true)).toEqual({ existed: false });
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    expect(prepareDataFile(join(dir, "new", "s.json"), false)).toEqual({ existed: false });
    expect(existsSync(join(dir, "new"))).toBe(true);
  });
});
