/**
 * Cancel pressed while the last record's PATCH is on its way: that record is applied (its answer came), the
 * run reports itself cancelled, and the read again after it, cancelled too, is said to be left undone.
 */
import { previewSync, runSync } from "../../src/sync";
import { withExcel, type ExcelFixture } from "../support/excel";
import { clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("one record, Cancel during its PATCH: applied, and the run says it was cancelled", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-1" });
  const controller = new AbortController();
  const requests: string[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    requests.push(request.method);
    const response = await inner(request);
    if (request.method === "PATCH") controller.abort();
    return response;
  });
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { signal: controller.signal });
  expect(report.counts).toMatchObject({ applied: 1, "not-sent": 0 });
  expect(report.stopped).toBe("cancelled");
  expect(report.summary).toBe("1 applied. Cancelled: the rest was not sent. Cancelled before the rows applied were read again to confirm them. Run Sync states again or refresh to check them.");
  expect(requests).toEqual(["GET", "PATCH"]);
  expect(f.sandbox.store.expense(f.sub, e.id)).toMatchObject({ state: "accounted", accounted_id: "ACC-1" });
});
