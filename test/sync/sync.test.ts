import fc from "fast-check";
import { updateExpense, type RawRequest } from "../../src/api";
import { refreshTable, serialToTimestamp, timestampToSerial } from "../../src/sheets";
import { JOURNAL_TABLE, PlanChangedError, previewSync, runSync } from "../../src/sync";
import { OUTCOME_FILLS } from "../../src/sync/write-outcomes";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, fillOf, loadFor } from "../support/sync";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

const approvedExpenses = () => f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");

describe("Sync states on expenses", () => {
  beforeEach(async () => {
    f = await withExcel();
  });

  it("sees no edit in a paid_at the service sent with milliseconds (.500 and over included) that nobody touched", async () => {
    const paid = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "paid").slice(0, 4);
    expect(paid).toHaveLength(4);
    paid.forEach((e, i) => (e.paid_at = `2026-11-02T09:15:0${i}.${["500", "700", "999", "001"][i]}Z`));
    const table = await loadFor(f, { resource: "expenses", state: "paid" });
    const preview = await previewSync(f.workbook, table);
    expect(preview.counts.change).toBe(0);
    expect(preview.rows.filter((r) => paid.some((e) => e.id === r.id))).toEqual([]);
  });

  it("previews, then applies each valid edit once, writes every outcome back, and keeps a journal", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b, c, d] = approvedExpenses();
    const paidAt = timestampToSerial("2026-11-02T09:15:00Z")!;
    edit(f, table, a.id, { State: "paid", "Paid ID": "PAY-100", "Paid at (UTC)": paidAt });
    edit(f, table, b.id, { State: "Accounted", "Accounted ID": "ACC-200" });
    edit(f, table, c.id, { State: "accounted", "Paid ID": "PAY-300" });
    edit(f, table, d.id, { "Accounted ID": "ACC-400" });

    const preview = await previewSync(f.workbook, table);
    expect(preview.counts).toMatchObject({ change: 2, invalid: 2 });
    expect(preview.rows.map((r) => [r.id, r.kind, r.patch ?? r.message])).toEqual(expect.arrayContaining([
      [a.id, "change", { state: "paid", paid_id: "PAY-100", paid_at: "2026-11-02T09:15:00Z" }],
      [b.id, "change", { state: "accounted", accounted_id: "ACC-200" }],
      [c.id, "invalid", "Paid ID and Paid at go with State paid only: clear them, or set State to paid."],
      [d.id, "invalid", expect.stringMatching(/^Accounted ID changed but State did not/)],
    ]));
    // Nothing is sent by a preview.
    expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(0);

    const report = await runSync(f.client, f.workbook, preview, { now: () => new Date("2026-11-21T10:00:00Z"), by: "Ana (finance)" });
    expect(report.counts).toMatchObject({ applied: 2, invalid: 2, rejected: 0, conflict: 0 });
    expect(report.summary).toBe("2 applied, 2 invalid (not sent).");

    // The service holds exactly what was sent; each record moved once; the invalid ones not at all.
    expect(f.sandbox.store.expense(f.sub, a.id)).toMatchObject({ state: "paid", paid_id: "PAY-100", paid_at: "2026-11-02T09:15:00Z" });
    expect(f.sandbox.store.expense(f.sub, b.id)).toMatchObject({ state: "accounted", accounted_id: "ACC-200" });
    for (const [id, n] of [[a.id, 1], [b.id, 1], [c.id, 0], [d.id, 0]] as const) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(n);

    // Each row says what happened, in colour.
    expect(cellOf(f, table, a.id, "Sync status")).toBe("Applied 2026-11-21 10:00 UTC: approved → paid");
    expect(fillOf(f, table, a.id, "Sync status")).toBe(OUTCOME_FILLS.applied);
    expect(cellOf(f, table, b.id, "State")).toBe("accounted");
    expect(cellOf(f, table, c.id, "Sync status")).toBe("Not sent, fix the row 2026-11-21 10:00 UTC: Paid ID and Paid at go with State paid only: clear them, or set State to paid.");
    expect(fillOf(f, table, c.id, "Sync status")).toBe(OUTCOME_FILLS.invalid);
    expect(serialToTimestamp(cellOf(f, table, a.id, "Paid at (UTC)") as number)).toBe("2026-11-02T09:15:00Z");

    // The journal: a "sending" line before each PATCH, its answer, and the invalid rows; who ran it; never the key.
    const journal = tableView(f.excel, JOURNAL_TABLE);
    expect(journal.header).toEqual([
      "Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Request", "Fields sent", "HTTP status", "Outcome", "Message", "Exact request",
    ]);
    const linesOf = (id: string) => journal.rows.filter((r) => r[journal.column("Record ID")] === id).map((r) => r.slice(1));
    // Fields sent in the columns' words; the request as it left (method, path, JSON body) in its own column only (issue 43).
    const sentA = "State paid, Paid ID PAY-100, Paid at 2026-11-02T09:15:00Z";
    const exactA = `PATCH /public/v1/enterprises/${f.enterprise.id}/subsidiaries/${f.sub}/expenses/${a.id}/ ` +
      '{"state":"paid","paid_id":"PAY-100","paid_at":"2026-11-02T09:15:00Z"}';
    const sending = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";
    expect(linesOf(a.id)).toEqual([
      [report.runId, "Ana (finance)", table, "expense", a.id, "approved", "paid", "PATCH", sentA, "", "sending", sending, exactA],
      [report.runId, "Ana (finance)", table, "expense", a.id, "approved", "paid", "PATCH", sentA, 200, "applied", "", exactA],
    ]);
    expect(linesOf(c.id)).toEqual([
      [report.runId, "Ana (finance)", table, "expense", c.id, "approved", "accounted", "none", "", "", "invalid", "Paid ID and Paid at go with State paid only: clear them, or set State to paid.", ""],
    ]);
    // No JSON and no service field name in any column a person reads (all but the exact request).
    const read = journal.rows.map((r) => r.slice(0, -1).join(" | ")).join("\n");
    expect(read).not.toMatch(/[{}]|accounted_id|paid_id|paid_at|\/public\/v1/);
    expect(journal.rows).toHaveLength(6);
    expect(JSON.stringify(journal.rows)).not.toContain(f.enterprise.api_key);

    // Applied rows are in the snapshot now: a second preview finds only the still-invalid rows.
    const again = await previewSync(f.workbook, table);
    expect(again.counts).toMatchObject({ change: 0, invalid: 2 });
  });

  it("a record another client changed after the load is a conflict and is not sent", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b] = approvedExpenses();
    edit(f, table, a.id, { State: "paid", "Paid ID": "PAY-1" });
    edit(f, table, b.id, { State: "accounted", "Accounted ID": "ACC-9" });
    await updateExpense(f.client, f.sub, a.id, { state: "accounted", accounted_id: "OTHER-1" }); // a colleague
    await updateExpense(f.client, f.sub, b.id, { state: "accounted", accounted_id: "ACC-9" }); // the same change, done elsewhere

    const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts).toMatchObject({ conflict: 1, "already-applied": 1, applied: 0 });
    expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(1);
    expect(f.sandbox.store.expense(f.sub, a.id)).toMatchObject({ state: "accounted", accounted_id: "OTHER-1" });
    // The colleague's change is told as theirs, field by field in the columns' words; the person's own edit is named apart (issue 43).
    expect(String(cellOf(f, table, a.id, "Sync status")).replace(/^Conflict, not sent \d{4}-\d\d-\d\d \d\d:\d\d UTC: /, "")).toBe(
      "Changed on the server by someone else since you loaded: State is now accounted (you loaded approved), Accounted ID is now OTHER-1 (you loaded empty). " +
        "Your edit (State paid, Paid ID PAY-1) was not sent. Refresh to see their change (your edit is kept), then edit again if still needed.",
    );
    expect(cellOf(f, table, b.id, "Sync status")).toMatch(/^Already applied .*: the server already had accounted with these values; nothing sent\.$/);
    expect(f.sandbox.store.transitionsOf(b.id)).toHaveLength(1);
  });

  it("a refused key stops everything and says so; nothing is applied", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const ids = approvedExpenses().slice(0, 3).map((e) => e.id);
    for (const id of ids) edit(f, table, id, { State: "accounted" });
    const wrong = clientWith(f, (t) => t, { apiKey: "not-the-key" });
    const report = await runSync(wrong, f.workbook, await previewSync(f.workbook, table));
    expect(report.stopped).toBe("auth");
    expect(report.counts["not-sent"]).toBe(3);
    expect(report.summary).toMatch(/The API key was refused for enterprise/);
    for (const id of ids) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(0);
    expect(cellOf(f, table, ids[0], "Sync status")).toMatch(/^Not sent .*The API key was refused/);
  });

  it("refuses to run when the sheet changed after the preview", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b] = approvedExpenses();
    edit(f, table, a.id, { State: "accounted" });
    const preview = await previewSync(f.workbook, table);
    edit(f, table, b.id, { State: "paid" });
    await expect(runSync(f.client, f.workbook, preview)).rejects.toBeInstanceOf(PlanChangedError);
    expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(0);
  });

  it("writes outcomes on the right rows after the table was sorted during the sync", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b] = approvedExpenses();
    edit(f, table, a.id, { State: "accounted", "Accounted ID": "ACC-A" });
    edit(f, table, b.id, { State: "paid", "Paid ID": "PAY-B" });
    const preview = await previewSync(f.workbook, table);
    const sorting = clientWith(f, (inner) => async (request) => {
      if (request.method === "PATCH") f.excel.user.sortTable(table, "Description", false);
      return inner(request);
    });
    await runSync(sorting, f.workbook, preview);
    expect(cellOf(f, table, a.id, "Accounted ID")).toBe("ACC-A");
    expect(cellOf(f, table, a.id, "Sync status")).toMatch(/^Applied .*approved → accounted$/);
    expect(cellOf(f, table, b.id, "Paid ID")).toBe("PAY-B");
    expect(cellOf(f, table, b.id, "Sync status")).toMatch(/^Applied .*approved → paid$/);
  });

  it("reads each record just before its PATCH and confirms with lists by state when they cost fewer requests (at most 2.05 per row)", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    const approved = approvedExpenses();
    edit(f, table, approved[0].id, { State: "accounted" });
    const few = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(few.requests).toBe(3); // a GET, the PATCH, a GET to confirm

    const many = approved.slice(1, 61);
    for (const e of many) edit(f, table, e.id, { State: "paid", "Paid ID": `PAY-${e.expense_number}` });
    const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts.applied).toBe(60);
    const paidPages = Math.ceil(f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "paid").length / 1000);
    expect(report.requests).toBe(60 + 60 + paidPages);
    expect(report.requests / 60).toBeLessThanOrEqual(2.05);
  });
});

describe("Sync states on allowances", () => {
  beforeEach(async () => {
    f = await withExcel();
  });

  it("applies approved → paid with all fields and writes back updated_at", async () => {
    const table = await loadFor(f, { resource: "allowances" });
    const allowance = f.sandbox.store.allowancesOf(f.sub).find((x) => x.state === "approved")!;
    const accounted = f.sandbox.store.allowancesOf(f.sub).find((x) => x.state === "accounted")!;
    edit(f, table, allowance.id, { State: "paid", "Accounted ID": "ACC-1", "Paid ID": "PAY-1", "Paid at (UTC)": "2026-11-03T08:00:00+01:00" });
    edit(f, table, accounted.id, { State: "pending" });
    const report = await runSync(f.client, f.workbook, await previewSync(f.workbook, table));
    expect(report.counts).toMatchObject({ applied: 1, invalid: 1 });
    const stored = f.sandbox.store.allowance(f.sub, allowance.id)!;
    expect(stored).toMatchObject({ state: "paid", accounted_id: "ACC-1", paid_id: "PAY-1", paid_at: "2026-11-03T07:00:00Z" });
    // The cell holds the server's updated_at as an Excel date, to the millisecond (1 ms is ~1.2e-8 days).
    expect(cellOf(f, table, allowance.id, "Updated (UTC)") as number).toBeCloseTo(timestampToSerial(stored.updated_at)!, 7);
    expect(cellOf(f, table, accounted.id, "Sync status")).toMatch(/only be set to accounted or paid/);
  });
});

describe("no invalid row ever reaches the transport (random edits, real sandbox)", () => {
  it("every PATCH the engine sends is accepted by the service", async () => {
    f = await withExcel();
    const table = await loadFor(f, { resource: "expenses" });
    const records = f.sandbox.store.expensesOf(f.sub).slice(0, 120);
    const patches: { request: RawRequest; status: number }[] = [];
    const watching = clientWith(f, (inner) => async (request) => {
      const response = await inner(request);
      if (request.method === "PATCH") patches.push({ request, status: response.status });
      return response;
    });
    const cell = fc.record({
      State: fc.constantFrom("draft", "pending", "approved", "accounted", "paid", "rejected", "Paid", "payed", ""),
      "Accounted ID": fc.constantFrom("", "ACC-1", " ACC-2 "),
      "Paid ID": fc.constantFrom("", "PAY-1", "X".repeat(300)),
      "Paid at (UTC)": fc.constantFrom("", "2026-11-01T10:00:00Z", "2026-11-01T10:00:00", "soon", 46000.5),
    }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: records.length - 1 }), cell), { minLength: 1, maxLength: 12 }), async (edits) => {
        for (const [i, cells] of edits) edit(f, table, records[i].id, cells);
        await runSync(watching, f.workbook, await previewSync(f.workbook, table));
        // Put the sheet back to what the service holds, for the next run.
        await refreshTable(f.client, f.workbook, table, { discardEdits: true });
      }),
      { numRuns: 25 },
    );
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.filter((p) => p.status !== 200).map((p) => p.request.body)).toEqual([]);
    // 25 runs of Preview, Sync and Refresh: each Preview and Sync now also asks which tracked cells hold formulas (issue 47).
  }, 60_000);
});
