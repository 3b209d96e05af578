/**
 * When the workbook cannot be written during a run (here its snapshot of loaded values), Sync states sends
 * nothing more: every row it did not reach says, on its status, that the rest was not sent and why, and the
 * run ends with the workbook's failure instead of a summary; the records it applied are not read again.
 */
import type { Workbook } from "../../src/sheets";
import { snapshotTableOf } from "../../src/sheets/edits/snapshot";
import { previewSync, runSync } from "../../src/sync";
import { withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("the snapshot cannot be written after the first record: no more PATCH, the rows left say why, and the run fails with it", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 6);
  records.forEach((e, i) => edit(f, table, e.id, { State: "accounted", "Accounted ID": `ACC-${i}` }));
  const preview = await previewSync(f.workbook, table);
  const requests: string[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    if (request.url.includes(records[0].id)) requests.push(request.method);
    return inner(request);
  });
  const broken: Workbook = Object.assign(Object.create(f.workbook), {
    writeCells: (name: string, ...rest: unknown[]) => (name === snapshotTableOf(table)
      ? Promise.reject(new Error("the sheet of loaded values is protected"))
      : (f.workbook.writeCells as (...a: unknown[]) => Promise<void>)(name, ...rest)),
  });
  await expect(runSync(client, broken, preview, { concurrency: 1, batchEveryMs: 0, now: () => new Date("2026-11-21T10:00:00Z") }))
    .rejects.toThrow("the sheet of loaded values is protected");
  // The first record was applied; its snapshot write failed before the last one was reached.
  expect(f.sandbox.store.expense(f.sub, records[0].id)).toMatchObject({ state: "accounted", accounted_id: "ACC-0" });
  const last = records[5];
  expect(f.sandbox.store.transitionsOf(last.id)).toHaveLength(0);
  expect(cellOf(f, table, last.id, "Sync status")).toBe(
    "Not sent 2026-11-21 10:00 UTC: The workbook could not be written, so the rest was not sent: the sheet of loaded values is protected.",
  );
  expect(records.filter((e) => f.sandbox.store.transitionsOf(e.id).length > 0).length).toBeLessThan(3);
  // Its outcome could not be written: the applied record is not read again after the run.
  expect(requests).toEqual(["GET", "PATCH"]);
});

it("the table deleted during the run: the run fails saying so", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, a.id, { State: "accounted" });
  edit(f, table, b.id, { State: "accounted" });
  const preview = await previewSync(f.workbook, table);
  // The run's outcomes find their rows by reading the ID column alone: by then the table is gone.
  const deleting: Workbook = Object.assign(Object.create(f.workbook), {
    readColumns: (name: string, columns: string[], ...rest: unknown[]) => (name === table && columns.length === 1
      ? Promise.resolve(null)
      : (f.workbook.readColumns as (...a: unknown[]) => Promise<unknown>)(name, columns, ...rest)),
  });
  await expect(runSync(f.client, deleting, preview)).rejects.toThrow(`The table ${table} is gone from the workbook; outcomes could not be written.`);
});
