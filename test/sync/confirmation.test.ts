/**
 * After a run every record it changed is read again. What that read finds, or why it could not be done, is
 * what the user reads on the row, in the journal and in the summary: a record deleted right after our PATCH,
 * a read refused, a read the user cancelled.
 */
import type { RawRequest } from "../../src/api";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";
import { Recorder } from "./recorder";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const NOW = () => new Date("2026-11-21T10:00:00Z");
const idOf = (r: RawRequest) => /\/expenses\/([0-9a-f-]{36})\//.exec(r.url)?.[1] ?? "";
const answer = (status: number, error: string) =>
  ({ status, headers: new Headers({ "content-type": "application/json" }), text: JSON.stringify({ status, error }) });
const journal = (id: string) => {
  const j = tableView(f.excel, JOURNAL_TABLE);
  return j.rows.filter((r) => r[j.column("Record ID")] === id)
    .map((r) => [r[j.column("Request")], r[j.column("HTTP status")], r[j.column("Outcome")], r[j.column("Fields sent")], r[j.column("Message")]]);
};

/**
 * One approved expense edited to accounted; `afterPatch` answers every request for it that leaves after its
 * PATCH (the confirmation's read), or lets it through when it returns null.
 */
async function syncOne(afterPatch: (request: RawRequest) => ReturnType<typeof answer> | null, signal?: AbortSignal) {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-9" });
  const recorder = new Recorder();
  let patched = false;
  const client = clientWith(f, (inner) => recorder.wrap(async (request) => {
    if (patched && idOf(request) === e.id) {
      const scripted = afterPatch(request);
      if (scripted) return scripted;
    }
    const response = await inner(request);
    if (request.method === "PATCH") patched = true;
    return response;
  }));
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { now: NOW, signal });
  return { table, e, report, requests: recorder.log.map((x) => `${x.method} ${x.status}`) };
}

it("a record deleted right after our PATCH: the row and the journal say it is gone, not that it was changed", async () => {
  const { table, e, report, requests } = await syncOne(() => answer(404, "Expense not found"));
  expect(requests).toEqual(["GET 200", "PATCH 200", "GET 404"]);
  expect(report.counts).toMatchObject({ applied: 0, overwritten: 1 });
  expect(report.summary).toBe("1 changed by someone else after this sync.");
  expect(cellOf(f, table, e.id, "Sync status")).toBe(
    "Changed by someone else 2026-11-21 10:00 UTC: Applied approved → accounted, then the record disappeared from the server " +
      "(deleted or moved to another subsidiary).",
  );
  expect(journal(e.id)).toEqual([
    ["PATCH", "", "sending", expect.stringContaining("accounted"), expect.any(String)],
    ["PATCH", 200, "applied", expect.stringContaining("accounted"), expect.any(String)],
    // A read: nothing sent on its line.
    ["read (GET)", "", "overwritten", "",
      "Read again after the run: the record is gone from the server (deleted or moved to another subsidiary) since this sync " +
      "applied approved → accounted. Nothing more was sent."],
  ]);
});

it("a read again that fails: the rows stay applied and the summary says they could not be confirmed, and why", async () => {
  const { table, e, report, requests } = await syncOne(() => answer(400, "Unsupported filter"));
  expect(requests).toEqual(["GET 200", "PATCH 200", "GET 400"]);
  expect(report.counts).toMatchObject({ applied: 1, overwritten: 0 });
  expect(report.summary).toBe(
    `1 applied. The records this sync changed could not be read again to confirm them: The service refused the request for ` +
      `expense ${e.id.slice(0, 8)} of subsidiary ${f.sub.slice(0, 8)}: Unsupported filter. ` +
      "Run Sync states again or refresh to check them.",
  );
  expect(cellOf(f, table, e.id, "Sync status")).toMatch(/^Applied /);
  expect(journal(e.id).map((line) => line[2])).toEqual(["sending", "applied"]);
});

it("a read again refused for the key: the summary gives the key's refusal as it is, not as a failed confirmation", async () => {
  const { report, requests } = await syncOne(() => answer(401, "Invalid API key"));
  expect(requests).toEqual(["GET 200", "PATCH 200", "GET 401"]);
  expect(report.counts).toMatchObject({ applied: 1 });
  expect(report.summary).toBe(
    `1 applied. The API key was refused for enterprise ${f.enterprise.id}. Check the key and the enterprise id in the connection ` +
      'settings. The service said: "Invalid API key". Run Sync states again or refresh to check them.',
  );
});

it("Cancel pressed while the run's records are read again stops that read: the summary says it was cancelled", async () => {
  const controller = new AbortController();
  const { report, requests } = await syncOne(() => {
    controller.abort();
    return null;
  }, controller.signal);
  // The PATCH was answered before Cancel; the read again is the request Cancel stopped.
  expect(requests.slice(0, 2)).toEqual(["GET 200", "PATCH 200"]);
  expect(report.counts).toMatchObject({ applied: 1, overwritten: 0 });
  expect(report.summary).toBe("1 applied. Cancelled before the rows applied were read again to confirm them. Run Sync states again or refresh to check them.");
});
