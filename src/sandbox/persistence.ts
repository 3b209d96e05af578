/**
 * `--data FILE`: an acknowledged change survives anything, kill -9 included. Each change is appended to
 * `FILE.log` and fdatasync'd before its PATCH is answered; changes arriving while a sync runs share the
 * next one (group commit), so twenty parallel clients pay one fsync per batch, not one each. The log is
 * folded into FILE (snapshot-file.ts: temp, fsync, rename) on start, on shutdown and every
 * COMPACT_EVERY changes. Each log line carries a sequence number and the snapshot the last one it holds,
 * so a line already in the snapshot is never replayed twice; a torn last line was never acknowledged.
 */
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { open, unlink, type FileHandle } from "node:fs/promises";
import type { SandboxData } from "./model";
import { loadSnapshot, removeStrayTemps, syncDirectory, writeSnapshot, writeSnapshotSync } from "./snapshot-file";
import { applyChange, type StoreChange } from "./store";
import { messageOf } from "../domain";

/** Changes logged before the log is folded into the snapshot (`--compact-every`). */
const COMPACT_EVERY = 2000;

type Logged = { seq: number; change: StoreChange };

interface Waiting {
  line: string;
  resolve(): void;
  reject(error: Error): void;
}

/** Lines up to the first one that is not whole (a crash mid-append). */
function readLog(path: string): Logged[] {
  if (!existsSync(path)) return [];
  const entries: Logged[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      const entry = JSON.parse(line) as Logged;
      if (typeof entry?.seq !== "number" || typeof entry.change !== "object") break;
      entries.push(entry);
    } catch {
      break;
    }
  }
  return entries;
}

function replay(data: SandboxData, change: StoreChange): void {
  if (change.kind === "insert") {
    data.expenses.push(change.expense);
    return;
  }
  const records: { id: string }[] = change.resource === "allowance" ? data.allowances : data.expenses;
  const record = records.find((r) => r.id === change.id);
  if (!record) return;
  applyChange(record as Parameters<typeof applyChange>[0], change.set);
  data.transitions.push(change.transition);
}

export class DataFile {
  private readonly logPath: string;
  private seq: number;
  private sinceSnapshot = 0;
  private waiting: Waiting[] = [];
  private flushing: Promise<void> | null = null;
  private log: FileHandle | null = null;

  /**
   * Loads FILE (or the data `fresh` makes), replays the log onto it, removes stray temp files, and
   * writes the result back as the new snapshot before anything is served.
   */
  static open(path: string, fresh: () => SandboxData, compactEvery = COMPACT_EVERY): DataFile {
    removeStrayTemps(path);
    const data = loadSnapshot(path) ?? fresh();
    const logPath = `${path}.log`;
    let seq = data.log_seq ?? 0;
    for (const entry of readLog(logPath)) {
      if (entry.seq <= seq) continue;
      replay(data, entry.change);
      seq = entry.seq;
    }
    data.log_seq = seq;
    writeSnapshotSync(path, data);
    if (existsSync(logPath)) {
      unlinkSync(logPath);
      syncDirectory(path);
    }
    return new DataFile(path, data, seq, compactEvery);
  }

  private constructor(private readonly path: string, readonly data: SandboxData, seq: number, private readonly compactEvery: number) {
    this.logPath = `${path}.log`;
    this.seq = seq;
  }

  /** Resolves once `change` (already applied in memory) is on disk. */
  append(change: StoreChange): Promise<void> {
    this.seq += 1;
    const line = `${JSON.stringify({ seq: this.seq, change })}\n`;
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ line, resolve, reject });
      this.kick();
    });
  }

  /** Everything on disk, folded into FILE, and no log left (SIGTERM, SIGINT, close()). */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.log?.close();
    this.log = null;
    this.data.log_seq = this.seq;
    writeSnapshotSync(this.path, this.data);
    if (existsSync(this.logPath)) unlinkSync(this.logPath);
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      if (this.waiting.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      try {
        this.log ??= await open(this.logPath, "a");
        await this.log.appendFile(batch.map((w) => w.line).join(""));
        await this.log.datasync();
        this.sinceSnapshot += batch.length;
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error as Error);
      }
      if (this.sinceSnapshot >= this.compactEvery) await this.compact();
    }
  }

  /** Folds the log into FILE. Runs inside drain(), so no append is in flight while the log goes away. */
  private async compact(): Promise<void> {
    try {
      this.data.log_seq = this.seq; // memory holds every change numbered so far, and nothing more
      await writeSnapshot(this.path, JSON.stringify(this.data));
      await this.log?.close();
      this.log = null;
      await unlink(this.logPath);
      this.sinceSnapshot = 0;
    } catch (error) {
      // The log still holds everything; the next start folds it in.
      process.stderr.write(`sandbox: could not compact ${this.path}: ${messageOf(error)}\n`);
    }
  }
}
