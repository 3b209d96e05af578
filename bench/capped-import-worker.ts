/**
 * The add-in's side of capped-import.ts, in a worker thread with a capped heap: Office.js in this realm, an
 * Excel whose requests go to the parent thread (and on to the Excel worker), and the import, as the taskpane runs it.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { readImportFile } from "../src/domain/import";
import { importLines } from "../src/sheets";
import { ExcelWorkbook } from "../src/sheets/excel";
import { FakeExcel } from "../src/workbench/fake-excel";
import { loadOfficeJs } from "../src/workbench/office-js/node-loader";
import { chunksOf, type CappedInput, type FromCapped } from "./capped-import";
import { collectGarbage } from "./measure";

const input = workerData as CappedInput;
const port = parentPort!;
const send = (message: FromCapped) => port.postMessage(message);
const answers = new Map<number, (answer: string) => void>();
let nextQuery = 1;
port.on("message", (message: { query: number; answer: string }) => {
  answers.get(message.query)?.(message.answer);
  answers.delete(message.query);
});

async function main(): Promise<void> {
  loadOfficeJs();
  // The local workbook is unused: every request goes to the parent's Excel.
  const excel = new FakeExcel(undefined, {
    endpoint: () => ({
      processQuery: (body, flags) => new Promise<string>((resolve) => {
        const query = nextQuery++;
        answers.set(query, resolve);
        send({ query, body, flags });
      }),
    }),
  });
  const workbook = new ExcelWorkbook(excel);
  collectGarbage();
  const stats = getHeapStatistics();
  send({ ready: { startBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit } });
  if (input.probe) return;
  const read = await readImportFile(chunksOf(input.bytes), input.delimiter, input.mapping, input.header);
  const { report, filledRows } = await importLines(workbook, input.tableName, read, { kind: "bank", fileName: "bank file" });
  send({ done: { filledRows, counts: report.counts } });
}

// An import's failure (a rejection left unhandled) ends the worker: the parent reports it as not met.
void main();
