/**
 * A PATCH answer is checked against the request (issue 25): an answer for another record, or one echoing
 * values other than those sent, is "unconfirmed" until a read of the record settles it, and the journal keeps
 * both lines. Nothing is sent again on the strength of such an answer; what the read shows is what the row
 * and the confirmation go by, so a lying echo gives no false "Changed by someone else".
 */
import type { RawRequest, RawResponse, Transport } from "../../src/api/transport";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

/** A transport whose PATCH answers `lie` rewrites (it gets the answer's JSON, or null when the PATCH is not forwarded). */
function lying(lie: (answer: Record<string, unknown> | null, request: RawRequest) => Record<string, unknown> | Promise<Record<string, unknown>>, forward = true) {
  const seen: RawRequest[] = [];
  const client = clientWith(f, (inner: Transport): Transport => async (request) => {
    seen.push(request);
    if (request.method !== "PATCH") return inner(request);
    const real: RawResponse | null = forward ? await inner(request) : null;
    const body = await lie(real ? JSON.parse(real.text) : null, request);
    return { status: 200, headers: new Headers({ "content-type": "application/json" }), text: JSON.stringify(body) };
  });
  return { client, patches: () => seen.filter((r) => r.method === "PATCH").length, seen };
}

/** The journal lines of one record: [outcome, HTTP status, message, request]. */
function journalOf(id: string): [string, unknown, string, string][] {
  const j = tableView(f.excel, JOURNAL_TABLE);
  return j.rows.filter((r) => r[j.column("Record ID")] === id)
    .map((r) => [String(r[j.column("Outcome")]), r[j.column("HTTP status")], String(r[j.column("Message")]), String(r[j.column("Request")])]);
}

const SENDING = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";

async function editOne(state: "accounted" | "paid", cells: Record<string, string>) {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [record, other] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  edit(f, table, record.id, { State: state, ...cells });
  return { table, record, other };
}

describe("an answer for another record", () => {
  it("applied on the server: unconfirmed, then confirmed applied by the read; one PATCH", async () => {
    const { table, record, other } = await editOne("accounted", { "Accounted ID": "ACC-1" });
    const { client, patches } = lying((answer) => ({ ...answer, id: other.id }));
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts).toMatchObject({ applied: 1, overwritten: 0, unconfirmed: 0 });
    expect(patches()).toBe(1);
    const why = `the answer is for record "${other.id}", not this one`;
    // The PATCH's lines, then the read's: its 200 is the read's, and it says nothing more was sent.
    expect(journalOf(record.id)).toEqual([
      ["sending", "", SENDING, "PATCH"],
      ["unconfirmed", 200, `The service answered 200, but ${why}: not taken as applied. Reading the record to settle it.`, "PATCH"],
      ["applied", 200, `Read the record to settle it: it holds accounted, Accounted ID ACC-1, what was sent, so the PATCH was applied (its answer did not match the request: ${why}). Not sent again.`, "read (GET)"],
    ]);
    expect(cellOf(f, table, record.id, "Sync status")).toMatch(/^Applied .*: approved → accounted\. Confirmed by reading the record/);
    expect(f.sandbox.store.transitionsOf(other.id)).toHaveLength(0);
  });

  it("not applied (a proxy answered for another record): rejected with what the read showed, and never sent again", async () => {
    const { table, record, other } = await editOne("paid", { "Paid ID": "PAY-1" });
    // The other record's own detail, as if it had been paid: a well-formed answer, for the wrong record.
    const { client, patches } = lying(async () => {
      const detail = (await f.call("GET", `${f.prefix}/subsidiaries/${f.sub}/expenses/${other.id}/`)).json;
      return { ...detail, state: "paid", paid_id: "PAY-1" };
    }, false);
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts).toMatchObject({ applied: 0, rejected: 1 });
    expect(patches()).toBe(1);
    expect(f.sandbox.store.expense(f.sub, record.id)!.state).toBe("approved");
    const lines = journalOf(record.id);
    expect(lines.map(([outcome]) => outcome)).toEqual(["sending", "unconfirmed", "rejected"]);
    expect(lines[2].slice(2)).toEqual([
      `Read the record to settle it: it still reads approved, as loaded, so the PATCH was not applied (the service answered 200, but the answer is for record "${other.id}", not this one). Not sent again; run Sync states again, and tell your Spend Sync contact if it happens again.`,
      "read (GET)",
    ]);
    expect(cellOf(f, table, record.id, "Sync status")).toMatch(/^Rejected by the service .*: Not applied: the service answered 200/);
    // The row is still an edit: a later run reads, then sends it once.
    const again = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(again.counts.applied).toBe(1);
    expect(f.sandbox.store.transitionsOf(record.id)).toHaveLength(1);
  });
});

describe("an answer whose values contradict what was sent", () => {
  it.each([
    ["another accounted_id", (a: Record<string, unknown>) => ({ ...a, accounted_id: "ACC-SOMEONE-ELSE" }), "Accounted ID ACC-SOMEONE-ELSE"],
    ["another state", (a: Record<string, unknown>) => ({ ...a, state: "approved" }), "State approved"],
  ])("(%s) is confirmed by a read, and gives no false \"Changed by someone else\"", async (_what, lie, said) => {
    const { table, record } = await editOne("accounted", { "Accounted ID": "ACC-7" });
    const { client, patches } = lying((answer) => lie(answer!));
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts).toMatchObject({ applied: 1, overwritten: 0 });
    expect(patches()).toBe(1);
    expect(journalOf(record.id).map(([outcome, , message]) => [outcome, message])).toEqual([
      ["sending", SENDING],
      ["unconfirmed", `The service answered 200, but the answer says ${said}, not what was sent: not taken as applied. Reading the record to settle it.`],
      ["applied", `Read the record to settle it: it holds accounted, Accounted ID ACC-7, what was sent, so the PATCH was applied (its answer did not match the request: the answer says ${said}, not what was sent). Not sent again.`],
    ]);
    // The row shows what the server holds (the read), not the answer's echo.
    expect(cellOf(f, table, record.id, "Accounted ID")).toBe("ACC-7");
    expect(cellOf(f, table, record.id, "State")).toBe("accounted");
    expect(cellOf(f, table, record.id, "Sync status")).not.toMatch(/someone else/);
  });

  it("a paid_at the same instant in another spelling is no contradiction", async () => {
    const { table, record } = await editOne("paid", { "Paid ID": "PAY-9", "Paid at (UTC)": "2026-10-20T14:30:00Z" });
    const { client } = lying((answer) => ({ ...answer, paid_at: "2026-10-20T14:30:00.000Z" }));
    await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(journalOf(record.id).map(([outcome]) => outcome)).toEqual(["sending", "applied"]);
  });

  it("when the read fails too, the row is unconfirmed, and the next run reads before it sends", async () => {
    const { table, record } = await editOne("accounted", { "Accounted ID": "ACC-8" });
    let broken = false;
    const client = clientWith(f, (inner: Transport): Transport => async (request) => {
      if (broken && request.method === "GET") throw new TypeError("fetch failed");
      const response = await inner(request);
      if (request.method !== "PATCH") return response;
      broken = true;
      return { ...response, text: JSON.stringify({ ...JSON.parse(response.text), accounted_id: "ACC-X" }) };
    }, { retry: { retries: 0 } });
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts.unconfirmed).toBe(1);
    expect(journalOf(record.id).map(([outcome]) => outcome)).toEqual(["sending", "unconfirmed", "unconfirmed"]);
    expect(journalOf(record.id)[2][2]).toMatch(/^Sent, and the service answered 200, but the answer says Accounted ID ACC-X, not what was sent; the record could not be read to settle it.* Not sent again\.$/);
    expect(journalOf(record.id).map((line) => line[3])).toEqual(["PATCH", "PATCH", "read (GET)"]);
    const again = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(again.counts["already-applied"]).toBe(1);
    expect(f.sandbox.store.transitionsOf(record.id)).toHaveLength(1);
  });
});
