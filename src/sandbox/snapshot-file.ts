/**
 * The `--data` snapshot: one JSON file, replaced atomically (temp file, fsync, rename, fsync of the
 * directory), so the file on disk is always a whole, valid snapshot, whatever moment the process dies.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { SandboxData } from "./model";
import { messageOf } from "../domain";

/** The `--data` file cannot be read as a snapshot: the sandbox does not start (it never writes over it). */
class DataFileError extends Error {
  override readonly name = "DataFileError";
}

export function loadSnapshot(path: string): SandboxData | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DataFileError(`The data file ${path} is not valid JSON (${messageOf(error)}). Move it away to start fresh.`);
  }
  const data = parsed as Partial<SandboxData>;
  if (data?.version !== 1 || !Array.isArray(data.expenses) || !Array.isArray(data.enterprises)) {
    throw new DataFileError(`The data file ${path} is not a sandbox data file (version 1). Move it away to start fresh.`);
  }
  return data as SandboxData;
}

const tempName = (path: string) => `${path}.${process.pid}.tmp`;

/** Temp files of earlier runs that died mid-write (`FILE.<pid>.tmp`): never valid, always safe to delete. */
export function removeStrayTemps(path: string): string[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const strays = readdirSync(dir).filter((name) => name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)));
  for (const name of strays) unlinkSync(join(dir, name));
  return strays;
}

/** Makes a rename or unlink in the directory durable. */
export function syncDirectory(path: string): void {
  const fd = openSync(dirname(path), "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Start-up and shutdown: blocking is fine there. */
export function writeSnapshotSync(path: string, data: SandboxData): void {
  const tmp = tempName(path);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, JSON.stringify(data));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDirectory(path);
}

/**
 * While serving: the writes and fsyncs run off the event loop. Takes the text, serialised by the caller
 * in the same synchronous step that numbers it, so no change can slip in between.
 */
export async function writeSnapshot(path: string, text: string): Promise<void> {
  const tmp = tempName(path);
  const handle = await open(tmp, "w");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  syncDirectory(path);
}
