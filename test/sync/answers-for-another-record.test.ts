/**
 * Every answer Sync states acts on is checked against what was asked (issue 49): a proxy or cache in front of
 * the sandbox answers a record's GET with another record's. Nothing is decided from such an answer: no
 * "Already applied", no conflict, no PATCH; the row and the read's journal line say that the service answered
 * for another record, quoting its id, and what to do. A state-filtered list that shows a wanted record in
 * another state is not taken either; the record's own GET says what it holds.
 */
import { SpendClient } from "../../src/api";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, loadFor } from "../support/sync";
import { answeringProxy, type AnsweringProxy, type Rule } from "./answering-proxy";

let f: ExcelFixture;
let proxy: AnsweringProxy | undefined;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await f.sandbox.close();
});

const SENDING = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";
const AGAIN_AND_TELL = "Run Sync states again, and tell your Spend Sync contact if it happens again.";
const STAMP = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC`;

const recordPath = (id: string, sub = f.sub) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`;
const listPath = () => `${f.prefix}/subsidiaries/${f.sub}/expenses/`;

/** A client whose requests go through the proxy, with `rule` twisting them. */
async function through(rule: Rule): Promise<SpendClient> {
  proxy = await answeringProxy(f.sandbox.baseUrl, rule);
  return new SpendClient({
    baseUrl: proxy.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key, retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
}

/** The journal lines of one record: [outcome, HTTP status, message, request]. */
function journalOf(id: string): [string, unknown, string, string][] {
  const j = tableView(f.excel, JOURNAL_TABLE);
  return j.rows.filter((r) => r[j.column("Record ID")] === id)
    .map((r) => [String(r[j.column("Outcome")]), r[j.column("HTTP status")], String(r[j.column("Message")]), String(r[j.column("Request")])]);
}

/** Approved expenses of the first subsidiary, as the table loads them. */
const approved = () => f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");

async function patchOnServer(id: string, body: Record<string, string>, sub = f.sub) {
  const answer = await f.call("PATCH", recordPath(id, sub), { body });
  expect(answer.status).toBe(200);
}

/** GETs of `map`'s records are answered with another record's (its value's path), the `from`-th GET of each on. */
function getsAnsweredBy(map: Map<string, string>, from = 1): Rule {
  const seen = new Map<string, number>();
  return (method, path) => {
    if (method !== "GET") return undefined;
    const id = [...map.keys()].find((asked) => path === recordPath(asked));
    if (id === undefined) return undefined;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n >= from ? { to: map.get(id) } : undefined;
  };
}

describe("the read before a PATCH answered for another record", () => {
  it("10 rows whose GETs answer other records holding exactly what the rows ask: none is \"Already applied\", none is sent", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const all = approved();
    const [rows, others] = [all.slice(0, 10), all.slice(10, 20)];
    expect(others).toHaveLength(10);
    for (const [i, other] of others.entries()) await patchOnServer(other.id, { state: "accounted", accounted_id: `ACC-${i}` });
    rows.forEach((row, i) => edit(f, table, row.id, { State: "accounted", "Accounted ID": `ACC-${i}` }));
    const client = await through(getsAnsweredBy(new Map(rows.map((row, i) => [row.id, recordPath(others[i].id)]))));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ "not-sent": 10, "already-applied": 0, applied: 0, conflict: 0, unconfirmed: 0 });
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toEqual([]);
    for (const [i, row] of rows.entries()) {
      const about = `the service answered for another record ("${others[i].id}"), not this one`;
      expect(cellOf(f, table, row.id, "Sync status")).toMatch(new RegExp(`^Not sent ${STAMP}: `));
      expect(String(cellOf(f, table, row.id, "Sync status")).replace(new RegExp(`^Not sent ${STAMP}: `), "")).toBe(
        `When the record was read before sending, ${about}: nothing was decided from that answer, and nothing was sent. ${AGAIN_AND_TELL}`);
      expect(journalOf(row.id)).toEqual([
        ["sending", "", SENDING, "PATCH"],
        ["not-sent", 200, `Read the record before sending: ${about}. Nothing was decided from that answer. Nothing was sent. ${AGAIN_AND_TELL}`, "read (GET)"],
      ]);
      // The edit stays in the row, and the server never changed.
      expect(cellOf(f, table, row.id, "State")).toBe("accounted");
      expect(f.sandbox.store.transitionsOf(row.id)).toHaveLength(0);
    }
    // Through an honest service, the same rows are read and sent, once each.
    const again = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(again.counts).toMatchObject({ applied: 10, "already-applied": 0, "not-sent": 0 });
    rows.forEach((row, i) => expect(f.sandbox.store.expense(f.sub, row.id)).toMatchObject({ state: "accounted", accounted_id: `ACC-${i}` }));
  });

  it.each([
    ["looks changed by someone else (no false conflict)", { state: "accounted", accounted_id: "ACC-SOMEONE" }],
    ["looks as loaded (no PATCH sent on its strength)", null],
    ["comes from another subsidiary, holding what the row asks", { state: "accounted", accounted_id: "ACC-1" }],
  ])("an answer that %s: not sent, and says why", async (what, otherHolds) => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [row] = approved();
    const elsewhere = what.includes("subsidiary");
    const sub = elsewhere ? f.enterprise.subsidiaries[1] : f.sub;
    const other = f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved" && e.id !== row.id)[0];
    if (otherHolds) await patchOnServer(other.id, otherHolds, sub);
    edit(f, table, row.id, { State: "accounted", "Accounted ID": "ACC-1" });
    const client = await through(getsAnsweredBy(new Map([[row.id, recordPath(other.id, sub)]])));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ "not-sent": 1, conflict: 0, applied: 0, "already-applied": 0 });
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toEqual([]);
    expect(proxy!.passed.map((p) => p.forwarded)).toContain(recordPath(other.id, sub));
    const lines = journalOf(row.id);
    expect(lines.map(([outcome, status, , request]) => [outcome, status, request])).toEqual([["sending", "", "PATCH"], ["not-sent", 200, "read (GET)"]]);
    expect(lines[1][2]).toContain(`the service answered for another record ("${other.id}"), not this one`);
    expect(cellOf(f, table, row.id, "Sync status")).toContain(`the service answered for another record ("${other.id}")`);
    expect(cellOf(f, table, row.id, "Sync status")).not.toMatch(/Changed on the server|Already applied/);
    expect(f.sandbox.store.expense(f.sub, row.id)!.state).toBe("approved");
  });

  it("the id quoted is cut to 64 characters, and the key it carries is redacted", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [row] = approved();
    edit(f, table, row.id, { State: "accounted", "Accounted ID": "ACC-1" });
    const forged = `${f.enterprise.api_key}-${"x".repeat(100)}`;
    const client = await through((method, path) => (method === "GET" && path === recordPath(row.id) ? { rewrite: (json) => ({ ...json, id: forged }) } : undefined));

    await runSync(client, f.workbook, await previewSync(f.workbook, table));

    const status = String(cellOf(f, table, row.id, "Sync status"));
    const [, , message] = journalOf(row.id)[1];
    for (const text of [status, message]) {
      expect(text).toContain("the service answered for another record (\"[redacted]-xxx");
      expect(text).not.toContain(f.enterprise.api_key);
      expect(text).toContain(`"[redacted]-${"x".repeat(64 - f.enterprise.api_key.length - 1)}"`);
    }
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toEqual([]);
  });
});

describe("the resource is part of what was asked", () => {
  it("an allowance's GET answered with an expense under the allowance's own id: not read, not sent, nothing decided", async () => {
    const table = await loadFor(f, { resource: "allowances", state: "approved" });
    const row = f.sandbox.store.allowancesOf(f.sub).find((a) => a.state === "approved")!;
    const expense = approved()[0];
    await patchOnServer(expense.id, { state: "accounted", accounted_id: "ACC-R" });
    edit(f, table, row.id, { State: "accounted", "Accounted ID": "ACC-R" });
    const allowancePath = `${f.prefix}/subsidiaries/${f.sub}/allowances/${row.id}/`;
    // Its state and accounted_id are what the row asks, and it names the allowance's id: only its shape says it is an expense.
    const client = await through((method, path) => (method === "GET" && path === allowancePath
      ? { to: recordPath(expense.id), rewrite: (json) => ({ ...json, id: row.id }) }
      : undefined));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ "not-sent": 1, "already-applied": 0, applied: 0 });
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toEqual([]);
    expect(journalOf(row.id).map(([outcome, , , request]) => [outcome, request])).toEqual([["sending", "PATCH"], ["not-sent", "read (GET)"]]);
    expect(cellOf(f, table, row.id, "Sync status")).toMatch(new RegExp(`^Not sent ${STAMP}: Not sent: the record could not be read first \\(The service's answer for allowance does not match the API`));
    expect(f.sandbox.store.allowance(f.sub, row.id)!.state).toBe("approved");
  });
});

describe("the read that settles an unknown outcome answered for another record", () => {
  /** One row edited to accounted/ACC-7, and another record that holds exactly that on the server. */
  async function oneRowAndItsDouble() {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [row, other] = approved();
    await patchOnServer(other.id, { state: "accounted", accounted_id: "ACC-7" });
    edit(f, table, row.id, { State: "accounted", "Accounted ID": "ACC-7" });
    return { table, row, other };
  }

  it("after a PATCH answer for another record: unconfirmed, not \"applied\" on the other record's word", async () => {
    const { table, row, other } = await oneRowAndItsDouble();
    const gets = getsAnsweredBy(new Map([[row.id, recordPath(other.id)]]), 2);
    // The PATCH never reaches the service; a 200 comes back with the other record (holding what was sent), as if it were the answer.
    const otherDetail = (await f.call("GET", recordPath(other.id))).json;
    const client = await through((method, path, query) => (method === "PATCH" ? { answer: () => otherDetail } : gets(method, path, query)));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ unconfirmed: 1, applied: 0, overwritten: 0 });
    expect(proxy!.patchesForwarded()).toBe(0);
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toHaveLength(1);
    const contradiction = `the answer is for record "${other.id}", not this one`;
    const about = `the service answered for another record ("${other.id}"), not this one`;
    expect(journalOf(row.id)).toEqual([
      ["sending", "", SENDING, "PATCH"],
      ["unconfirmed", 200, `The service answered 200, but ${contradiction}: not taken as applied. Reading the record to settle it.`, "PATCH"],
      ["unconfirmed", 200, `Read the record to settle it: ${about} (the service had answered 200, but ${contradiction}). Nothing was decided from either answer. Not sent again. ${AGAIN_AND_TELL}`, "read (GET)"],
    ]);
    expect(String(cellOf(f, table, row.id, "Sync status")).replace(new RegExp(`^Unconfirmed ${STAMP}: `), "")).toBe(
      `Sent, and the service answered 200, but ${contradiction}; when the record was read to settle it, ${about}: nothing was decided from either answer. ${AGAIN_AND_TELL} It reads the record before sending.`);
    // The row is still an edit: an honest run reads it (as loaded) and sends it once.
    expect(f.sandbox.store.expense(f.sub, row.id)!.state).toBe("approved");
    const again = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(again.counts).toMatchObject({ applied: 1 });
    expect(f.sandbox.store.transitionsOf(row.id)).toHaveLength(1);
  });

  it("after a PATCH whose answer was lost: unconfirmed, not \"confirmed by reading\" the other record", async () => {
    const { table, row, other } = await oneRowAndItsDouble();
    const gets = getsAnsweredBy(new Map([[row.id, recordPath(other.id)]]), 2);
    // Lost on the way there: the connection closes before the service sees the PATCH.
    const client = await through((method, path, query) => (method === "PATCH" ? { answer: () => ({}), drop: true } : gets(method, path, query)));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ unconfirmed: 1, applied: 0, overwritten: 0, conflict: 0 });
    expect(proxy!.patchesForwarded()).toBe(0);
    expect(proxy!.passed.filter((p) => p.method === "PATCH")).toHaveLength(1);
    const about = `the service answered for another record ("${other.id}"), not this one`;
    const lines = journalOf(row.id);
    expect(lines.map(([outcome, , , request]) => [outcome, request])).toEqual([
      ["sending", "PATCH"], ["unknown", "PATCH"], ["sending", "PATCH"], ["unconfirmed", "read (GET)"],
    ]);
    expect(lines[3].slice(1, 3)).toEqual([200,
      `Read the record after the lost answer: ${about}. Nothing was decided from that answer. Not sent again. ${AGAIN_AND_TELL}`]);
    expect(String(cellOf(f, table, row.id, "Sync status")).replace(new RegExp(`^Unconfirmed ${STAMP}: `), "")).toBe(
      `Sent, but its answer was lost, and when the record was read to confirm it, ${about}: nothing was decided from that answer. ${AGAIN_AND_TELL} It reads the record before sending.`);
    expect(f.sandbox.store.expense(f.sub, row.id)!.state).toBe("approved");
  });
});

describe("the confirmation after a run", () => {
  it("a GET answered with a record of another subsidiary: still applied, not \"changed by someone else\", and says it is not confirmed", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [row] = approved();
    const sub2 = f.enterprise.subsidiaries[1];
    const other = f.sandbox.store.expensesOf(sub2).find((e) => e.state === "approved")!;
    edit(f, table, row.id, { State: "accounted", "Accounted ID": "ACC-3" });
    // One record, one state: the confirmation reads it by GET, its second GET.
    const client = await through(getsAnsweredBy(new Map([[row.id, recordPath(other.id, sub2)]]), 2));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ applied: 1, overwritten: 0 });
    expect(report.summary).toBe("1 applied. 1 of the records this sync changed could not be confirmed: the service answered for another record. Run Sync states again or refresh to check them.");
    // The taskpane shows it as a warning, not a success.
    expect(report.confirmFailure).toBe("1 of the records this sync changed could not be confirmed: the service answered for another record.");
    expect(proxy!.passed.map((p) => [p.method, p.forwarded])).toEqual([
      ["GET", recordPath(row.id)], ["PATCH", recordPath(row.id)], ["GET", recordPath(other.id, sub2)],
    ]);
    const about = `the service answered for another record ("${other.id}"), not this one`;
    const then = "Refresh the table to see what the server holds, and tell your Spend Sync contact if it happens again.";
    expect(journalOf(row.id)).toEqual([
      ["sending", "", SENDING, "PATCH"],
      ["applied", 200, "", "PATCH"],
      ["unconfirmed", 200, `Read again after the run: ${about}. Nothing was decided from that answer: this sync's change (accounted, Accounted ID ACC-3) is not confirmed. Nothing more was sent. ${then}`, "read (GET)"],
    ]);
    expect(String(cellOf(f, table, row.id, "Sync status")).replace(new RegExp(`^Applied ${STAMP}: `), "")).toBe(
      `approved → accounted. Not confirmed after the run: when the record was read again, ${about}, so whether it still holds this change is not known. ${then}`);
    expect(cellOf(f, table, row.id, "State")).toBe("accounted");
    expect(f.sandbox.store.expense(f.sub, row.id)).toMatchObject({ state: "accounted", accounted_id: "ACC-3" });
  });

  it("a state-filtered list showing the records in another state is not taken: their GETs confirm them", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const rows = approved().slice(0, 3);
    rows.forEach((row, i) => edit(f, table, row.id, { State: "accounted", "Accounted ID": `ACC-L${i}` }));
    const wanted = new Set(rows.map((r) => r.id));
    // The list of accounted expenses claims each of them is approved again, with no accounted_id.
    const client = await through((method, path, query) => (method === "GET" && path === listPath() && query.get("state") === "accounted"
      ? { rewrite: (page) => ({ ...page, results: page.results.map((r: { id: string }) => (wanted.has(r.id) ? { ...r, state: "approved", accounted_id: null } : r)) }) }
      : undefined));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ applied: 3, overwritten: 0 });
    expect(report.summary).toBe("3 applied.");
    const reads = proxy!.passed.filter((p) => p.method === "GET");
    // A GET each before its PATCH, the list, then a GET each again: the list's claims were not taken.
    expect(reads.filter((p) => p.asked.startsWith(`${listPath()}?`))).toHaveLength(1);
    for (const [i, row] of rows.entries()) {
      expect(reads.filter((p) => p.asked === recordPath(row.id))).toHaveLength(2);
      expect(journalOf(row.id).map(([outcome]) => outcome)).toEqual(["sending", "applied"]);
      expect(String(cellOf(f, table, row.id, "Sync status"))).toMatch(new RegExp(`^Applied ${STAMP}: approved → accounted$`));
      expect(cellOf(f, table, row.id, "Accounted ID")).toBe(`ACC-L${i}`);
    }
  });

  it("a list of another subsidiary, then GETs answered with its records: none \"changed by someone else\"", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const rows = approved().slice(0, 3);
    const sub2 = f.enterprise.subsidiaries[1];
    const theirs = f.sandbox.store.expensesOf(sub2).slice(0, 3);
    rows.forEach((row, i) => edit(f, table, row.id, { State: "accounted", "Accounted ID": `ACC-S${i}` }));
    const gets = getsAnsweredBy(new Map(rows.map((row, i) => [row.id, recordPath(theirs[i].id, sub2)])), 2);
    const client = await through((method, path, query) => (method === "GET" && path === listPath()
      ? { to: `${f.prefix}/subsidiaries/${sub2}/expenses/` }
      : gets(method, path, query)));

    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));

    expect(report.counts).toMatchObject({ applied: 3, overwritten: 0 });
    expect(report.summary).toMatch(/^3 applied\. 3 of the records this sync changed could not be confirmed: /);
    for (const [i, row] of rows.entries()) {
      const lines = journalOf(row.id);
      expect(lines.map(([outcome, , , request]) => [outcome, request])).toEqual([["sending", "PATCH"], ["applied", "PATCH"], ["unconfirmed", "read (GET)"]]);
      expect(lines[2][2]).toContain(`the service answered for another record ("${theirs[i].id}"), not this one`);
      expect(String(cellOf(f, table, row.id, "Sync status"))).toMatch(new RegExp(`^Applied ${STAMP}: approved → accounted\\. Not confirmed after the run: `));
      expect(f.sandbox.store.expense(f.sub, row.id)).toMatchObject({ state: "accounted", accounted_id: `ACC-S${i}` });
    }
  });
});
