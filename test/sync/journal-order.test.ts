/**
 * The journal reads in time order: each record's "sending" line before its answer, answers in the order
 * they arrived (PATCHes answered out of order here, by a transport that delays each one differently), and
 * the Time column never going back. Who ran the sync is on every line.
 */
import { serialToTimestamp } from "../../src/sheets";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

it("sending before its answer, answers as they arrive, time never going back, with who", async () => {
  f = await withExcel();
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 24);
  records.forEach((r, i) => edit(f, table, r.id, { State: "paid", "Paid ID": `PAY-${i}` }));
  edit(f, table, f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved")[30].id, { State: "payed" });

  // PATCH answers come back out of order: the delays of successive PATCHes go 40, 5, 25, 10, 35, 0 ms…
  const arrived: string[] = [];
  let n = 0;
  const client = clientWith(f, (inner) => async (request) => {
    if (request.method !== "PATCH") return inner(request);
    const delay = [40, 5, 25, 10, 35, 0][n++ % 6];
    const response = await inner(request);
    await new Promise((r) => setTimeout(r, delay));
    arrived.push(request.url.split("/").filter(Boolean).pop()!);
    return response;
  });
  let tick = Date.parse("2026-11-21T10:00:00Z");
  const now = () => new Date((tick += 1000));

  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { now, by: "Ana Pérez", concurrency: 6, batchEveryMs: 0 });
  expect(report.counts).toMatchObject({ applied: 24, invalid: 1 });
  expect(arrived).toHaveLength(24);
  expect(arrived).not.toEqual(records.map((r) => r.id)); // the test does reorder the answers

  const journal = tableView(f.excel, JOURNAL_TABLE);
  const col = (name: string) => journal.column(name);
  const lines = journal.rows.map((r) => ({
    at: serialToTimestamp(r[col("Time (UTC)")] as number), id: String(r[col("Record ID")]), outcome: String(r[col("Outcome")]), by: r[col("By")],
  }));
  expect(lines.every((l) => l.by === "Ana Pérez")).toBe(true);
  for (let i = 1; i < lines.length; i++) expect(lines[i].at >= lines[i - 1].at).toBe(true);
  for (const r of records) {
    const own = lines.map((l, i) => ({ ...l, i })).filter((l) => l.id === r.id);
    expect(own.map((l) => l.outcome)).toEqual(["sending", "applied"]);
  }
  expect(lines.filter((l) => l.outcome === "applied").map((l) => l.id)).toEqual(arrived);
  expect(lines.filter((l) => l.outcome === "invalid")).toHaveLength(1);
});
