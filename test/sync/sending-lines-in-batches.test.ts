/**
 * The journal's "sending" lines go into the workbook ahead of the senders, a batch at a time, so that a
 * sender rarely waits for Excel: a batch of the next max(16, 8 × concurrency) rows, and the next batch once
 * the senders are half-way through the lines written. Counted as the journal stands when each PATCH leaves.
 */
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

/** 40 approved expenses edited to accounted, synced: the journal's "sending" lines as each PATCH left, in order. */
async function sendingLinesAtEachPatch(concurrency?: number): Promise<number[]> {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 40);
  records.forEach((e, i) => edit(f, table, e.id, { State: "accounted", "Accounted ID": `ACC-${i}` }));
  const seen: number[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    if (request.method === "PATCH") {
      const j = tableView(f.excel, JOURNAL_TABLE);
      seen.push(j.values("Outcome").filter((o) => o === "sending").length);
    }
    return inner(request);
  });
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { concurrency });
  expect(report.counts.applied).toBe(40);
  return seen;
}

it("one at a time: 16 lines, then 16 more when the 9th record goes, then the last 8 when the 25th goes", async () => {
  expect(await sendingLinesAtEachPatch(1)).toEqual([...Array(8).fill(16), ...Array(16).fill(32), ...Array(16).fill(40)]);
});

it("six at a time (the default): all 40 lines (fewer than 48) before the first PATCH", async () => {
  expect(await sendingLinesAtEachPatch()).toEqual(Array(40).fill(40));
});
