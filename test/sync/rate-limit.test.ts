/** A 429 on a PATCH: wait as the service asks through the client's clock, never longer than the client's limit, then read again. */
import { previewSync, runSync } from "../../src/sync";
import { Recorder } from "./recorder";
import { clientWith, edit, loadFor } from "../support/sync";
import { withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

async function syncOneWith429(retryAfterSeconds: number) {
  f = await withExcel();
  const waits: number[] = [];
  const recorder = new Recorder();
  let refusedOnce = false;
  const client = clientWith(f, (inner) => recorder.wrap(async (request) => {
    if (request.method === "PATCH" && !refusedOnce) {
      refusedOnce = true;
      return { status: 429, headers: new Headers({ "retry-after": String(retryAfterSeconds) }), text: JSON.stringify({ status: 429, error: "Slow down." }) };
    }
    return inner(request);
  }), { sleep: async (ms: number) => void waits.push(ms) });
  const table = await loadFor(f, { resource: "expenses", state: "approved" }, client);
  const id = f.sandbox.store.expensesOf(f.sub).find((e) => e.state === "approved")!.id;
  edit(f, table, id, { State: "accounted", "Accounted ID": "ACC-429" });
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
  return { report, waits, recorder, id };
}

it("waits the Retry-After the service gives (through the client's sleep), reads, then sends again", async () => {
  const { report, waits, recorder, id } = await syncOneWith429(2);
  expect(waits).toEqual([2000]);
  // After the load's list: the read, the refused PATCH, a read again, the PATCH, and the confirmation after the run.
  expect(recorder.log.slice(1).map((e) => `${e.method} ${e.status}`)).toEqual(["GET 200", "PATCH 429", "GET 200", "PATCH 200", "GET 200"]);
  expect(report.counts.applied).toBe(1);
  expect(f.sandbox.store.expense(f.sub, id)).toMatchObject({ state: "accounted", accounted_id: "ACC-429" });
});

it("does not wait an hour when asked to: the row is not sent and says to run Sync states again later", async () => {
  const { report, waits, id } = await syncOneWith429(3600);
  expect(waits).toEqual([]);
  expect(report.counts["not-sent"]).toBe(1);
  expect(report.results.find((r) => r.id === id)!.message).toBe("The service asks to wait 3600 s before more changes: not sent. Run Sync states again later.");
  expect(f.sandbox.store.expense(f.sub, id)!.state).toBe("approved");
});
