/**
 * A whole Sync states run (execute.ts runSync) on a stand-in workbook and a scripted service, both in memory: what
 * the run refuses before sending anything, the summary sentence and the counts of every class, the journal's lines
 * (decisions without a request, sending lines ahead of their PATCH), a stop on a refused key or a cancel, the progress
 * reported, the requests counted. The flow tests (sync, faults, run-summary, sending-lines-in-batches) run the same
 * rules through the sandbox and the in-memory Excel; these cost milliseconds a run.
 */
import { SpendClient, type SpendClient as Client } from "../../src/api";
import { SETTING_PREFIX, sourceOf, type AppendWrite, type CellValue, type CellWrite, type ColumnsRead, type LoadParams, type Workbook } from "../../src/sheets";
import { PlanChangedError, previewSync, runSync, type SyncOptions } from "../../src/sync";
import { expense, U } from "../api/helpers/records";
import { fakeTransport } from "../support/fake-transport";
import { settle } from "../support/settle";

const T = "SpendExpenses_sub1";
const PARAMS = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" } as LoadParams;
const LAYOUT = sourceOf(PARAMS).columns;
const HEADER = LAYOUT.map((c) => c.header);
const headerOf = (key: string) => LAYOUT.find((c) => c.key === key)!.header;
const AT = new Date("2026-11-21T10:00:00Z");

type Tracked = { state: string; accounted_id?: string; paid_id?: string; paid_at?: string };
interface RowSpec { n: number; loaded: Tracked; sheet: Tracked }

/** What the stand-in saw, in order: "append <table> <outcome,…>", "write <table> <n> cells", and the service's "GET <n>" / "PATCH <n>" / "LIST". */
interface Service {
  /** The status of the n-th record's k-th PATCH (1-based); 200 applies it. */
  patch?: (n: number, k: number) => number;
  /** The status of the n-th record's k-th GET (1-based); 200 answers it. */
  get?: (n: number, k: number) => number;
  /** Called after a PATCH is applied (a colleague's change may follow). */
  afterPatch?: (id: string, server: Map<string, Tracked>) => void;
  /** The first append of the journal waits for this. */
  holdFirstAppend?: Promise<void>;
  /** writeCells on the table fails from the n-th call on. */
  writeFailsFrom?: number;
  /** The n-th record's first GET is answered only once this resolves. */
  getWaits?: (n: number) => Promise<void> | undefined;
}

function setUp(specs: RowSpec[], service: Service = {}) {
  const log: string[] = [];
  let tableWrites = 0;
  const counts = new Map<string, number>();
  const count = (key: string) => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts.get(key)!;
  };
  const journal: CellValue[][] = [];
  const cellsOf = (t: Tracked) => [t.state, t.accounted_id ?? "", t.paid_id ?? "", t.paid_at ?? ""];
  const table = specs.map((s) => ({ id: s.n === 0 ? "" : U(s.n), cells: cellsOf(s.sheet), status: "" }));
  const snapHeader = ["Record ID", "state", "accounted_id", "paid_id", "paid_at", "read_only", "digest", "cells"];
  const workbook = {
    readSetting: async (key: string) => (key === SETTING_PREFIX + T ? JSON.stringify({ params: PARAMS, columns: HEADER, loadedAt: "2026-11-20T10:00:00.000Z" }) : null),
    readColumns: async (name: string, headers: readonly string[]): Promise<ColumnsRead | null> => {
      if (name === T) {
        const byHeader = new Map<string, CellValue[]>([
          [headerOf("id"), table.map((r) => r.id)], [headerOf("state"), table.map((r) => r.cells[0])], [headerOf("accounted_id"), table.map((r) => r.cells[1])],
          [headerOf("paid_id"), table.map((r) => r.cells[2])], [headerOf("paid_at"), table.map((r) => r.cells[3])], [headerOf("status"), table.map((r) => r.status)],
        ]);
        return { sheetName: "S", header: HEADER, rowCount: table.length, columns: new Map(headers.filter((h) => byHeader.has(h)).map((h) => [h, byHeader.get(h)!])) };
      }
      if (name === `Snap_${T}`) {
        const rows = specs.map((s) => [U(s.n), ...cellsOf(s.loaded), "", "", ""]);
        return { sheetName: "Snap", header: snapHeader, rowCount: rows.length, columns: new Map(headers.map((h) => [h, rows.map((r) => r[snapHeader.indexOf(h)])])) };
      }
      if (name === "SpendSyncJournal" && journal.length > 0) return { sheetName: "J", header: [], rowCount: journal.length, columns: new Map() };
      return null;
    },
    appendRows: async (write: AppendWrite) => {
      if (journal.length === 0 && service.holdFirstAppend) await service.holdFirstAppend;
      journal.push(...write.rows);
      log.push(`append ${write.rows.map((r) => r[11]).join(",")}`);
    },
    writeCells: async (name: string, cells: CellWrite[]) => {
      if (name === T && service.writeFailsFrom !== undefined && ++tableWrites >= service.writeFailsFrom) throw new Error("The sheet is protected.");
      log.push(`write ${name} ${cells.length}`);
    },
    readRows: async () => [],
  } as unknown as Workbook;

  const server = new Map(specs.map((s) => [U(s.n), { ...s.loaded }]));
  const record = (id: string) => {
    const t = server.get(id)!;
    return expense(Number(id.slice(-12)), { id, state: t.state, accounted_id: t.accounted_id || null, paid_id: t.paid_id || null, paid_at: t.paid_at || null });
  };
  const fake = fakeTransport(async (request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith("/public/v1/enterprises/ent-1/subsidiaries/sub-1/expenses/")) return { status: 404, body: { status: 404, error: "Not found." } };
    const id = url.pathname.split("/").filter(Boolean).pop()!;
    const n = Number(id.slice(-12));
    if (request.method === "PATCH") {
      log.push(`PATCH ${n}`);
      const status = service.patch?.(n, count(`PATCH ${n}`)) ?? 200;
      if (status !== 200) return { status, body: { status, error: status === 403 ? "Invalid API key" : "Refused" } };
      Object.assign(server.get(id)!, JSON.parse(String(request.body)));
      const answer = record(id);
      service.afterPatch?.(id, server);
      return { body: answer };
    }
    if (id === "expenses") {
      log.push("LIST");
      const state = url.searchParams.get("state");
      const results = [...server.keys()].filter((k) => server.get(k)!.state === state).map(record);
      return { body: { count: results.length, next: null, previous: null, results } };
    }
    log.push(`GET ${n}`);
    const k = count(`GET ${n}`);
    if (k === 1) await service.getWaits?.(n);
    const status = service.get?.(n, k) ?? 200;
    if (status !== 200) return { status, body: { status, error: "Internal error" } };
    return { body: record(id) };
  });
  const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_run_sync_0123456789", transport: fake.transport, retry: { retries: 0 } });
  return { workbook, client, log, journal, server };
}

async function sync(s: { workbook: Workbook; client: Client }, options: SyncOptions = {}) {
  const preview = await previewSync(s.workbook, T);
  return runSync(s.client, s.workbook, preview, { now: () => AT, runId: "run-1", ...options });
}

const approved: Tracked = { state: "approved" };
const toAccounted: Tracked = { state: "accounted", accounted_id: "ACC-1" };

describe("what a run refuses before it sends anything", () => {
  it("a table of another enterprise", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }]);
    const other = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-2", apiKey: "sk_test_other_0123456789", transport: fakeTransport(() => ({})).transport });
    const preview = await previewSync(s.workbook, T);
    await expect(runSync(other, s.workbook, preview)).rejects.toThrow(
      "This table belongs to enterprise ent-1; you are connected to ent-2. Connect to that enterprise to sync it.");
    expect(s.log).toEqual([]);
  });

  it("a sheet that changed since the preview", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }]);
    const preview = await previewSync(s.workbook, T);
    const refused = runSync(s.client, s.workbook, { ...preview, fingerprint: "[]" });
    await expect(refused).rejects.toThrow(new PlanChangedError("The sheet changed since the preview, so nothing was sent. Preview again, then confirm."));
    await expect(refused).rejects.toMatchObject({ name: "PlanChangedError" });
    expect(s.log).toEqual([]);
  });
});

describe("a run's report", () => {
  it("nothing edited: nothing to sync, nothing sent", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: approved }]);
    const report = await sync(s);
    expect(report.summary).toBe("Nothing to sync: no edited rows.");
    expect([report.requests, report.stopped, report.results]).toEqual([0, null, []]);
  });

  it("every class counted and said: applied, invalid, to check (not confirmed); the journal has a line for each decision", async () => {
    const s = setUp([
      { n: 1, loaded: approved, sheet: toAccounted },
      { n: 2, loaded: { state: "accounted", accounted_id: "A-2" }, sheet: { state: "paid" } }, // Accounted ID cleared: invalid
      { n: 3, loaded: approved, sheet: { state: "accounted", accounted_id: "2026-11-24" } }, // looks like a date: check
    ]);
    const progress: [number, number][] = [];
    const report = await sync(s, { onProgress: (done, total) => progress.push([done, total]) });
    expect(report.summary).toBe("1 applied, 1 invalid (not sent), 1 to check (not sent: fix or confirm them).");
    expect(report.counts).toEqual({ applied: 1, "already-applied": 0, overwritten: 0, rejected: 0, invalid: 1, check: 1, conflict: 0, "not-sent": 0, unconfirmed: 0 });
    expect([report.tableName, report.runId, report.stopped]).toEqual([T, "run-1", null]);
    expect(report.results.map((r) => r.at)).toEqual([AT, AT, AT]);
    expect(progress).toEqual([[0, 1], [1, 1]]);
    expect(s.log.filter((l) => /^(GET|PATCH|LIST)/.test(l))).toEqual(["GET 1", "PATCH 1", "GET 1"]);
    expect(report.requests).toBe(3);
    // The decisions are queued first and go in with the first sending lines; the confirming read, which found the
    // record as sent, adds no line.
    expect(s.journal.map((r) => [r[5], r[8], r[11]])).toEqual([
      [U(2), "none", "invalid"], [U(3), "none", "check"], [U(1), "PATCH", "sending"], [U(1), "PATCH", "applied"],
    ]);
    const check = report.results.find((r) => r.id === U(3))!;
    expect(check.message).toBe('Accounted ID "2026-11-24" looks like a date: did you mean it for Paid at? Not confirmed, so not sent: fix the cell, or preview again and confirm it as it is.');
    expect(s.server.get(U(3))!.state).toBe("approved");
  });

  it("rows to check are sent once the user confirms them; invalid rows still are not", async () => {
    const s = setUp([
      { n: 2, loaded: { state: "accounted", accounted_id: "A-2" }, sheet: { state: "paid" } },
      { n: 3, loaded: approved, sheet: { state: "accounted", accounted_id: "2026-11-24" } },
    ]);
    const report = await sync(s, { sendChecked: true });
    expect(report.summary).toBe("1 applied, 1 invalid (not sent).");
    expect(s.server.get(U(3))).toEqual({ state: "accounted", accounted_id: "2026-11-24" });
    expect(s.log.filter((l) => /^(GET|PATCH)/.test(l))).toEqual(["GET 3", "PATCH 3", "GET 3"]);
  });

  it("a row without an id: invalid, from no state; a decision's line names who ran it and sends nothing", async () => {
    const s = setUp([{ n: 0, loaded: approved, sheet: toAccounted }]);
    const report = await sync(s, { by: "Ana" });
    expect(report.results.map((r) => [r.outcome, r.from, r.to])).toEqual([["invalid", "", "accounted"]]);
    expect(s.journal.map((r) => [r[1], r[2], r[6], r[8], r[9], r[11]])).toEqual([["run-1", "Ana", "", "none", "", "invalid"]]);
    const anonymous = setUp([{ n: 0, loaded: approved, sheet: toAccounted }]);
    await sync(anonymous);
    expect(anonymous.journal[0][2]).toBe("");
  });

  it("a lost update after the PATCH (someone else changed it), and one left unconfirmed: each phrase in the summary", async () => {
    const s = setUp([
      { n: 1, loaded: approved, sheet: toAccounted },
      { n: 2, loaded: approved, sheet: toAccounted },
    ], {
      afterPatch: (id, server) => void (id === U(1) && server.set(id, { state: "paid", accounted_id: "ACC-1", paid_id: "P-9" })),
      patch: (n) => (n === 2 ? 500 : 200),
      get: (n, k) => (n === 2 && k === 2 ? 500 : 200),
    });
    const report = await sync(s, { concurrency: 1 });
    expect(report.counts.overwritten).toBe(1);
    expect(s.journal.filter((r) => r[11] === "overwritten").map((r) => r[5])).toEqual([U(1)]);
    expect(report.counts.unconfirmed).toBe(1);
    expect(report.summary).toBe("1 changed by someone else after this sync, 1 unconfirmed (run Sync states again).");
  });

  it("the records applied cannot be read again: the summary says so and what to do", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }], { get: (_n, k) => (k === 2 ? 500 : 200) });
    const report = await sync(s);
    expect(report.summary).toMatch(/^1 applied\. The records this sync changed could not be read again to confirm them: .+\. Run Sync states again or refresh to check them\.$/);
  });

  it("counts only its own requests, on a client that made others before", async () => {
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })));
    const first = await sync(s);
    expect(first.requests).toBe(5); // two reads, two PATCHes, one list to confirm both
    const second = await sync(s);
    expect(second.summary).toBe("2 already applied.");
    expect(second.requests).toBe(2);
  });

  it("every other phrase of the summary, in its order", async () => {
    const s = setUp([
      { n: 1, loaded: approved, sheet: toAccounted }, // already applied (the server has it)
      { n: 2, loaded: approved, sheet: toAccounted }, // rejected
      { n: 3, loaded: approved, sheet: toAccounted }, // conflict (the server moved)
    ], { patch: (n) => (n === 2 ? 400 : 200) });
    s.server.set(U(1), { ...toAccounted });
    s.server.set(U(3), { state: "rejected" });
    const report = await sync(s);
    expect(report.summary).toBe("1 already applied, 1 rejected by the service, 1 in conflict (not sent).");
  });
});

describe("a run that stops", () => {
  it("a refused key after a record was applied: that record is not read again to confirm it", async () => {
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })), { patch: (n) => (n === 2 ? 403 : 200) });
    const report = await sync(s, { concurrency: 1 });
    expect(report.stopped).toBe("auth");
    expect(s.log.filter((l) => /^(GET|PATCH|LIST)/.test(l))).toEqual(["GET 1", "PATCH 1", "GET 2", "PATCH 2"]);
  });

  it("the workbook cannot be written: nothing more is sent, nothing is read again, and the run fails with Excel's words", async () => {
    const s = setUp([1, 2, 3].map((n) => ({ n, loaded: approved, sheet: toAccounted })), { writeFailsFrom: 1 });
    await expect(sync(s, { concurrency: 1, batchEveryMs: 0 })).rejects.toThrow("The sheet is protected.");
    // Record 2 is read while the first batch is in Excel; once the failure is known, it is not sent.
    expect(s.log.filter((l) => /^(PATCH|LIST)/.test(l))).toEqual(["PATCH 1"]);
    expect(s.log.filter((l) => l === "GET 1")).toHaveLength(1);
  });

  it("a refused key stops it: the rows not yet sent are not sent, with the service's words; nothing is read again to confirm", async () => {
    const s = setUp([1, 2, 3].map((n) => ({ n, loaded: approved, sheet: toAccounted })), { patch: () => 403 });
    const report = await sync(s, { concurrency: 1 });
    expect(report.stopped).toBe("auth");
    expect(report.counts["not-sent"]).toBe(3);
    expect(s.log.filter((l) => /^(GET|PATCH|LIST)/.test(l))).toEqual(["GET 1", "PATCH 1"]);
    const stop = report.results.find((r) => r.id === U(1))!.message;
    expect(report.results.filter((r) => r.id !== U(1)).map((r) => r.message)).toEqual([stop, stop]);
    expect(report.summary).toBe(`3 not sent. ${stop}`);
  });

  it("cancelled before it starts: nothing is sent, every row says so", async () => {
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })));
    const controller = new AbortController();
    controller.abort();
    const report = await sync(s, { signal: controller.signal });
    expect(report.stopped).toBe("cancelled");
    expect(report.results.map((r) => [r.outcome, r.message])).toEqual([["not-sent", "Cancelled: the rest was not sent."], ["not-sent", "Cancelled: the rest was not sent."]]);
    expect(s.log.filter((l) => /^(GET|PATCH|LIST)/.test(l))).toEqual([]);
    expect(report.summary).toBe("2 not sent. Cancelled: the rest was not sent.");
    expect(s.journal.map((r) => [r[5], r[8], r[11], r[12]])).toEqual([U(1), U(2)].map((id) => [id, "none", "not-sent", "Cancelled: the rest was not sent."]));
  });

  it("cancelled after a record was applied: the rest is not sent, and the summary says the applied one was not read again", async () => {
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })));
    const controller = new AbortController();
    const report = await sync(s, { concurrency: 1, signal: controller.signal, onProgress: (done) => done === 1 && controller.abort() });
    expect(report.counts).toMatchObject({ applied: 1, "not-sent": 1 });
    expect(report.summary).toBe("1 applied, 1 not sent. Cancelled: the rest was not sent. " +
      "Cancelled before the rows applied were read again to confirm them. Run Sync states again or refresh to check them.");
  });

  it("a record being read when another's key is refused is not sent, and says why in the service's words", async () => {
    let patched!: () => void;
    const firstAnswered = new Promise<void>((r) => (patched = r));
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })), {
      patch: (n) => {
        if (n === 1) setImmediate(patched);
        return 403;
      },
      getWaits: (n) => (n === 2 ? firstAnswered.then(() => new Promise((r) => setImmediate(r))) : undefined),
    });
    const report = await sync(s, { concurrency: 2 });
    expect(s.log.filter((l) => l.startsWith("PATCH"))).toEqual(["PATCH 1"]);
    const [first, second] = report.results.sort((a, b) => a.id.localeCompare(b.id));
    expect(second.message).toBe(first.message);
    expect(first.message).toMatch(/\.$/);
  });
});

describe("the write-ahead journal", () => {
  it("every PATCH leaves after its sending line is in the workbook; sending lines go in batches of 16, the next when half are used", async () => {
    const s = setUp(Array.from({ length: 20 }, (_, i) => ({ n: i + 1, loaded: approved, sheet: toAccounted })));
    const report = await sync(s, { concurrency: 1 });
    expect(report.counts.applied).toBe(20);
    const sendingBatches = s.log.filter((l) => l.startsWith("append ") && l.includes("sending")).map((l) => l.split(",").filter((o) => o.endsWith("sending")).length);
    expect(sendingBatches).toEqual([16, 4]);
    const firstBatch = s.log.findIndex((l) => l.startsWith("append ") && l.includes("sending"));
    const secondBatch = s.log.findIndex((l, i) => i > firstBatch && l.startsWith("append ") && l.includes("sending"));
    // Records 1–16 leave after the first batch, 17–20 after the second, which is asked for as record 9 starts (half
    // of the first batch used): after record 8's PATCH, long before record 17's.
    for (let n = 1; n <= 20; n++) expect(s.log.indexOf(`PATCH ${n}`)).toBeGreaterThan(n <= 16 ? firstBatch : secondBatch);
    expect(s.log.indexOf("PATCH 8")).toBeLessThan(secondBatch);
    expect(s.log.indexOf("PATCH 9")).toBeGreaterThan(secondBatch);
  });

  it("no request leaves before the first sending lines are in the workbook", async () => {
    let release!: () => void;
    const s = setUp([1, 2].map((n) => ({ n, loaded: approved, sheet: toAccounted })), { holdFirstAppend: new Promise<void>((r) => (release = r)) });
    const run = sync(s);
    await settle(20);
    expect(s.log).toEqual([]);
    release();
    expect((await run).counts.applied).toBe(2);
  });

  it("a second attempt's sending line is written before its PATCH", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }], { patch: (_n, k) => (k === 1 ? 500 : 200) });
    const report = await sync(s);
    expect(report.counts.applied).toBe(1);
    const secondLine = s.log.findIndex((l) => l.startsWith("append ") && l.includes("sending") && s.log.indexOf("PATCH 1") < s.log.indexOf(l));
    expect(secondLine).toBeGreaterThan(s.log.indexOf("PATCH 1"));
    expect(s.log.lastIndexOf("PATCH 1")).toBeGreaterThan(secondLine);
    expect(s.journal.filter((r) => r[11] === "sending").map((r) => String(r[12]).slice(0, 10))).toEqual(["Written be", "Attempt 2."]);
  });

  it("tries a record maxAttempts times", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }], { patch: () => 500 });
    const report = await sync(s, { maxAttempts: 1 });
    expect(report.results[0].message).toBe("Not applied: the service failed 1 times in a row. Run Sync states again later.");
  });

  it("at least one record at a time, whatever concurrency says; with more, the sending lines go further ahead", async () => {
    const zero = setUp([{ n: 1, loaded: approved, sheet: toAccounted }]);
    expect((await sync(zero, { concurrency: 0 })).counts.applied).toBe(1);
    const s = setUp(Array.from({ length: 20 }, (_, i) => ({ n: i + 1, loaded: approved, sheet: toAccounted })));
    await sync(s, { concurrency: 3 });
    const batches = s.log.filter((l) => l.startsWith("append ") && l.includes("sending")).map((l) => l.split(",").filter((o) => o.endsWith("sending")).length);
    expect(batches).toEqual([20]); // 3 x 8 = 24 ahead, more than the 16 of one record at a time
  });

  it("a run id is eight letters or digits when none is given", async () => {
    const s = setUp([{ n: 1, loaded: approved, sheet: toAccounted }]);
    const preview = await previewSync(s.workbook, T);
    const report = await runSync(s.client, s.workbook, preview);
    expect(report.runId).toMatch(/^[0-9a-z]{8}$/);
    expect(report.results[0].at).toBeInstanceOf(Date); // stamped by the default clock
    expect(s.journal.every((r) => r[1] === report.runId)).toBe(true);
  });
});
