/**
 * Sync under a faulty service and interrupted runs: every edited row ends applied exactly once or reported,
 * the sandbox's state equals what the sheet reports, and a second run finishes only the rest.
 */
import type { Workbook } from "../../src/sheets";
import { previewSync, runSync, type SyncReport } from "../../src/sync";
import { withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

/** 40 approved expenses edited: half to accounted with an accounting id, half to paid with a payment id. */
async function editForty(client = f.client) {
  const table = await loadFor(f, { resource: "expenses", state: "approved" }, client);
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 40);
  const want = new Map<string, { state: string; field: "accounted_id" | "paid_id"; value: string }>();
  records.forEach((e, i) => {
    const paid = i % 2 === 1;
    const value = `${paid ? "PAY" : "ACC"}-${e.expense_number}`;
    edit(f, table, e.id, paid ? { State: "paid", "Paid ID": value } : { State: "accounted", "Accounted ID": value });
    want.set(e.id, { state: paid ? "paid" : "accounted", field: paid ? "paid_id" : "accounted_id", value });
  });
  return { table, want };
}

/** What the sheet reports agrees with the sandbox, and nothing moved twice. */
function checkAgreement(table: string, want: Map<string, { state: string; field: string; value: string }>, report: SyncReport) {
  for (const [id, w] of want) {
    const transitions = f.sandbox.store.transitionsOf(id);
    expect(transitions.length).toBeLessThanOrEqual(1);
    const stored = f.sandbox.store.expense(f.sub, id)!;
    const result = report.results.find((r) => r.id === id);
    if (result?.outcome === "applied" || result?.outcome === "already-applied") {
      expect(stored).toMatchObject({ state: w.state, [w.field]: w.value });
      expect(cellOf(f, table, id, "State")).toBe(stored.state);
      expect(transitions).toHaveLength(1);
    }
    if (result?.outcome === "not-sent") expect(stored.state).toBe("approved");
  }
}

describe("with lost answers, 500s and dropped connections", () => {
  it("every row ends applied once or reported, and runs again until all are applied, never twice", async () => {
    f = await withExcel({ faults: { lostPatchRate: 0.2, errorRate: 0.1, dropRate: 0.05 } });
    const client = clientWith(f, (t) => t);
    const { table, want } = await editForty(client);
    let report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(f.sandbox.faults.stats.lostPatches).toBeGreaterThan(0);
    expect(report.results).toHaveLength(40);
    expect(report.counts.invalid + report.counts.rejected + report.counts.conflict).toBe(0);
    checkAgreement(table, want, report);
    for (let run = 0; run < 5 && report.counts.applied + report.counts["already-applied"] < 40; run++) {
      const preview = await previewSync(f.workbook, table);
      if (preview.counts.change === 0) break;
      report = await runSync(client, f.workbook, preview);
      checkAgreement(table, want, report);
    }
    for (const [id, w] of want) {
      expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
      expect(f.sandbox.store.expense(f.sub, id)).toMatchObject({ state: w.state, [w.field]: w.value });
      expect(cellOf(f, table, id, "Sync status")).toMatch(/^(Applied|Already applied) /);
    }
    expect((await previewSync(f.workbook, table)).counts.change).toBe(0);
  });
});

describe("an interrupted sync", () => {
  it("lost network and a closed taskpane: the next run applies only the rest", async () => {
    f = await withExcel();
    const { table, want } = await editForty();
    let patches = 0;
    const failing = clientWith(f, (inner) => async (request) => {
      if (request.method === "PATCH" && ++patches > 15) throw new TypeError("fetch failed");
      if (patches > 15) throw new TypeError("fetch failed");
      return inner(request);
    });
    // The taskpane closes before any outcome is written.
    const closing: Workbook = Object.assign(Object.create(f.workbook), { writeCells: () => Promise.reject(new Error("taskpane closed")) });
    await expect(runSync(failing, closing, await previewSync(f.workbook, table), { concurrency: 1 })).rejects.toThrow("taskpane closed");
    const applied = [...want.keys()].filter((id) => f.sandbox.store.transitionsOf(id).length === 1);
    expect(applied).toHaveLength(15);

    const preview = await previewSync(f.workbook, table);
    expect(preview.counts.change).toBe(40); // nothing was written back, so all 40 still look edited
    const report = await runSync(f.client, f.workbook, preview);
    expect(report.counts).toMatchObject({ "already-applied": 15, applied: 25 });
    for (const id of want.keys()) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
    checkAgreement(table, want, report);
  });

  it("cancelled half way: the rest is marked not sent, and the next run sends only those", async () => {
    f = await withExcel();
    const { table, want } = await editForty();
    const controller = new AbortController();
    let answered = 0;
    const counting = clientWith(f, (inner) => async (request) => {
      const response = await inner(request);
      if (request.method === "PATCH" && ++answered === 10) controller.abort();
      return response;
    });
    const first = await runSync(counting, f.workbook, await previewSync(f.workbook, table), { signal: controller.signal, concurrency: 3 });
    expect(first.stopped).toBe("cancelled");
    const done = first.counts.applied;
    expect(done).toBeGreaterThanOrEqual(10);
    expect(done).toBeLessThan(40);
    expect(first.counts["not-sent"]).toBe(40 - done);
    checkAgreement(table, want, first);
    const notSent = first.results.find((r) => r.outcome === "not-sent")!;
    expect(cellOf(f, table, notSent.id, "Sync status")).toMatch(/^Not sent .*Cancelled: the rest was not sent\.$/);

    const preview = await previewSync(f.workbook, table);
    expect(preview.counts.change).toBe(40 - done);
    const second = await runSync(f.client, f.workbook, preview);
    expect(second.counts.applied).toBe(40 - done);
    for (const id of want.keys()) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
  });
});

describe("rate limited", () => {
  it("backs off on 429 and finishes", async () => {
    f = await withExcel({ faults: { rateLimit: 15 } });
    const client = clientWith(f, (t) => t);
    const { table, want } = await editForty(client);
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(f.sandbox.faults.stats.rateLimited).toBeGreaterThan(0);
    expect(report.counts.applied).toBe(40);
    expect(report.results.flatMap((r) => r.journal).some((j) => j.httpStatus === 429 && j.outcome === "retry")).toBe(true);
    checkAgreement(table, want, report);
  });
});
