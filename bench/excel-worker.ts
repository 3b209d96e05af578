/**
 * The Excel side of remote-excel.ts: a FakeExcel in a worker thread. Each sync replays the queued
 * operations on the FakeExcel's own objects, syncs them (its latency, limits and rules apply), and answers
 * what every load asked for, or the error the sync raised.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { FakeExcel } from "../src/workbench/fake-excel";
import { utf8Bytes } from "../src/workbench/fake-excel/client-object";
import { collectGarbage } from "./measure";
import { dumpOf, type FromWorker, type Operation, type ToWorker, type WorkerError } from "./remote-excel";

type Target = Record<string, unknown>;
interface Run {
  context: { sync: () => Promise<unknown> };
  objects: Map<number, Target>;
  end: () => void;
}

const { latencyMs } = workerData as { latencyMs: number };
/** The JSON size of each value that arrived as text, so that the FakeExcel need not serialise it again. */
const sizes = new WeakMap<object, number>();
const knownBytes = (payload: unknown): number | undefined => {
  const keys = payload !== null && typeof payload === "object" ? Object.keys(payload) : [];
  const value = keys.length === 1 ? (payload as Record<string, unknown>)[keys[0]] : undefined;
  const size = value !== null && typeof value === "object" ? sizes.get(value) : undefined;
  // JSON.stringify({ key: value }) is `{"key":` + the value's JSON + `}`.
  return size === undefined ? undefined : utf8Bytes(`{${JSON.stringify(keys[0])}:`) + size + 1;
};
const fresh = () => new FakeExcel(undefined, latencyMs, knownBytes);
let excel = fresh();
const runs = new Map<number, Run>();
const port = parentPort!;

function replay(run: Run, op: Operation): void {
  const target = run.objects.get(op.parent);
  if (!target) throw new Error(`operation on an unknown object ${op.parent}`);
  if (op.op === "get") run.objects.set(op.id, target[op.name] as Target);
  else if (op.op === "set") {
    const value: unknown = JSON.parse(op.json);
    if (value !== null && typeof value === "object") sizes.set(value, utf8Bytes(op.json));
    target[op.name] = value;
  }
  else run.objects.set(op.id, (target[op.name] as (...args: unknown[]) => Target).apply(target, op.args));
}

/** What each load asked for, read from the FakeExcel's objects after the sync (a null object's isNullObject too). */
function loadedBy(run: Run, ops: Operation[]): [number, Record<string, unknown>][] {
  const out = new Map<number, Record<string, unknown>>();
  for (const op of ops) {
    if (op.op !== "call" || op.name !== "load") continue;
    const target = run.objects.get(op.parent)!;
    const asked = op.args[0];
    const names = asked === undefined ? Object.keys((target.toJSON as () => object).call(target)) : (typeof asked === "string" ? asked.split(",") : (asked as string[])).map((n) => n.trim());
    const values = out.get(op.parent) ?? {};
    for (const name of names) values[name] = target[name];
    out.set(op.parent, values);
  }
  for (const [id, target] of run.objects) {
    try {
      const isNull = target.isNullObject;
      out.set(id, { ...out.get(id), isNullObject: isNull });
    } catch {
      // not a *OrNullObject object, or not synced: nothing to answer
    }
  }
  return [...out];
}

const errorOf = (error: unknown): WorkerError => {
  const e = error as { name?: string; code?: string; message?: string };
  return { name: e.name ?? "Error", code: e.code ?? "GeneralException", message: e.message ?? String(error) };
};

port.on("message", (message: ToWorker & { request?: number }) => {
  const reply = (answer: FromWorker) => port.postMessage(answer);
  switch (message.type) {
    case "begin": {
      const fake = excel;
      void fake.run(message.options, (context) => new Promise<void>((end) => {
        runs.set(message.run, { context, objects: new Map([[0, context as unknown as Target]]), end });
      }));
      return;
    }
    case "end":
      runs.get(message.run)?.end();
      runs.delete(message.run);
      return;
    case "reset":
      excel = fresh();
      reply({ request: message.request, ok: true, loaded: [] });
      return;
    case "dump":
      reply({ request: message.request, ok: true, dump: dumpOf(excel.model) });
      return;
    case "stats": {
      let cells = 0;
      for (const sheet of excel.model.sheets) for (const line of sheet.cells.values()) cells += line.size;
      collectGarbage();
      const heapBytes = getHeapStatistics().used_heap_size;
      reply({ request: message.request, ok: true, stats: { ...excel.stats, largestRequestBytes: excel.largestRequestBytes, cells, heapBytes } });
      return;
    }
    case "sync": {
      const run = runs.get(message.run);
      if (!run) {
        reply({ request: message.request, ok: false, error: { name: "Error", code: "InvalidOperation", message: "sync outside an Excel.run" } });
        return;
      }
      void (async () => {
        try {
          for (const op of message.ops) replay(run, op);
          await run.context.sync();
          reply({ request: message.request, ok: true, loaded: loadedBy(run, message.ops) });
        } catch (error) {
          reply({ request: message.request, ok: false, error: errorOf(error) });
        }
      })();
      return;
    }
  }
});
