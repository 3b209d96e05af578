/**
 * Sync under a faulty service and interrupted runs: every edited row ends applied exactly once or reported,
 * the sandbox's state equals what the sheet reports, no PATCH is ever resent without a read, and a run
 * interrupted after k PATCHes leaves at least k journal lines and a rerun finishes the rest.
 */
import { type Workbook } from "../../src/sheets";
import { ExcelWorkbook, type ExcelHost } from "../../src/sheets/excel";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";
import { Recorder } from "./recorder";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

type Want = Map<string, { state: string; field: "accounted_id" | "paid_id"; value: string }>;

/** 40 approved expenses edited: half to accounted with an accounting id, half to paid with a payment id. */
async function editForty(client = f.client) {
  const table = await loadFor(f, { resource: "expenses", state: "approved" }, client);
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 40);
  const want: Want = new Map();
  records.forEach((e, i) => {
    const paid = i % 2 === 1;
    const value = `${paid ? "PAY" : "ACC"}-${e.expense_number}`;
    edit(f, table, e.id, paid ? { State: "paid", "Paid ID": value } : { State: "accounted", "Accounted ID": value });
    want.set(e.id, { state: paid ? "paid" : "accounted", field: paid ? "paid_id" : "accounted_id", value });
  });
  return { table, want };
}

const journalOf = () => tableView(f.excel, JOURNAL_TABLE);
const linesOf = (outcome: string) => {
  const j = journalOf();
  return j.rows.filter((r) => r[j.column("Outcome")] === outcome).map((r) => String(r[j.column("Record ID")]));
};
const movedOnce = (want: Want) => [...want.keys()].filter((id) => f.sandbox.store.transitionsOf(id).length === 1);

describe("with lost answers, 500s and dropped connections (--lost-patch-rate 0.2 --error-rate 0.1 --drop-rate 0.05)", () => {
  it("every row ends applied exactly once, and after every unanswered PATCH the next request for its record is a read", async () => {
    f = await withExcel({ faults: { lostPatchRate: 0.2, errorRate: 0.1, dropRate: 0.05 } });
    const recorder = new Recorder(() => f.excel.stats.syncs);
    const client = clientWith(f, (t) => recorder.wrap(t));
    const { table, want } = await editForty(client);
    for (let run = 0; run < 5 && (await previewSync(f.workbook, table)).counts.change > 0; run++) {
      await runSync(client, f.workbook, await previewSync(f.workbook, table));
    }
    expect(f.sandbox.faults.stats.lostPatches).toBeGreaterThan(0);
    expect(recorder.unanswered().length).toBeGreaterThan(0);
    expect(recorder.resentWithoutRead()).toEqual([]);
    expect(recorder.patchesWithoutFreshRead()).toEqual([]);
    // 0 double transitions, 0 lost edits: each record holds exactly what its row asked, moved once.
    for (const [id, w] of want) {
      expect([id, f.sandbox.store.transitionsOf(id).length]).toEqual([id, 1]);
      expect(f.sandbox.store.expense(f.sub, id)).toMatchObject({ state: w.state, [w.field]: w.value });
      expect(cellOf(f, table, id, "State")).toBe(w.state);
      expect(cellOf(f, table, id, w.field === "paid_id" ? "Paid ID" : "Accounted ID")).toBe(w.value);
      expect([id, cellOf(f, table, id, "Sync status")]).toEqual([id, expect.stringMatching(/^(Applied|Already applied) /)]);
    }
    expect((await previewSync(f.workbook, table)).counts.change).toBe(0);
    // Every PATCH that reached the server has a "sending" line written before it.
    const sending = new Set(linesOf("sending"));
    for (const id of want.keys()) expect(sending.has(id)).toBe(true);
  });
});

describe("an interrupted sync", () => {
  it("cancelled after k PATCHes: k applied, the rest not sent, at least k journal lines; a rerun sends only the rest", async () => {
    f = await withExcel();
    const { table, want } = await editForty();
    const controller = new AbortController();
    let answered = 0;
    const counting = clientWith(f, (inner) => async (request) => {
      const response = await inner(request);
      if (request.method === "PATCH" && ++answered === 10) controller.abort();
      return response;
    });
    const first = await runSync(counting, f.workbook, await previewSync(f.workbook, table), { signal: controller.signal, concurrency: 1 });
    expect(first.stopped).toBe("cancelled");
    expect(first.counts).toMatchObject({ applied: 10, "not-sent": 30 });
    expect(movedOnce(want)).toHaveLength(10);
    expect(linesOf("applied").sort()).toEqual(movedOnce(want).sort());
    const notSent = first.results.find((r) => r.outcome === "not-sent")!;
    expect(cellOf(f, table, notSent.id, "Sync status")).toMatch(/^Not sent .*Cancelled: the rest was not sent\.$/);

    const preview = await previewSync(f.workbook, table);
    expect(preview.counts.change).toBe(30);
    const second = await runSync(f.client, f.workbook, preview);
    expect(second.counts).toMatchObject({ applied: 30, "already-applied": 0 });
    expect(movedOnce(want)).toHaveLength(40);
  });

  it("the runtime disappears after k PATCHes: every sent PATCH has its journal line, and a rerun finishes with 0 duplicates", async () => {
    f = await withExcel();
    const { table, want } = await editForty();
    const k = 13;
    let patches = 0;
    // After the k-th PATCH reached the server, nothing answers any more, neither the service nor Excel: the
    // taskpane is gone. (Its hung requests fail at the end of the test, so that no client timer outlives it.)
    const end = new AbortController();
    const never = () => new Promise<never>((_, reject) => {
      if (end.signal.aborted) reject(new TypeError("gone"));
      end.signal.addEventListener("abort", () => reject(new TypeError("gone")));
    });
    let answered = 0;
    const vanishing = clientWith(f, (inner) => async (request) => {
      if (patches >= k) return never();
      if (request.method !== "PATCH") return inner(request);
      patches++;
      const response = await inner(request);
      answered++;
      return response;
    });
    const gone = () => patches >= k;
    const hang = <T>(work: () => Promise<T>): Promise<T> => (gone() ? new Promise<never>(() => undefined) : work());
    const vanishingWorkbook: Workbook = {
      readTable: (...a) => hang(() => f.workbook.readTable(...a)), readColumns: (...a) => hang(() => f.workbook.readColumns(...a)),
      writeTable: (...a) => hang(() => f.workbook.writeTable(...a)), writeCells: (...a) => hang(() => f.workbook.writeCells(...a)),
      createTable: (...a) => hang(() => f.workbook.createTable(...a)),
      readRows: (...a) => hang(() => f.workbook.readRows(...a)), updateTable: (...a) => hang(() => f.workbook.updateTable(...a)),
      appendRows: (...a) => hang(() => f.workbook.appendRows(...a)), readSetting: (...a) => hang(() => f.workbook.readSetting(...a)),
      writeSetting: (...a) => hang(() => f.workbook.writeSetting(...a)), select: (...a) => hang(() => f.workbook.select(...a)),
    };
    let clock = Date.parse("2026-11-21T10:00:00Z");
    const concurrency = 3;
    void runSync(vanishing, vanishingWorkbook, await previewSync(f.workbook, table), { concurrency, now: () => new Date((clock += 400)) });
    while (answered < k) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(movedOnce(want)).toHaveLength(k);
    // Every PATCH that reached the server has its "sending" line in the workbook.
    const sending = new Set(linesOf("sending"));
    for (const id of movedOnce(want)) expect(sending.has(id)).toBe(true);
    expect(journalOf().rows.length).toBeGreaterThanOrEqual(k);
    // Statuses went in with their journal lines, batch by batch: at most the last batch is missing.
    const withStatus = movedOnce(want).filter((id) => /^Applied /.test(String(cellOf(f, table, id, "Sync status"))));
    expect(withStatus.sort()).toEqual(linesOf("applied").sort());
    expect(withStatus.length).toBeGreaterThanOrEqual(k - concurrency);

    // Excel reopens the workbook; another run with a working connection finishes the rest.
    const reopened = new ExcelWorkbook(f.excel as unknown as ExcelHost);
    const preview = await previewSync(reopened, table);
    const report = await runSync(f.client, reopened, preview);
    expect(report.counts.applied + report.counts["already-applied"]).toBe(preview.counts.change);
    expect(report.counts.applied).toBe(40 - k);
    end.abort();
    for (const [id, w] of want) {
      expect([id, f.sandbox.store.transitionsOf(id).length]).toEqual([id, 1]);
      expect(f.sandbox.store.expense(f.sub, id)).toMatchObject({ state: w.state, [w.field]: w.value });
    }
  });

  it("the taskpane closes before any status is written: no more PATCH leaves, each sent one has its line, a rerun repairs", async () => {
    f = await withExcel();
    const { table, want } = await editForty();
    const closing: Workbook = Object.assign(Object.create(f.workbook), { writeCells: () => Promise.reject(new Error("taskpane closed")) });
    let clock = 0;
    await expect(runSync(f.client, closing, await previewSync(f.workbook, table), { concurrency: 1, now: () => new Date((clock += 1000)) }))
      .rejects.toThrow("taskpane closed");
    const moved = movedOnce(want);
    // The first batch (after the first record) failed: the next record was read, but its PATCH never left.
    expect(moved).toHaveLength(1);
    const sending = new Set(linesOf("sending"));
    for (const id of moved) expect(sending.has(id)).toBe(true);

    const preview = await previewSync(f.workbook, table);
    expect(preview.counts.change).toBe(40); // no status or snapshot row was written
    const report = await runSync(f.client, f.workbook, preview);
    expect(report.counts).toMatchObject({ "already-applied": moved.length, applied: 40 - moved.length });
    for (const id of want.keys()) expect(f.sandbox.store.transitionsOf(id)).toHaveLength(1);
  });
});

describe("rate limited", () => {
  it("backs off on 429, reads again, and finishes", async () => {
    f = await withExcel({ faults: { rateLimit: 15 } });
    const recorder = new Recorder();
    const client = clientWith(f, (t) => recorder.wrap(t));
    const { table, want } = await editForty(client);
    const report = await runSync(client, f.workbook, await previewSync(f.workbook, table));
    expect(f.sandbox.faults.stats.rateLimited).toBeGreaterThan(0);
    expect(report.counts.applied).toBe(40);
    expect(linesOf("retry").length).toBeGreaterThan(0);
    expect(recorder.patchesWithoutFreshRead()).toEqual([]);
    for (const [id, w] of want) expect(f.sandbox.store.expense(f.sub, id)).toMatchObject({ state: w.state, [w.field]: w.value });
    expect(movedOnce(want)).toHaveLength(40);
  });
});
