/**
 * What Sync states tells the user when it ends: one sentence counting every outcome, in a fixed order and in
 * the words the taskpane shows, and every row's status saying the same; the progress counts only the rows it
 * will send; and a run it refuses before sending anything says why in full.
 */
import { updateExpense, type RawRequest } from "../../src/api";
import { EDITABLE_FILL } from "../../src/sheets";
import { EDITED_FILL } from "../../src/sheets";
import { JOURNAL_TABLE, PlanChangedError, SyncSetupError, previewInSheet, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, fillOf, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const NOW = () => new Date("2026-11-21T10:00:00Z");
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ status, headers: new Headers({ "content-type": "application/json", ...headers }), text: JSON.stringify(body) });
const idOf = (r: RawRequest) => /\/expenses\/([0-9a-f-]{36})\//.exec(r.url)?.[1] ?? "";

it("a run with every outcome: the summary counts each, in order, and each row's status says what happened to it", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [applied, already, overwritten, rejected, invalid, check, conflict, unconfirmed, notSent] =
    f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, applied.id, { State: "accounted", "Accounted ID": "ACC-1" });
  edit(f, table, already.id, { State: "accounted", "Accounted ID": "ACC-2" });
  edit(f, table, overwritten.id, { State: "accounted", "Accounted ID": "ACC-3" });
  edit(f, table, rejected.id, { State: "accounted", "Accounted ID": "ACC-4" });
  edit(f, table, invalid.id, { State: "payed" });
  // Typed as text (Accounted ID is General, issue 47: without the apostrophe Excel makes it a date).
  edit(f, table, check.id, { State: "accounted", "Accounted ID": "'2026-11-24" });
  edit(f, table, conflict.id, { State: "accounted", "Accounted ID": "ACC-7" });
  edit(f, table, unconfirmed.id, { State: "accounted", "Accounted ID": "ACC-8" });
  edit(f, table, notSent.id, { State: "accounted", "Accounted ID": "ACC-9" });
  const preview = await previewInSheet(f.workbook, table); // the edited cells highlighted
  // Colleagues at work before the run: the same change as one row, another change on another.
  await updateExpense(f.client, f.sub, already.id, { state: "accounted", accounted_id: "ACC-2" });
  await updateExpense(f.client, f.sub, conflict.id, { state: "accounted", accounted_id: "ACC-OTHER" });

  let lost = false;
  const client = clientWith(f, (inner) => async (request) => {
    const id = idOf(request);
    if (request.method === "PATCH" && id === rejected.id) return json(400, { status: 400, error: "The accounting period is closed." });
    if (request.method === "PATCH" && id === notSent.id) return json(429, { status: 429, error: "Slow down." }, { "retry-after": "3600" });
    if (lost && id === unconfirmed.id) throw new TypeError("fetch failed");
    const response = await inner(request);
    if (request.method === "PATCH" && id === unconfirmed.id) {
      lost = true; // applied, but the answer and every read after it are lost
      throw new TypeError("fetch failed");
    }
    // A colleague right after our PATCH.
    if (request.method === "PATCH" && id === overwritten.id) await updateExpense(f.client, f.sub, id, { state: "paid", paid_id: "PAY-COLLEAGUE" });
    return response;
  }, { retry: { retries: 0 } });
  const progress: [number, number][] = [];
  const report = await runSync(client, f.workbook, preview, { now: NOW, concurrency: 1, onProgress: (done, total) => progress.push([done, total]) });

  expect(report.summary).toBe(
    "1 applied, 1 already applied, 1 changed by someone else after this sync, 1 rejected by the service, 1 invalid (not sent), " +
      "1 to check (not sent: fix or confirm them), 1 in conflict (not sent), 1 unconfirmed (run Sync states again), 1 not sent.",
  );
  expect(report.stopped).toBeNull();
  expect(report.counts).toEqual({
    applied: 1, "already-applied": 1, overwritten: 1, rejected: 1, invalid: 1, check: 1, conflict: 1, unconfirmed: 1, "not-sent": 1,
  });
  // Seven rows to send (the invalid one and the one to check are not): counted as each is decided.
  expect(progress).toEqual([[0, 7], [1, 7], [2, 7], [3, 7], [4, 7], [5, 7], [6, 7], [7, 7]]);

  const status = (id: string) => cellOf(f, table, id, "Sync status");
  const at = "2026-11-21 10:00 UTC";
  expect(status(applied.id)).toBe(`Applied ${at}: approved → accounted`);
  expect(status(already.id)).toBe(`Already applied ${at}: the server already had accounted with these values; nothing sent.`);
  expect(status(overwritten.id)).toBe(
    `Changed by someone else ${at}: Applied approved → accounted, then changed by someone else after this sync: now paid, Accounted ID ACC-3, ` +
      "Paid ID PAY-COLLEAGUE. The row shows the server's values.",
  );
  expect(status(rejected.id)).toBe(`Rejected by the service ${at}: The accounting period is closed.`);
  expect(status(invalid.id)).toBe(`Not sent, fix the row ${at}: "payed" is not a state of an expense; choose accounted or paid.`);
  expect(status(check.id)).toBe(
    `Not sent, check the row ${at}: Accounted ID "2026-11-24" looks like a date: did you mean it for Paid at? ` +
      "Not confirmed, so not sent: fix the cell, or preview again and confirm it as it is.",
  );
  expect(status(conflict.id)).toBe(
    `Conflict, not sent ${at}: Changed on the server by someone else since you loaded: State is now accounted (you loaded approved), Accounted ID is now ACC-OTHER ` +
      "(you loaded empty). Your edit (State accounted, Accounted ID ACC-7) was not sent. Refresh to see their change (your edit is kept), then edit again if still needed.",
  );
  expect(status(unconfirmed.id)).toBe(
    `Unconfirmed ${at}: Sent, but the service could not be reached to confirm it (Could not reach the service at ${f.sandbox.baseUrl} ` +
      `while reading expense ${unconfirmed.id.slice(0, 8)} of subsidiary ${f.sub.slice(0, 8)}: fetch failed). ` +
      "Run Sync states again: it reads the record before sending.",
  );
  expect(status(notSent.id)).toBe(`Not sent ${at}: The service asks to wait 3600 s before more changes: not sent. Run Sync states again later.`);
  // Each status in its colour: green done, yellow to look at, red refused.
  const [green, yellow, red] = ["#C6EFCE", "#FFEB9C", "#FFC7CE"];
  const fill = (id: string) => fillOf(f, table, id, "Sync status");
  expect([applied, already, overwritten, rejected, invalid, check, conflict, unconfirmed, notSent].map((e) => fill(e.id)))
    .toEqual([green, green, yellow, red, red, yellow, yellow, yellow, yellow]);
  // The rows whose record now holds what the server says show the server's values (the edit's highlight gone);
  // the others keep the user's edit, highlighted, and the next Preview lists them again.
  const cells = (id: string) => [cellOf(f, table, id, "State"), cellOf(f, table, id, "Accounted ID"), cellOf(f, table, id, "Paid ID"), fillOf(f, table, id, "State")];
  expect(cells(applied.id)).toEqual(["accounted", "ACC-1", "", EDITABLE_FILL]);
  expect(cells(already.id)).toEqual(["accounted", "ACC-2", "", EDITABLE_FILL]);
  expect(cells(overwritten.id)).toEqual(["paid", "ACC-3", "PAY-COLLEAGUE", EDITABLE_FILL]);
  expect(cells(conflict.id)).toEqual(["accounted", "ACC-7", "", EDITED_FILL]);
  expect(cells(rejected.id)).toEqual(["accounted", "ACC-4", "", EDITED_FILL]);
  const again = await previewSync(f.workbook, table);
  // A conflict's row still asks for its change, against the values as loaded (Refresh would show the server's).
  const kinds = new Map(again.rows.map((r) => [r.id, r.kind]));
  expect([rejected, invalid, check, conflict, unconfirmed, notSent].map((e) => kinds.get(e.id))).toEqual(["change", "invalid", "check", "change", "change", "change"]);
  expect(again.rows).toHaveLength(6);
  // No run id or name given: every journal line carries the run's own short id, and no name.
  expect(report.runId).toMatch(/^[0-9a-z]{1,8}$/);
  const journal = tableView(f.excel, JOURNAL_TABLE);
  expect(new Set(journal.values("Run"))).toEqual(new Set([report.runId]));
  expect(new Set(journal.values("By"))).toEqual(new Set([""]));
  // The server holds what was applied; nothing was sent for the rows not sent.
  for (const e of [invalid, check, rejected, notSent]) expect(f.sandbox.store.expense(f.sub, e.id)!.state).toBe("approved");
});

it("a table with no edited row: nothing sent, and the summary says there was nothing to sync", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const progress: [number, number][] = [];
  const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table), { onProgress: (done, total) => progress.push([done, total]) });
  expect(report.summary).toBe("Nothing to sync: no edited rows.");
  expect(report.requests).toBe(0);
  expect(progress).toEqual([[0, 0]]);
  // Nothing happened, so nothing goes into a journal: none is created.
  expect(f.excel.model.table(JOURNAL_TABLE)).toBeFalsy();
});

it("the rows to check, confirmed: sent, and counted in the progress", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, a.id, { State: "accounted", "Accounted ID": "ACC-1" });
  edit(f, table, b.id, { State: "accounted", "Accounted ID": "'1,250.00" });
  const progress: [number, number][] = [];
  const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table), {
    sendChecked: true, concurrency: 1, onProgress: (done, total) => progress.push([done, total]),
  });
  expect(report.summary).toBe("2 applied.");
  expect(progress).toEqual([[0, 2], [1, 2], [2, 2]]);
  expect(f.sandbox.store.expense(f.sub, b.id)).toMatchObject({ state: "accounted", accounted_id: "1,250.00" });
  // Confirmed, it is a row like the others: its PATCH's lines, and no line saying it was not sent.
  const j = tableView(f.excel, JOURNAL_TABLE);
  expect(j.rows.filter((r) => r[j.column("Record ID")] === b.id).map((r) => r[j.column("Outcome")])).toEqual(["sending", "applied"]);
});

it("a table of another enterprise than the one connected: refused before anything is read or sent, and says which", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  edit(f, table, e.id, { State: "accounted" });
  const preview = await previewSync(f.workbook, table);
  const requests: string[] = [];
  const other = clientWith(f, (inner) => async (request) => {
    requests.push(request.url);
    return inner(request);
  }, { enterpriseId: f.other.id, apiKey: f.other.api_key });
  const run = runSync(other, f.workbook, preview);
  await expect(run).rejects.toBeInstanceOf(SyncSetupError);
  await expect(run).rejects.toThrow(
    `This table belongs to enterprise ${f.enterprise.id}; you are connected to ${f.other.id}. Connect to that enterprise to sync it.`,
  );
  expect(requests).toEqual([]);
  expect(f.sandbox.store.transitionsOf(e.id)).toHaveLength(0);
});

it("the sheet edited after the preview: refused, and the user is told to preview again", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, a.id, { State: "accounted" });
  const preview = await previewSync(f.workbook, table);
  edit(f, table, b.id, { State: "accounted" });
  const run = runSync(f.client, f.workbook, preview);
  await expect(run).rejects.toBeInstanceOf(PlanChangedError);
  await expect(run).rejects.toThrow("The sheet changed since the preview, so nothing was sent. Preview again, then confirm.");
});
