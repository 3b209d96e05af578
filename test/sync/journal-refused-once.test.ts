/**
 * Excel refusing the journal once (its first read, when Sync states looks for where the lines go) costs only
 * the rows whose "sending" lines were in that batch: they are not sent, and say why; the next batch asks
 * Excel again, and its rows are sent with their lines in the journal.
 */
import type { Workbook } from "../../src/sheets";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("20 rows one at a time: the first batch of 16 lines is refused, the last 4 rows go with the next batch", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 20);
  records.forEach((e, i) => edit(f, table, e.id, { State: "accounted", "Accounted ID": `ACC-${i}` }));
  const preview = await previewSync(f.workbook, table);
  let refused = 0;
  const busyOnce: Workbook = Object.assign(Object.create(f.workbook), {
    readColumns: (name: string, ...rest: unknown[]) => {
      if (name === JOURNAL_TABLE && refused++ === 0) return Promise.reject(new Error("Excel is busy"));
      return (f.workbook.readColumns as (...a: unknown[]) => Promise<unknown>)(name, ...rest);
    },
  });
  const report = await runSync(f.client, busyOnce, preview, { concurrency: 1, now: () => new Date("2026-11-21T10:00:00Z") });
  const order = preview.rows.map((r) => r.id);
  expect(report.results.map((r) => [order.indexOf(r.id), r.outcome]).sort((a, b) => Number(a[0]) - Number(b[0])))
    .toEqual(order.map((_, i) => [i, i < 16 ? "not-sent" : "applied"]));
  expect(report.summary).toBe("4 applied, 16 not sent.");
  expect(cellOf(f, table, order[0], "Sync status")).toBe("Not sent 2026-11-21 10:00 UTC: The journal could not be written, so nothing more was sent: Excel is busy");
  for (const id of order) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(order.indexOf(id) < 16 ? 0 : 1);
  const j = tableView(f.excel, JOURNAL_TABLE);
  const sent = j.rows.filter((r) => r[j.column("Outcome")] === "sending").map((r) => r[j.column("Record ID")]);
  expect(sent).toEqual(order.slice(16));
});
