/** `--data FILE`: the store survives a restart. Writes go to a temp file that is renamed into place. */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { SandboxData } from "./model";

export function loadData(path: string): SandboxData | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`The data file ${path} is not valid JSON (${(error as Error).message}). Move it away to start fresh.`);
  }
  const data = parsed as Partial<SandboxData>;
  if (data?.version !== 1 || !Array.isArray(data.expenses) || !Array.isArray(data.enterprises)) {
    throw new Error(`The data file ${path} is not a sandbox data file (version 1). Move it away to start fresh.`);
  }
  return data as SandboxData;
}

/** Saves after changes without blocking requests; at most one write in flight, the last state wins. */
export class DataFile {
  private writing = false;
  private dirty = false;
  private tmp: string;

  constructor(private readonly path: string, private readonly data: SandboxData) {
    this.tmp = `${path}.${process.pid}.tmp`;
  }

  /** Asks for a save soon; coalesces bursts of changes into one write. */
  schedule(): void {
    this.dirty = true;
    if (!this.writing) void this.drain();
  }

  /** Writes now, synchronously (start-up and shutdown). */
  saveNow(): void {
    writeFileSync(this.tmp, JSON.stringify(this.data));
    renameSync(this.tmp, this.path);
    this.dirty = false;
  }

  /** Resolves once every scheduled change is on disk. */
  async flush(): Promise<void> {
    while (this.writing || this.dirty) {
      if (!this.writing) await this.drain();
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.dirty) {
        this.dirty = false;
        await writeFile(this.tmp, JSON.stringify(this.data));
        await rename(this.tmp, this.path);
      }
    } catch (error) {
      process.stderr.write(`sandbox: could not save ${this.path}: ${(error as Error).message}\n`);
    } finally {
      this.writing = false;
    }
  }
}
