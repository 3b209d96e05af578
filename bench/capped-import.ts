/**
 * The import with its heap capped (issue 47's bound as a proof, not a sample): run in a worker thread
 * (capped-import-worker.ts) whose V8 heap may not grow past its start + the bound. The worker is the add-in:
 * Microsoft's Office.js client loaded in its realm, the file read in chunks, the table read, the lines matched,
 * the fills written through the adapter; its requests' JSON text crosses to this thread, which hands it to the
 * Excel worker (remote-excel.ts) as Office.js would hand it to Excel. Were the import to need more, V8 ends the
 * worker out of memory.
 */
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import type { FileMapping } from "../src/domain/import";
import type { MatchReport } from "../src/domain/import";
import type { RemoteExcel } from "./remote-excel";

/** The file in 64 KB chunks, as the taskpane reads a File. */
export async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

/** What the worker is given: the file and its mapping, the table's name; `probe` stops it before the import. */
export interface CappedInput {
  bytes: Uint8Array;
  delimiter: string;
  mapping: FileMapping;
  header: string[];
  tableName: string;
  probe?: boolean;
}

/** What the worker says: an Office.js request to pass on, its heap once ready (collected), its import's outcome. */
export type FromCapped =
  | { query: number; body: string; flags: number }
  | { ready: { startBytes: number; limitBytes: number } }
  | { done: { filledRows: number; counts: MatchReport["counts"] } };

export interface CappedImport {
  /** The worker's heap, collected, before the import; and the most V8 let it grow to (heap_size_limit). */
  startBytes: number;
  limitBytes: number;
  /** The import's outcome, or why the worker ended (out of memory: ERR_WORKER_OUT_OF_MEMORY). */
  outcome: { filledRows: number; counts: MatchReport["counts"] } | { error: string };
}

/** V8's default young generation for a worker (and Node's main thread): capped too, so that the whole heap is within the bound. */
const YOUNG_MB = 48;

/** `expected`: the heap's start and limit to report if the worker ends before it measures its own. */
function runWorker(excel: RemoteExcel, input: CappedInput, limits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } | undefined, expected = { startBytes: 0, limitBytes: 0 }): Promise<CappedImport> {
  const worker = new Worker(`require("tsx/cjs"); require(${JSON.stringify(join(__dirname, "capped-import-worker.ts"))});`, { eval: true, workerData: input, resourceLimits: limits });
  let ready = expected;
  let gone = false;
  return new Promise<CappedImport>((resolve) => {
    const end = (outcome: CappedImport["outcome"]) => {
      if (gone) return;
      gone = true;
      void worker.terminate();
      resolve({ ...ready, outcome });
    };
    worker.on("message", (message: FromCapped) => {
      if ("query" in message) {
        void excel.processQuery(message.body, message.flags).then((answer) => gone || worker.postMessage({ query: message.query, answer }));
      } else if ("ready" in message) {
        ready = message.ready;
        if (input.probe) end({ error: "probe: no import" });
      } else {
        end(message.done);
      }
    });
    worker.on("error", (error: Error & { code?: string }) => end({ error: `${error.code ?? error.name}: ${error.message}` }));
    worker.on("exit", (code) => end({ error: `the worker exited (${code}) before the import's end` }));
  });
}

/**
 * The import in a worker whose heap is capped at its start + `boundBytes`: a first worker, stopped before the
 * import, measures where a worker's heap starts (tsx, Office.js, the file's bytes); the second runs the import
 * with V8's limit set there (old generation: start + bound - young generation).
 */
export async function importUnderCap(excel: RemoteExcel, input: Omit<CappedInput, "probe">, boundBytes: number): Promise<CappedImport> {
  const probe = await runWorker(excel, { ...input, probe: true }, undefined);
  const oldMb = Math.floor((probe.startBytes + boundBytes) / 1024 / 1024) - YOUNG_MB;
  return runWorker(excel, input, { maxOldGenerationSizeMb: oldMb, maxYoungGenerationSizeMb: YOUNG_MB }, { startBytes: probe.startBytes, limitBytes: (oldMb + YOUNG_MB) * 1024 * 1024 });
}
