/**
 * Issue 47's benchmark of an import: a bank statement of 100,000 lines (payments of the table's expenses, its
 * difficulties, and payments to suppliers) into a table of 51,000 expenses, in the in-memory Excel in a worker
 * thread at 20 ms per round trip (remote-excel.ts), through the real adapter and Office.js. Timed, interleaved
 * (medians), each on the same workbook restored:
 * - the import: the file read from its bytes in 64 KB chunks, the table's records read, matched, the fills written;
 * - write alone: the same filled cells written through the adapter (the table read and the lines matched untimed),
 *   as the import writes them: one request-sized batch of ranges, a range per run of adjacent rows of a column.
 * The import must take at most 1.5 x write alone. It must complete with its heap capped at HEAP_BOUND above its
 * start (capped-import.ts: in a worker thread V8 limits); its peak heap is also sampled here (as V8 holds it,
 * and live). A run takes minutes: the first import here is the warm-up of both ways.
 * BENCH_ROUNDS sets the timed rounds (3); a line on stderr marks each step, with the seconds since the start and
 * the Excel worker's requests, so that a slow step shows while it runs.
 */
import { SpendClient, listExpenses } from "../src/api";
import { decideDateOrder, decideDecimalMark, guessColumns, matchLines, readImportFile, sniffShape, type FileMapping } from "../src/domain/import";
import { DEFAULT_WINDOW, SETTING_PREFIX, fillCells, importLines, readImportTable, sourceOf, tableNameOf, type LoadParams } from "../src/sheets";
import { currencyDecimals } from "../src/sheets/import/table";
import { ExcelWorkbook } from "../src/sheets/excel";
import { generateDemoData } from "../src/sandbox/demo-data";
import { generateBankFile } from "../src/sandbox/import-files";
import { importUnderCap, chunksOf } from "./capped-import";
import { MB, collectGarbage, interleaved, table, withPeakHeap, withPeakLiveHeap, withThreadCpu } from "./measure";
import { RemoteExcel } from "./remote-excel";
import { startSandboxProcess } from "./sandbox-process";
import { render, writeAll } from "./sheets-load";

const ROUND_TRIP_MS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LINES = 100_000;
const ANCHOR = "2026-11-01";
/**
 * The bound on the import's peak heap: 256 MB above where it started, garbage included. A taskpane shares its
 * webview's memory with Excel on the web (or a 32-bit Office's 2 GB address space); the import must not hold
 * the file whole, nor its records' every field, nor a request per filled cell.
 */
const HEAP_BOUND = 256 * 1024 * 1024;
/** The live heap's samples: a full collection each, spaced so that a run of minutes is not doubled. */
const LIVE_SAMPLE_MS = 500;

/** The bank file for the table's subsidiary, padded with suppliers' payments to LINES lines; the data dropped after. */
function bankFile(sub: string): { bytes: Uint8Array; mapping: FileMapping; delimiter: string; header: string[]; truthFills: number } {
  const data = generateDemoData({ seed: 1, scale: 170, anchor: ANCHOR });
  const first = generateBankFile(data, { seed: 1, resource: "expense", subsidiaryId: sub, window: DEFAULT_WINDOW, share: 1 });
  const file = generateBankFile(data, { seed: 1, resource: "expense", subsidiaryId: sub, window: DEFAULT_WINDOW, share: 1, noise: LINES - first.rows.length });
  const sample = new TextDecoder("windows-1252").decode(file.bytes.subarray(0, 64 * 1024));
  const shape = sniffShape(sample.slice(0, sample.lastIndexOf("\n")));
  const columns = guessColumns(shape.header);
  const at = (h?: string) => shape.header.indexOf(h ?? "");
  const mapping: FileMapping = {
    kind: "bank", columns, decimal: decideDecimalMark(shape.rows.map((r) => r.fields[at(columns.amount)])).mark ?? "comma",
    // The sample's first dates (early May) read both ways: the taskpane asks, and the person answers day first.
    dateOrder: decideDateOrder(shape.rows.map((r) => r.fields[at(columns.date)])).order ?? "dmy",
  };
  return { bytes: file.bytes, mapping, delimiter: shape.delimiter, header: shape.header, truthFills: file.truth.filter((t) => t.expect === "fill").length };
}

/**
 * A step's line on stderr: seconds since the bench started, and what Excel was asked since the last line; and
 * the workbook restored (the worker's count of requests starts again).
 */
function stepper(excel: RemoteExcel): { step: (name: string) => Promise<void>; restore: () => Promise<void> } {
  const started = performance.now();
  let lastRequests = 0;
  const restore = async () => {
    await excel.restore();
    lastRequests = 0;
  };
  const step = async (name: string) => {
    const { requests } = await excel.stats();
    const fresh = requests.slice(lastRequests);
    lastRequests = requests.length;
    const bytes = fresh.reduce((sum, r) => sum + r.bytes, 0);
    const actions = fresh.reduce((sum, r) => sum + r.actions, 0);
    console.error(`  [import bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${name} (Excel: ${fresh.length} requests, ${actions.toLocaleString("en-US")} actions, ${MB(bytes)} sent)`);
  };
  return { step, restore };
}

/**
 * Where an import's time goes, in one more untimed run: each part's wall time, the add-in's CPU in it (its
 * thread's), and Excel's busy time in it (the worker's answers, the round trips included).
 */
async function parts(excel: RemoteExcel, restore: () => Promise<void>, readFile: () => ReturnType<typeof readImportFile>, workbook: ExcelWorkbook, tableName: string): Promise<void> {
  await restore();
  const rows: string[][] = [["part", "wall", "add-in CPU", "Excel busy"]];
  const part = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    excel.takeExcelMs();
    const started = performance.now();
    const { value, cpuMs } = await withThreadCpu(fn);
    rows.push([name, `${Math.round(performance.now() - started)} ms`, `${cpuMs} ms`, `${Math.round(excel.takeExcelMs())} ms`]);
    return value;
  };
  const read = await part("read the file", readFile);
  const tableRead = await part("read the table", () => readImportTable(workbook, tableName));
  const report = await part("match", async () => matchLines(tableRead.records, read, { kind: "bank", records: tableRead.resource, fileName: "bank file", window: DEFAULT_WINDOW, decimals: currencyDecimals }));
  const cells = await part("the cells to write", async () => fillCells(tableRead, report.fills));
  await part("write them", () => workbook.writeCells(tableName, cells));
  console.log(table(rows).replace(/^/gm, "  "));
}

export async function benchImport(): Promise<void> {
  const sandbox = await startSandboxProcess(["--scale", "170", "--seed", "1", "--anchor", ANCHOR]);
  const excel = new RemoteExcel(ROUND_TRIP_MS);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: enterprise.api_key });
    const sub = enterprise.subsidiaries[0];
    const params: LoadParams = { resource: "expenses", enterpriseId: enterprise.id, subsidiaryId: sub, expand: ["user"] };
    const tableName = tableNameOf(params);
    const workbook = new ExcelWorkbook(excel);
    const { step, restore } = stepper(excel);
    await step("sandbox started");
    await writeAll(workbook, params, render(params, await listExpenses(client, sub, { expand: ["user"] }).all()));
    // The table's setting as a load keeps it (writeAll keeps the parameters only): what the import reads the columns from.
    const columns = sourceOf(params).columns.map((c) => c.header);
    await workbook.writeSetting(SETTING_PREFIX + tableName, JSON.stringify({ params, columns, loadedAt: "2026-11-01T00:00:00.000Z" }));
    await excel.save();
    await step("table loaded and saved");
    const file = bankFile(sub);
    await step("bank file generated");
    const importOnce = async () => {
      const read = await readImportFile(chunksOf(file.bytes), file.delimiter, file.mapping, file.header);
      return importLines(workbook, tableName, read, { kind: "bank", fileName: "bank file" });
    };
    const capped = await importUnderCap(excel, { bytes: file.bytes, delimiter: file.delimiter, mapping: file.mapping, header: file.header, tableName }, HEAP_BOUND);
    await step("import with its heap capped (worker)");
    await restore();
    // The first import here: its report (what write alone writes), the warm-up of both ways (write alone is the
    // import's own writer), and its peak heap as V8 holds it, sampled every 5 ms (garbage not yet collected included;
    // V8's laziness as much as the import's needs: the bound is the cap's).
    // From the live heap (the setup's garbage, the bank file's generation, collected first): else a collection
    // during the import takes the sample below its start, and the peak reads 0.
    collectGarbage();
    const heap = await withPeakHeap(importOnce);
    await step("first import (warm-up, peak heap)");
    const { report, filledRows } = heap.value;
    await restore();
    const restored = await readImportTable(workbook, tableName);
    const rows = restored.records.length;
    const filled = fillCells(restored, report.fills).length;
    console.log(`\nimport: a ${MB(file.bytes.length)} bank file of ${LINES.toLocaleString("en-US")} lines into ${rows.toLocaleString("en-US")} rows, Excel at ${ROUND_TRIP_MS} ms per round trip`);
    console.log(`  ${filledRows.toLocaleString("en-US")} rows filled from ${report.counts.filled.toLocaleString("en-US")} lines (the truth: ${file.truthFills.toLocaleString("en-US")} lines to fill): ${filled.toLocaleString("en-US")} filled cells; ${JSON.stringify(report.counts)}`);

    let ran = "restore, table read";
    await parts(excel, restore, async () => readImportFile(chunksOf(file.bytes), file.delimiter, file.mapping, file.header), workbook, tableName);
    await step("the import's parts");
    const timed = await interleaved(ROUNDS, {
      // Each way's line comes before the next restore (which starts a fresh count of requests), outside the clock.
      import: async (clock) => {
        await step(`${ran} done`);
        ran = "import";
        await restore();
        clock.start();
        return importOnce();
      },
      "write alone": async (clock) => {
        await step(`${ran} done`);
        ran = "write alone";
        await restore();
        const cells = fillCells(await readImportTable(workbook, tableName), report.fills);
        clock.start();
        await workbook.writeCells(tableName, cells);
      },
    }, { warmUp: false });
    await step(`${ran} done`);
    await restore();
    const live = await withPeakLiveHeap(importOnce, LIVE_SAMPLE_MS);
    await step("import (live heap)");
    const ratio = timed.import.ms / timed["write alone"].ms;
    console.log(table([
      ["way", "median", "runs (ms)"],
      ["import (read + match + write)", `${Math.round(timed.import.ms)} ms`, timed.import.all.join(" ")],
      ["write alone (the same cells)", `${Math.round(timed["write alone"].ms)} ms`, timed["write alone"].all.join(" ")],
    ]));
    console.log(`  import / write alone: ${ratio.toFixed(2)}x (at most 1.5x: ${ratio <= 1.5 ? "met" : "NOT met"})`);
    const room = capped.limitBytes - capped.startBytes;
    const met = "filledRows" in capped.outcome && capped.outcome.filledRows === filledRows && room <= HEAP_BOUND;
    const cap = `a heap cap of ${MB(capped.limitBytes)} (its start ${MB(capped.startBytes)} + ${MB(room)}; the bound: ${MB(HEAP_BOUND)} above its start)`;
    console.log("filledRows" in capped.outcome
      ? `  the import (in a worker) completed under ${cap}, ${capped.outcome.filledRows.toLocaleString("en-US")} rows filled: ${met ? "met" : "NOT met"}`
      : `  the import (in a worker) did not complete under ${cap}: ${capped.outcome.error}: NOT met`);
    console.log(`  peak heap of the import above its start: ${MB(heap.peakBytes)} as V8 holds it (sampled every 5 ms, no bound: V8 collects when it likes), ` +
      `${MB(live.peakBytes)} live (collected before each sample, every ${LIVE_SAMPLE_MS} ms), for a ${MB(file.bytes.length)} file (live / file: ${(live.peakBytes / file.bytes.length).toFixed(2)})`);
  } finally {
    await excel.close();
    await sandbox.stop();
  }
}
