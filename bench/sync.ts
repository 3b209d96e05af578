/**
 * Issue 5's benchmark: sync 2,000 edited rows against the sandbox started with --latency 30, once with the
 * engine and once as a sequential read-then-PATCH loop (each on a fresh sandbox, so both make the same
 * 2,000 transitions); rows/s, the ratio and requests per row.
 */
import { SpendClient, getExpense, listExpenses, updateExpense, type Expense, type StatePatch } from "../src/api";
import { ExcelWorkbook, loadTable, type ExcelHost } from "../src/sheets";
import { previewSync, runSync } from "../src/sync";
import { FakeExcel } from "../src/workbench/fake-excel";
import { tableView } from "../test/support/excel";
import { rate, table } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const ROWS = 2000;
const SANDBOX = ["--latency", "30", "--scale", "20", "--seed", "1"];

/** The edits: approved -> accounted or paid, accounted -> paid, each with its external id. */
function editsOf(expenses: Expense[]): { id: string; patch: StatePatch }[] {
  return expenses
    .filter((e) => e.state === "approved" || e.state === "accounted")
    .slice(0, ROWS)
    .map((e, i) => ({
      id: e.id,
      patch: e.state === "accounted" || i % 2 === 1 ? { state: "paid", paid_id: `PAY-${e.expense_number}` } : { state: "accounted", accounted_id: `ACC-${e.expense_number}` },
    }));
}

async function withClient<T>(fn: (client: SpendClient, sub: string) => Promise<T>): Promise<T> {
  const sandbox = await startSandboxProcess(SANDBOX);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: enterprise.api_key });
    return await fn(client, enterprise.subsidiaries[0]);
  } finally {
    await sandbox.stop();
  }
}

export async function benchSync(): Promise<void> {
  const engine = await withClient(async (client, sub) => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel as unknown as ExcelHost);
    const { tableName } = await loadTable(client, workbook, { resource: "expenses", enterpriseId: client.enterpriseId, subsidiaryId: sub });
    const t = tableView(excel, tableName);
    const ids = t.values("Expense ID") as string[];
    const states = t.values("State") as string[];
    const edits = editsOf(ids.map((id, i) => ({ id, state: states[i], expense_number: t.values("Expense #")[i] }) as Expense));
    for (const { id, patch } of edits) {
      const row = ids.indexOf(id);
      excel.user.paste(t.sheet.name, t.address("State", row), patch.state);
      if (patch.paid_id) excel.user.paste(t.sheet.name, t.address("Paid ID", row), patch.paid_id);
      if (patch.accounted_id) excel.user.paste(t.sheet.name, t.address("Accounted ID", row), patch.accounted_id);
    }
    const preview = await previewSync(workbook, tableName);
    if (preview.counts.change !== edits.length) throw new Error(`expected ${edits.length} changes, planned ${preview.counts.change}`);
    const started = performance.now();
    const report = await runSync(client, workbook, preview);
    const ms = performance.now() - started;
    if (report.counts.applied !== edits.length) throw new Error(`engine applied ${report.counts.applied} of ${edits.length}: ${report.summary}`);
    return { ms, requests: report.requests, rows: edits.length, syncs: excel.stats.syncs };
  });

  const loop = await withClient(async (client, sub) => {
    const all: Expense[] = [];
    for await (const page of listExpenses(client, sub).pages()) all.push(...page.results);
    const edits = editsOf(all);
    const before = client.stats.requests;
    const started = performance.now();
    for (const { id, patch } of edits) {
      const current = await getExpense(client, sub, id);
      if (current.state === patch.state) continue;
      await updateExpense(client, sub, id, patch);
    }
    return { ms: performance.now() - started, requests: client.stats.requests - before, rows: edits.length };
  });

  console.log(`\n## Sync states: ${engine.rows.toLocaleString("en-US")} edited expenses, sandbox --latency 30 (one run each, fresh sandbox)\n`);
  console.log(
    table([
      ["way", "time", "rate", "requests", "requests/row", "engine is"],
      ["engine (reads by list, 6 PATCHes at once)", `${Math.round(engine.ms)} ms`, rate(engine.rows, engine.ms), engine.requests, (engine.requests / engine.rows).toFixed(3), "1.00x"],
      ["sequential GET then PATCH per row", `${Math.round(loop.ms)} ms`, rate(loop.rows, loop.ms), loop.requests, (loop.requests / loop.rows).toFixed(3), `${(loop.ms / engine.ms).toFixed(2)}x faster`],
    ]),
  );
  const ratio = loop.ms / engine.ms;
  const perRow = engine.requests / engine.rows;
  console.log(`\ntarget: engine >= 4x the loop -> ${ratio >= 4 ? "met" : "NOT met"} (${ratio.toFixed(2)}x); requests/row <= 1.2 -> ${perRow <= 1.2 ? "met" : "NOT met"} (${perRow.toFixed(3)})`);
}
