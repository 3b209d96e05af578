/**
 * Outcomes go into the sheet in batches, by the run's clock: a batch starts once `batchEveryMs` (default one
 * second) passed since the last one, so a run decided within that time writes every status in one go at its
 * end, and a shorter interval writes them as the run goes. Counted as writes to the table, never timed.
 */
import type { Workbook } from "../../src/sheets";
import { previewSync, runSync, type SyncOptions } from "../../src/sync";
import { withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const START = Date.parse("2026-11-21T10:00:00Z");

it.each<[string, Pick<SyncOptions, "batchEveryMs">, number, "one" | "several"]>([
  ["the default second, on a clock that stands still: one write, at the end", {}, 0, "one"],
  ["0 ms, on a clock that stands still: a batch after every decided row", { batchEveryMs: 0 }, 0, "several"],
  ["5 ms, on a clock 5 ms further at every reading: a batch after every decided row", { batchEveryMs: 5 }, 5, "several"],
  ["10 s, on a clock 5 ms further at every reading: one write, at the end", { batchEveryMs: 10_000 }, 5, "one"],
])("batches every %s", async (_what, options, step, writes) => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 6);
  records.forEach((e, i) => edit(f, table, e.id, { State: "accounted", "Accounted ID": `ACC-${i}` }));
  const preview = await previewSync(f.workbook, table);
  let statusWrites = 0;
  const counting: Workbook = Object.assign(Object.create(f.workbook), {
    writeCells: (name: string, ...rest: unknown[]) => {
      if (name === table) statusWrites++;
      return (f.workbook.writeCells as (...a: unknown[]) => Promise<void>)(name, ...rest);
    },
  });
  let clock = START;
  const report = await runSync(f.client, counting, preview, { ...options, concurrency: 1, now: () => new Date((clock += step)) });
  expect(report.counts.applied).toBe(6);
  for (const e of records) expect(cellOf(f, table, e.id, "Sync status")).toMatch(/^Applied /);
  if (writes === "one") expect(statusWrites).toBe(1);
  else expect(statusWrites).toBeGreaterThanOrEqual(3);
});
