/**
 * A first load, seen from the Workbook port: the table and its snapshot are created before the first page is
 * in, each page goes to both, and whatever stops the load (Excel refusing an append or a finish, the
 * service refusing a page, a cancel at any moment) takes both back only once Excel has answered everything
 * it was given, so no request of the load is still at work when its table is deleted. A cancel stops the
 * writes at once: nothing more is sent to Excel after it.
 */
import { CancelledError, SpendClient } from "../../src/api";
import { NUMBER_FORMATS, loadTable, snapshotStart, snapshotTableOf, sourceOf, tableNameOf, widthOf, type LoadOptions, type LoadParams, type TableStart, type TableStream } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { fakeTransport, pageOf, type Reply } from "../support/fake-transport";
import { gate, settle, until } from "../support/settle";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");
const pageNumber = (url: string) => Number(new URL(url).searchParams.get("page") ?? 1);

type Kind = "table" | "snapshot";
type Step = "append" | "finish";

interface StandIn {
  /** Before a step of a stream is passed on to Excel: may hold it (a promise) or refuse it (an error). */
  before?: (kind: Kind, step: Step, call: number) => Promise<void> | Error | void;
  /** Before createTable is passed on to Excel. */
  beforeCreate?: (kind: Kind) => Promise<void> | Error | void;
  reply?: (url: string) => Reply | Promise<Reply>;
}

/** The real adapter on the in-memory Excel, with its createTable streams recorded (and held or refused where asked). */
function setup(standIn: StandIn = {}, params: LoadParams = PARAMS) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const events: string[] = [];
  const starts: TableStart[] = [];
  const create = workbook.createTable.bind(workbook);
  workbook.createTable = async (start) => {
    const kind: Kind = start.tableName === snapshotTableOf(tableNameOf(params)) ? "snapshot" : "table";
    starts.push(start);
    events.push(`${kind} create`);
    const held = standIn.beforeCreate?.(kind);
    if (held instanceof Error) throw held;
    await held;
    const stream = await create(start);
    const calls = { append: 0, finish: 0 };
    const step = (name: Step, run: () => Promise<void>) => async () => {
      const call = ++calls[name];
      events.push(`${kind} ${name} ${call}`);
      const before = standIn.before?.(kind, name, call);
      if (before instanceof Error) {
        events.push(`${kind} ${name} ${call} refused`);
        throw before;
      }
      await before;
      await run();
      events.push(`${kind} ${name} ${call} done`);
    };
    const recorded: TableStream = {
      append: (rows) => step("append", () => stream.append(rows))(),
      finish: () => step("finish", () => stream.finish())(),
      discard: async () => {
        events.push(`${kind} discard`);
        await stream.discard();
      },
    };
    return recorded;
  };
  const wire = fakeTransport((request) => standIn.reply?.(request.url) ?? { body: pageOf(request.url, 250) });
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  const left = () => ({
    tables: excel.model.tables.map((t) => t.name),
    sheets: excel.model.sheets.map((s) => s.name),
    settings: [...excel.model.settings.keys()].filter((k) => k.startsWith("spendsync.")),
  });
  const load = (options: LoadOptions = {}) => loadTable(client, workbook, params, { now: NOW, ...options });
  return { excel, workbook, events, starts, wire, left, load };
}

const NOTHING = { tables: [], sheets: ["Sheet1"], settings: [] };
const failure = (message: string) => Object.assign(new Error(message), { code: "InvalidArgument" });

describe("a first load, as the Workbook port sees it", () => {
  it.each<[string, LoadParams, boolean]>([
    ["cards", PARAMS, false],
    ["expenses, whose amounts take their currency's decimals", { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" }, true],
  ])("creates the table of %s with its layout's columns, formats, fills and dropdowns, and the snapshot beside it, before the first page is in", async (_, params, byCurrency) => {
    const first = gate();
    const table = tableNameOf(params);
    const s = setup({ reply: async (url) => { if (pageNumber(url) === 1) await first.opened; return { body: { count: 0, next: null, previous: null, results: [] } }; } }, params);
    const done = s.load();
    await until(() => s.events.length >= 2);
    await settle();
    expect(s.events).toEqual(["table create", "snapshot create"]);
    first.open();
    await done;
    const columns = sourceOf(params).columns;
    expect(s.starts[0]).toEqual({
      sheetName: s.excel.model.table(table)!.sheet.name, tableName: table, header: columns.map((c) => c.header),
      numberFormats: columns.map((c) => NUMBER_FORMATS[c.kind]), formatsOf: byCurrency ? expect.any(Function) : undefined,
      editable: columns.map((c) => c.editable === true), dropdowns: columns.map((c) => c.dropdown ?? null),
      widths: columns.map(widthOf), holdPartial: "whileExcelBusy",
    });
    expect(s.starts[1]).toEqual(snapshotStart(table));
    // Each stream's append is answered before its finish is sent; which of the two streams Excel answers first is Excel's.
    expect(s.events.filter((e) => !e.endsWith("done"))).toEqual(["table create", "snapshot create", "table append 1", "snapshot append 1", "table finish 1", "snapshot finish 1"]);
    expect(s.events.filter((e) => e.endsWith("done")).sort()).toEqual(["snapshot append 1 done", "snapshot finish 1 done", "table append 1 done", "table finish 1 done"]);
    expect(s.events.indexOf("snapshot append 1 done")).toBeLessThan(s.events.indexOf("table finish 1"));
    expect(s.events.indexOf("table append 1 done")).toBeLessThan(s.events.indexOf("table finish 1"));
  });

  it("cancelled before it starts: Excel is not asked for anything", async () => {
    const s = setup();
    const cancel = new AbortController();
    cancel.abort();
    await expect(s.load({ signal: cancel.signal })).rejects.toThrow(new CancelledError("Cancelled."));
    expect(s.events).toEqual([]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("cancelled as its first page comes in: no row is sent to Excel, and the empty table and snapshot are taken back", async () => {
    const first = gate();
    const s = setup({ reply: async (url) => { await first.opened; return { body: pageOf(url, 3) }; } });
    const cancel = new AbortController();
    const done = s.load({ signal: cancel.signal, onProgress: (p) => { if (p.phase === "fetch") cancel.abort(); } });
    await until(() => s.events.length >= 2);
    await settle();
    expect(s.events).toEqual(["table create", "snapshot create"]);
    first.open();
    await expect(done).rejects.toThrow(new CancelledError("Cancelled."));
    expect(s.events.filter((e) => e.includes("append"))).toEqual([]);
    expect(s.events.filter((e) => e.includes("discard")).sort()).toEqual(["snapshot discard", "table discard"]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("cancelled while Excel writes the last page: the table is not finished, but taken back", async () => {
    const cancel = new AbortController();
    const s = setup({ before: (kind, step) => { if (kind === "table" && step === "append") cancel.abort(); }, reply: (url) => ({ body: pageOf(url, 3) }) });
    await expect(s.load({ signal: cancel.signal })).rejects.toThrow(new CancelledError("Cancelled."));
    expect(s.events.filter((e) => e.includes("finish"))).toEqual([]);
    expect(s.events.slice(-2).sort()).toEqual(["snapshot discard", "table discard"]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("cancelled while Excel finishes the table: it is taken back once Excel is done, and no setting is written", async () => {
    const cancel = new AbortController();
    const s = setup({ before: (kind, step) => { if (kind === "table" && step === "finish") cancel.abort(); } });
    await expect(s.load({ signal: cancel.signal })).rejects.toThrow(new CancelledError("Cancelled."));
    expect(s.events.slice(-2).sort()).toEqual(["snapshot discard", "table discard"]);
    expect(s.events.indexOf("table finish 1 done")).toBeLessThan(s.events.indexOf("table discard"));
    expect(s.left()).toEqual(NOTHING);
  });

  it.each<[Kind, Step]>([["table", "append"], ["snapshot", "append"], ["table", "finish"], ["snapshot", "finish"]])(
    "Excel refuses the %s's %s: the load fails with Excel's error, nothing is left, and nothing is taken back while Excel still works",
    async (kind, step) => {
      const other = gate();
      const s = setup({
        before: (k, st, call) => {
          if (k === kind && st === step && call === 1) return failure(`${kind} ${step} refused`);
          // The other stream's same step is still in Excel when the refusal comes back.
          if (k !== kind && st === step && call === 1) return settle().then(() => other.opened);
        },
      });
      const done = s.load();
      await settle();
      expect(s.events.filter((e) => e.includes("discard"))).toEqual([]);
      other.open();
      await expect(done).rejects.toThrow(`${kind} ${step} refused`);
      const otherKind = kind === "table" ? "snapshot" : "table";
      expect(s.events.indexOf(`${otherKind} ${step} 1 done`)).toBeGreaterThan(-1);
      expect(s.events.indexOf(`${otherKind} ${step} 1 done`)).toBeLessThan(s.events.indexOf("table discard"));
      expect(s.events.indexOf(`${otherKind} ${step} 1 done`)).toBeLessThan(s.events.indexOf("snapshot discard"));
      expect(s.left()).toEqual(NOTHING);
    },
  );

  it("Excel refuses to create the table: the load fails with that refusal and the snapshot created beside it is taken back", async () => {
    const s = setup({ beforeCreate: (kind) => (kind === "table" ? failure("A table cannot overlap another table.") : undefined) });
    await expect(s.load()).rejects.toThrow("A table cannot overlap another table.");
    expect(s.events.filter((e) => e.includes("discard"))).toEqual(["snapshot discard"]);
    expect(s.events.filter((e) => e.includes("append"))).toEqual([]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("the service refuses the first page while Excel still creates the table: both are taken back once created", async () => {
    const created = gate();
    const s = setup({
      beforeCreate: () => created.opened,
      reply: (url) => (pageNumber(url) === 1 ? { status: 400, body: { detail: "bad page" } } : { body: pageOf(url, 3) }),
    });
    const done = s.load();
    await until(() => s.wire.requests.length >= 1 && s.events.length >= 2);
    await settle();
    created.open();
    await expect(done).rejects.toThrow();
    expect(s.events.filter((e) => e.includes("discard")).sort()).toEqual(["snapshot discard", "table discard"]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("pages that arrive while Excel writes an earlier one go to it together, every row of each, in order", async () => {
    const first = gate();
    const s = setup({ before: (kind, step, call) => (step === "append" && call === 1 ? first.opened : undefined) });
    const done = s.load();
    // Pages go a timer task apart (pagination.ts): waited for by count, not by a number of turns.
    await until(() => s.wire.requests.length >= 3);
    await settle();
    expect(s.wire.requests.map((r) => pageNumber(r.url))).toEqual([1, 2, 3]);
    first.open();
    await done;
    // Page 1 alone, then pages 2 and 3 in one append to each table.
    expect(s.events.filter((e) => e.startsWith("table append") && !e.endsWith("done"))).toEqual(["table append 1", "table append 2"]);
    const ids = Array.from({ length: 250 }, (_, i) => `r${i + 1}`);
    expect(tableView(s.excel, TABLE).values("Card ID")).toEqual(ids);
    expect(tableView(s.excel, snapshotTableOf(TABLE)).values("Record ID")).toEqual(ids);
  });

  it("the workbook cannot be read as the load starts: the load fails with Excel's error, asks for no page past the first, and writes nothing", async () => {
    const s = setup();
    s.workbook.readSetting = async () => { throw failure("The workbook is busy."); };
    await expect(s.load()).rejects.toThrow("The workbook is busy.");
    await settle();
    expect(s.wire.requests.map((r) => pageNumber(r.url))).toEqual([1]);
    expect(s.events).toEqual([]);
    expect(s.left()).toEqual(NOTHING);
  });

  it("the service refuses a later page while an earlier one is in Excel: the table is taken back only once Excel answered it", async () => {
    const second = gate();
    const s = setup({
      before: (kind, step, call) => (kind === "table" && step === "append" && call === 2 ? second.opened : undefined),
      reply: async (url) => {
        if (pageNumber(url) === 3) {
          await settle();
          return { status: 400, body: { detail: "bad page" } };
        }
        return { body: pageOf(url, 250) };
      },
    });
    const done = s.load();
    await until(() => s.wire.requests.some((r) => pageNumber(r.url) === 3) && s.events.includes("table append 2"));
    await settle(60);
    expect(s.events.filter((e) => e.includes("discard"))).toEqual([]);
    second.open();
    await expect(done).rejects.toThrow();
    expect(s.events.indexOf("table append 2 done")).toBeGreaterThan(-1);
    expect(s.events.indexOf("table append 2 done")).toBeLessThan(s.events.indexOf("table discard"));
    expect(s.left()).toEqual(NOTHING);
  });
});
