/**
 * A colleague changes the same record around our PATCH: just before it (the service answers 400 "already
 * in state"), or just after it (a lost update). Each ends as the user must see it, with the server's values.
 */
import { updateExpense, type RawRequest } from "../../src/api";
import { previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";
import { Recorder } from "./recorder";
import { JOURNAL_TABLE } from "../../src/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

const approved = () => f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
const idOf = (r: RawRequest) => /\/expenses\/([0-9a-f-]{36})\//.exec(r.url)?.[1] ?? "";
const journalLines = (id: string) => {
  const j = tableView(f.excel, JOURNAL_TABLE);
  return j.rows.filter((r) => r[j.column("Record ID")] === id).map((r) => [r[j.column("HTTP status")], r[j.column("Outcome")]]);
};

it("a colleague's paid with another paid_id is a conflict showing it, never 'already applied'", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b] = approved();
  edit(f, table, a.id, { State: "paid", "Paid ID": "PAY-MINE" });
  edit(f, table, b.id, { State: "paid" });
  await updateExpense(f.client, f.sub, a.id, { state: "paid", paid_id: "PAY-COLLEAGUE" });
  await updateExpense(f.client, f.sub, b.id, { state: "paid", paid_id: "PAY-COLLEAGUE-2" });
  const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
  expect(report.counts).toMatchObject({ conflict: 2, "already-applied": 0, applied: 0 });
  expect(cellOf(f, table, a.id, "Sync status")).toMatch(/^Conflict, not sent .*: Changed on the server by someone else since you loaded: State is now paid \(you loaded approved\), Paid ID is now PAY-COLLEAGUE \(you loaded empty\)\. /);
  expect(cellOf(f, table, b.id, "Sync status")).toMatch(/^Conflict, not sent .*: Changed on the server by someone else since you loaded: State is now paid \(you loaded approved\), Paid ID is now PAY-COLLEAGUE-2 \(you loaded empty\)\. /);
  expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(1);
});

describe("the service answers 400 'already in state' because a colleague got there between our read and our PATCH", () => {
  async function race(colleague: { state: "accounted" | "paid"; accounted_id?: string; paid_id?: string }, mine: Record<string, string>) {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [e] = approved();
    edit(f, table, e.id, mine);
    const recorder = new Recorder();
    const client = clientWith(f, (inner) => recorder.wrap(inner, async (r) => {
      if (r.method === "PATCH" && idOf(r) === e.id) await updateExpense(f.client, f.sub, e.id, colleague);
    }));
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    return { table, e, report, recorder };
  }

  it("same values as sent: already applied, not rejected", async () => {
    const { table, e, report, recorder } = await race({ state: "accounted", accounted_id: "ACC-1" }, { State: "accounted", "Accounted ID": "ACC-1" });
    expect(report.counts).toMatchObject({ "already-applied": 1, rejected: 0, conflict: 0 });
    expect(cellOf(f, table, e.id, "Sync status")).toMatch(/^Already applied .*The service said "Expense is already in accounted state", and the record holds exactly what this row asks\.$/);
    // Read, PATCH, read after the refusal; nothing applied by this run, so nothing to confirm.
    expect(recorder.log.map((x) => `${x.method} ${x.status}`)).toEqual(["GET 200", "PATCH 400", "GET 200"]);
    expect(journalLines(e.id)).toEqual([["", "sending"], [400, "refused"], [200, "already-applied"]]);
  });

  it("different values: a conflict that shows what the server holds", async () => {
    const { table, e, report } = await race({ state: "paid", paid_id: "PAY-B-7" }, { State: "accounted", "Accounted ID": "ACC-A-7" });
    expect(report.counts).toMatchObject({ conflict: 1, rejected: 0, "already-applied": 0 });
    expect(cellOf(f, table, e.id, "Sync status")).toMatch(/^Conflict, not sent .*: Changed on the server by someone else since you loaded: State is now paid \(you loaded approved\), Paid ID is now PAY-B-7 \(you loaded empty\)\. Your edit \(State accounted, Accounted ID ACC-A-7\) was not sent\. /);
    expect(cellOf(f, table, e.id, "State")).toBe("accounted"); // the user's edit stays until they refresh or discard it
  });
});

it("a colleague changes the record right after our PATCH: the lost update is on the row and in the journal", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [e, other] = approved();
  edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-A-7" });
  edit(f, table, other.id, { State: "accounted", "Accounted ID": "ACC-A-8" });
  const client = clientWith(f, (inner) => async (r) => {
    const response = await inner(r);
    if (r.method === "PATCH" && idOf(r) === e.id) await updateExpense(f.client, f.sub, e.id, { state: "paid", accounted_id: "ACC-B-7", paid_id: "PAY-B-7" });
    return response;
  });
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { now: () => new Date("2026-11-21T10:00:00Z") });
  expect(report.counts).toMatchObject({ overwritten: 1, applied: 1 });
  expect(report.summary).toBe("1 applied, 1 changed by someone else after this sync.");
  expect(cellOf(f, table, e.id, "Sync status")).toBe(
    "Changed by someone else 2026-11-21 10:00 UTC: Applied approved → accounted, then changed by someone else after this sync: " +
      "now paid, Accounted ID ACC-B-7, Paid ID PAY-B-7. The row shows the server's values.",
  );
  expect([cellOf(f, table, e.id, "State"), cellOf(f, table, e.id, "Accounted ID"), cellOf(f, table, e.id, "Paid ID")]).toEqual(["paid", "ACC-B-7", "PAY-B-7"]);
  expect(journalLines(e.id)).toEqual([["", "sending"], [200, "applied"], [200, "overwritten"]]);
  const j = tableView(f.excel, JOURNAL_TABLE);
  const read = j.rows.filter((r) => r[j.column("Record ID")] === e.id)[2];
  expect([read[j.column("Request")], read[j.column("Fields sent")], read[j.column("Message")]]).toEqual(["read (GET)", "",
    "Read again after the run: it is now paid, Accounted ID ACC-B-7, Paid ID PAY-B-7, not what this sync left (accounted, " +
      "Accounted ID ACC-A-7): changed by someone else. Nothing more was sent."]);
  expect(cellOf(f, table, other.id, "Sync status")).toMatch(/^Applied /);
  // The sheet agrees with the server: nothing left to sync.
  expect((await previewSync(f.workbook, table)).counts.change).toBe(0);
});

it("a 403 that arrives only on a PATCH stops the sync: no request leaves after it", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const ids = approved().slice(0, 20).map((e) => e.id);
  for (const id of ids) edit(f, table, id, { State: "accounted" });
  const recorder = new Recorder();
  const client = clientWith(f, (inner) => recorder.wrap(async (r) => {
    if (r.method !== "PATCH") return inner(r);
    return { status: 403, headers: new Headers(), text: JSON.stringify({ status: 403, error: "Forbidden: this key may not change states." }) };
  }));
  const report = await runSync(client, f.workbook, await previewSync(f.workbook, table), { concurrency: 3 });
  expect(report.stopped).toBe("auth");
  const patches = recorder.log.filter((x) => x.method === "PATCH");
  const firstAnswer = Math.min(...patches.map((p) => p.endSeq));
  expect(recorder.log.filter((x) => x.startSeq > firstAnswer)).toEqual([]);
  expect(report.counts["not-sent"]).toBe(20);
  for (const id of ids) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(0);
  // The first PATCH's 403 stopped the rest before their PATCH left (they were read, in flight, or not started).
  expect(patches).toHaveLength(1);
  expect(report.results.map((r) => r.message)).toEqual(ids.map(() => expect.stringMatching(/^The API key was refused/)));
  expect(cellOf(f, table, ids[0], "Sync status")).toMatch(/^Not sent .*The API key was refused/);
});
