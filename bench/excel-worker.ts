/**
 * The Excel side of remote-excel.ts: the in-memory Excel's protocol host in a worker thread. Each request
 * arrives as the JSON text Office.js sent; the host applies it to its workbook (its latency, limits and rules
 * apply) and its answer goes back as text.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { ExcelProtocolHost, WorkbookModel } from "../src/workbench/fake-excel";
import { collectGarbage } from "./measure";
import { dumpOf, type FromWorker, type ToWorker } from "./remote-excel";

const { latencyMs } = workerData as { latencyMs: number };
const fresh = () => new ExcelProtocolHost(new WorkbookModel(), { latencyMs });
let host = fresh();
/** A workbook kept aside (save), to start runs from (restore): each run gets its own copy. */
let saved: WorkbookModel | null = null;
const port = parentPort!;

port.on("message", (message: ToWorker) => {
  const reply = (answer: FromWorker) => port.postMessage(answer);
  switch (message.type) {
    case "query":
      void host.processQuery(message.body, message.flags).then((answer) => reply({ request: message.request, answer }));
      return;
    case "reset":
      host = fresh();
      reply({ request: message.request, done: true });
      return;
    case "save":
      saved = host.model.copy();
      reply({ request: message.request, done: true });
      return;
    case "restore":
      if (!saved) throw new Error("restore before save");
      host = new ExcelProtocolHost(saved.copy(), { latencyMs });
      reply({ request: message.request, done: true });
      return;
    case "dump":
      reply({ request: message.request, dump: dumpOf(host.model) });
      return;
    case "stats": {
      let cells = 0;
      for (const sheet of host.model.sheets) for (const line of sheet.cells.values()) cells += line.size;
      collectGarbage();
      const { stats } = host;
      reply({
        request: message.request,
        stats: {
          requests: stats.requests, syncs: stats.syncs, requestBytes: stats.requestBytes, responseBytes: stats.responseBytes,
          largestRequestBytes: Math.max(0, ...stats.requestBytes), cleanups: stats.cleanups, calculationSuspensions: stats.calculationSuspensions,
          cells, heapBytes: getHeapStatistics().used_heap_size,
        },
      });
      return;
    }
  }
});
