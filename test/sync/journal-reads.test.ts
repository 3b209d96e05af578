/**
 * The journal says what was read and that nothing was sent (issue 24: a conflict line showed "HTTP status 200"
 * beside the fields the row would have sent, though no PATCH left). Every line names the request it records
 * (Request: PATCH, read (GET) or none); a read's line carries no fields and its status is the read's; the
 * write-ahead "sending" line is still in the workbook before its PATCH leaves. Rows asserted in full, against
 * the real sandbox, with what actually went over the wire.
 */
import { updateExpense, type RawRequest } from "../../src/api";
import { timestampToSerial } from "../../src/sheets";
import { JOURNAL_HEADER, JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { clientWith, edit, loadFor } from "../support/sync";
import { Recorder } from "./recorder";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const AT = "2026-11-21T10:00:00Z";
const SENDING = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";

/** One approved expense edited to accounted ACC-1, synced with a recorded (and possibly broken) transport. */
async function syncOne(before: (id: string) => Promise<void>, breakPatch?: (request: RawRequest, send: () => Promise<unknown>) => Promise<void>) {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-1" });
  const preview = await previewSync(f.workbook, table);
  await before(e.id);
  const sendingLines = (id: string) => {
    if (!f.excel.model.table(JOURNAL_TABLE)) return 0;
    const j = tableView(f.excel, JOURNAL_TABLE);
    return j.rows.filter((r) => r[j.column("Record ID")] === id && r[j.column("Outcome")] === "sending").length;
  };
  const recorder = new Recorder(() => 0, sendingLines);
  const client = clientWith(f, (inner) => recorder.wrap(async (request) => {
    if (request.method === "PATCH" && breakPatch) await breakPatch(request, () => inner(request));
    return inner(request);
  }), { retry: { retries: 0 } });
  const report = await runSync(client, f.workbook, preview, { now: () => new Date(AT), by: "Ana", runId: "run-1" });
  const j = tableView(f.excel, JOURNAL_TABLE);
  expect(j.header).toEqual(JOURNAL_HEADER);
  const rows = j.rows.filter((r) => r[j.column("Record ID")] === e.id);
  // The write-ahead rule holds: each PATCH left with its "sending" line in the workbook, right after a read.
  expect([recorder.patchesAheadOfJournal(), recorder.patchesWithoutFreshRead()]).toEqual([[], []]);
  return { table, id: e.id, report, rows, recorder };
}

/**
 * A journal row as a person reads it: Time, Run, By, Table, Resource, Record ID, From, To, Request, Fields sent, HTTP status, Outcome, Message,
 * and the exact request (method, path, and a PATCH's JSON body: the only place JSON is written).
 */
const row = (table: string, id: string, request: string, sent: string, status: number | "", outcome: string, message: string) => {
  const path = `/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${f.sub}/expenses/${id}/`;
  const exact = request === "PATCH" ? `PATCH ${path} {"state":"accounted","accounted_id":"ACC-1"}` : request === "read (GET)" ? `GET ${path}` : "";
  return [timestampToSerial(AT), "run-1", "Ana", table, "expense", id, "approved", "accounted", request, sent, status, outcome, message, exact];
};
const BODY = "State accounted, Accounted ID ACC-1";

it("a conflict found by the read before the PATCH: a read line with the read's 200, no fields, and 'Nothing was sent'", async () => {
  const { table, id, report, rows, recorder } = await syncOne((id) => updateExpense(f.client, f.sub, id, { state: "paid", paid_id: "PAY-COLLEAGUE" }).then(() => undefined));
  expect(report.counts).toMatchObject({ conflict: 1, applied: 0 });
  // Over the wire: one read, no PATCH.
  expect(recorder.log.map((x) => `${x.method} ${x.status}`)).toEqual(["GET 200"]);
  expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1); // the colleague's
  expect(rows).toEqual([
    row(table, id, "PATCH", BODY, "", "sending", SENDING),
    row(table, id, "read (GET)", "", 200, "conflict",
      "Read the record before sending: someone else changed it on the server since it was loaded. State is now paid (you loaded approved), " +
      "Paid ID is now PAY-COLLEAGUE (you loaded empty). Nothing was sent. The edit was State accounted, Accounted ID ACC-1: refresh the table (the edit is kept) and edit again if still needed."),
  ]);
});

it("a record that already holds what the row asks: a read line, 'Nothing was sent'", async () => {
  const { table, id, report, rows, recorder } = await syncOne((id) => updateExpense(f.client, f.sub, id, { state: "accounted", accounted_id: "ACC-1" }).then(() => undefined));
  expect(report.counts).toMatchObject({ "already-applied": 1, applied: 0 });
  expect(recorder.log.map((x) => `${x.method} ${x.status}`)).toEqual(["GET 200"]);
  expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
  expect(rows).toEqual([
    row(table, id, "PATCH", BODY, "", "sending", SENDING),
    row(table, id, "read (GET)", "", 200, "already-applied", "Read the record before sending: it already holds accounted, Accounted ID ACC-1, exactly what this row asks. Nothing was sent."),
  ]);
});

describe("a lost answer, settled by a read", () => {
  it("the PATCH had landed: the PATCH's lines, then the read's, which says it was applied and is not sent again (attempt 2 never leaves)", async () => {
    const { table, id, report, rows, recorder } = await syncOne(async () => undefined, async (_request, send) => {
      await send(); // it reaches the service and is applied…
      throw new TypeError("fetch failed"); // …and its answer is lost
    });
    expect(report.counts).toMatchObject({ applied: 1, unconfirmed: 0 });
    expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
    // Read, PATCH (no answer), read; then the run's confirmation reads it once more. One PATCH in all.
    expect(recorder.log.filter((x) => x.ids.includes(id)).map((x) => `${x.method} ${x.status ?? "no answer"}`))
      .toEqual(["GET 200", "PATCH no answer", "GET 200", "GET 200"]);
    expect(rows).toEqual([
      row(table, id, "PATCH", BODY, "", "sending", SENDING),
      row(table, id, "PATCH", BODY, "", "unknown",
        `Could not reach the service at ${f.sandbox.baseUrl} while updating expense ${id.slice(0, 8)} of subsidiary ${f.sub.slice(0, 8)}: fetch failed. Reading the record before anything else.`),
      // Written ahead of the read, as every attempt's line is; the read then finds the first one applied.
      row(table, id, "PATCH", BODY, "", "sending", `Attempt 2. ${SENDING}`),
      row(table, id, "read (GET)", "", 200, "applied",
        "Read the record after the lost answer: it holds accounted, Accounted ID ACC-1, what was sent, so the PATCH was applied. Not sent again."),
    ]);
  });

  it("the PATCH had not landed: the read says so, and the second attempt has its own sending line before it leaves", async () => {
    let dropped = 0;
    const { table, id, report, rows, recorder } = await syncOne(async () => undefined, async () => {
      if (dropped++ === 0) throw new TypeError("fetch failed"); // lost on the way: never reaches the service
    });
    expect(report.counts).toMatchObject({ applied: 1 });
    expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
    expect(recorder.log.filter((x) => x.ids.includes(id)).map((x) => `${x.method} ${x.status ?? "no answer"}`))
      .toEqual(["GET 200", "PATCH no answer", "GET 200", "PATCH 200", "GET 200"]);
    expect(rows).toEqual([
      row(table, id, "PATCH", BODY, "", "sending", SENDING),
      row(table, id, "PATCH", BODY, "", "unknown",
        `Could not reach the service at ${f.sandbox.baseUrl} while updating expense ${id.slice(0, 8)} of subsidiary ${f.sub.slice(0, 8)}: fetch failed. Reading the record before anything else.`),
      row(table, id, "PATCH", BODY, "", "sending", `Attempt 2. ${SENDING}`),
      row(table, id, "PATCH", BODY, 200, "applied", ""),
    ]);
  });
});

it("no line that records a read carries fields or calls itself a PATCH, whatever the outcome", async () => {
  // A run with every kind of line: applied, conflict, already applied, invalid.
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b, c, d] = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved");
  edit(f, table, a.id, { State: "accounted" });
  edit(f, table, b.id, { State: "paid", "Paid ID": "P-B" });
  edit(f, table, c.id, { State: "accounted", "Accounted ID": "A-C" });
  edit(f, table, d.id, { State: "pending" });
  const preview = await previewSync(f.workbook, table);
  await updateExpense(f.client, f.sub, b.id, { state: "accounted" });
  await updateExpense(f.client, f.sub, c.id, { state: "accounted", accounted_id: "A-C" });
  const report = await runSync(f.client, f.workbook, preview);
  expect(report.counts).toMatchObject({ applied: 1, conflict: 1, "already-applied": 1, invalid: 1 });
  const j = tableView(f.excel, JOURNAL_TABLE);
  const lines = j.rows.map((r) => ({ request: r[j.column("Request")], sent: r[j.column("Fields sent")], status: r[j.column("HTTP status")], outcome: r[j.column("Outcome")], message: String(r[j.column("Message")]) }));
  expect(lines.map((l) => `${l.outcome}:${l.request}`).sort()).toEqual(
    ["already-applied:read (GET)", "applied:PATCH", "conflict:read (GET)", "invalid:none", "sending:PATCH", "sending:PATCH", "sending:PATCH"],
  );
  for (const l of lines) {
    if (l.request === "PATCH") expect(l.sent).not.toBe("");
    else expect([l.sent, l.message.startsWith("Read the record") || l.request === "none"]).toEqual(["", true]);
    if (l.request === "read (GET)") expect(l.message).toMatch(/Nothing was sent\.|Not sent again\./);
  }
});
