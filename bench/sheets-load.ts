/**
 * Issue 4's benchmark: load 50,000+ expenses from the sandbox into the in-memory Excel through the real
 * adapter; print syncs, the largest request and rows/s, against baselines written in the same run.
 */
import { SpendClient } from "../src/api";
import { ExcelWorkbook, loadTable, type CellValue } from "../src/sheets";
import { typedCell } from "../src/sheets/excel-cells";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../src/workbench/fake-excel";
import { median, rate, table } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
/** A modest round trip to Excel (desktop is faster, Excel on the web much slower). */
const ROUND_TRIP_MS = 20;

export async function benchSheetsLoad(): Promise<void> {
  const sandbox = await startSandboxProcess(["--scale", "170", "--seed", "1"]);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: enterprise.api_key });
    const params = { resource: "expenses" as const, enterpriseId: enterprise.id, subsidiaryId: enterprise.subsidiaries[0] };

    let last: { excel: FakeExcel; count: number; rows: CellValue[][] } | undefined;
    const full = await median(3, async () => {
      const excel = new FakeExcel(undefined, ROUND_TRIP_MS);
      const workbook = new ExcelWorkbook(excel);
      const report = await loadTable(client, workbook, params);
      const stats = { syncs: excel.stats.syncs, largest: excel.largestRequestBytes };
      const read = await new ExcelWorkbook(new FakeExcel(excel.model)).readTable(report.tableName);
      last = { excel, count: report.count, rows: read!.rows };
      return stats;
    });
    const { count, rows } = last!;
    const loadStats = full.value;

    // Writing alone, the adapter's way (fresh workbook each run).
    const header = rows[0].map((_, i) => `C${i}`);
    const formats = header.map(() => "General");
    const write = await median(3, async () => {
      const fresh = new FakeExcel(undefined, ROUND_TRIP_MS);
      await new ExcelWorkbook(fresh).writeTable({
        sheetName: "Bench", tableName: "Bench", header, rows, numberFormats: formats, editable: header.map(() => false), dropdowns: header.map(() => null),
      });
      return fresh;
    });

    // Baseline 1: everything in one request, as a naive add-in would.
    const naive = new FakeExcel();
    const naiveError = await naive.run(async (ctx) => {
      const range = ctx.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(1, 0, rows.length, header.length);
      range.numberFormat = rows.map(() => formats);
      range.valuesAsJson = rows.map((row) => row.map(typedCell));
      await ctx.sync();
    }).then(() => "accepted", (e: { code?: string }) => e.code ?? "failed");
    // Baseline 2: one request per 100 rows (a common fixed chunk).
    const fixed = await median(3, async () => {
      const fresh = new FakeExcel(undefined, ROUND_TRIP_MS);
      await fresh.run(async (ctx) => {
        const sheet = ctx.workbook.worksheets.getItem("Sheet1");
        for (let start = 0; start < rows.length; start += 100) {
          const part = rows.slice(start, start + 100);
          const range = sheet.getRangeByIndexes(1 + start, 0, part.length, header.length);
          range.numberFormat = part.map(() => formats);
          range.valuesAsJson = part.map((row) => row.map(typedCell));
          await ctx.sync();
        }
      });
      return fresh;
    });

    console.log(`\n## Sheets: ${count.toLocaleString("en-US")} expenses into the in-memory Excel, ${ROUND_TRIP_MS} ms per sync (median of 3 runs)\n`);
    console.log(
      table([
        ["way", "time", "rate", "syncs", "largest request", "vs adapter write"],
        ["load (fetch + merge + write + snapshot)", `${Math.round(full.ms)} ms`, rate(count, full.ms), loadStats.syncs, MB(loadStats.largest), "-"],
        ["adapter write alone (byte-budget chunks)", `${Math.round(write.ms)} ms`, rate(count, write.ms), write.value.stats.syncs, MB(write.value.largestRequestBytes), "1.00x"],
        ["baseline: fixed 100-row chunks", `${Math.round(fixed.ms)} ms`, rate(count, fixed.ms), fixed.value.stats.syncs, MB(fixed.value.largestRequestBytes), `${(fixed.ms / write.ms).toFixed(2)}x slower`],
        ["baseline: one request", "-", "-", 1, MB(naive.stats.requestBytes[0] ?? 0), naiveError],
      ]),
    );
    console.log(`\nlimit ${MB(PAYLOAD_LIMIT_BYTES)}: largest adapter request ${MB(Math.max(loadStats.largest, write.value.largestRequestBytes))} -> ${Math.max(loadStats.largest, write.value.largestRequestBytes) < PAYLOAD_LIMIT_BYTES ? "within" : "OVER"}`);
  } finally {
    await sandbox.stop();
  }
}
