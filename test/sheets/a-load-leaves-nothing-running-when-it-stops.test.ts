/**
 * A load or refresh that stops (Excel refused a write, the service refused a page) leaves nothing running
 * behind it: the pages still travelling are called off, and the reads it started in Excel are waited for
 * before the error is reported, so the person's next click never races the last one. A whole refresh does
 * not read the columns only a refresh of what changed needs.
 */
import { SpendClient } from "../../src/api";
import { loadTable, refreshTable, snapshotTableOf, tableNameOf, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { fakeTransport, pageOf, type Reply } from "../support/fake-transport";
import { gate, settle, until, watch } from "../support/settle";
import type { RawRequest } from "../../src/api/transport";
import { tableView } from "../support/excel";

const PARAMS: LoadParams = { resource: "cards", enterpriseId: "ent-1" };
const TABLE = tableNameOf(PARAMS);
const NOW = () => new Date("2026-11-24T09:30:00Z");
const pageNumber = (url: string) => Number(new URL(url).searchParams.get("page") ?? 1);

function setup(reply: (request: RawRequest) => Reply | Promise<Reply>) {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  const wire = fakeTransport(reply);
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport, concurrency: 4 });
  return { excel, workbook, wire, client };
}

/** Held until the test opens its gate, or refused as the browser refuses a request called off. */
const heldUntil = (request: RawRequest, opened: Promise<void>) =>
  new Promise<void>((resolve, reject) => {
    opened.then(resolve, reject);
    request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
  });

it("a first load that Excel refuses calls off the pages still travelling", async () => {
  const second = gate();
  const never = gate();
  const s = setup(async (request) => {
    const page = pageNumber(request.url);
    if (page >= 2) await heldUntil(request, page === 2 ? second.opened : never.opened);
    return { body: pageOf(request.url, 500) };
  });
  const append = s.workbook.createTable.bind(s.workbook);
  s.workbook.createTable = async (start) => {
    const stream = await append(start);
    return { ...stream, append: async () => { throw new Error("Excel refused the rows."); } };
  };
  const done = loadTable(s.client, s.workbook, PARAMS, { now: NOW });
  // Pages go a timer task apart (pagination.ts): waited for by count, not by a number of turns.
  await until(() => s.wire.requests.length >= 5);
  await settle();
  const travelling = s.wire.requests.filter((r) => pageNumber(r.url) >= 3);
  expect(travelling.map((r) => pageNumber(r.url))).toEqual([3, 4, 5]);
  second.open();
  await expect(done).rejects.toThrow("Excel refused the rows.");
  expect(travelling.map((r) => r.signal.aborted)).toEqual([true, true, true]);
});

describe("a refresh", () => {
  async function loaded() {
    let refuse = false;
    const s = setup((request) => (refuse ? { status: 400, body: { detail: "bad page" } } : { body: pageOf(request.url, 3) }));
    await loadTable(s.client, s.workbook, PARAMS, { now: NOW });
    const reads: string[] = [];
    const readColumns = s.workbook.readColumns.bind(s.workbook);
    let hold: Promise<void> | null = null;
    s.workbook.readColumns = async (table, headers) => {
      reads.push(`${table}: ${headers.join(", ")}`);
      if (hold && table === snapshotTableOf(TABLE)) await hold;
      return readColumns(table, headers);
    };
    return { ...s, reads, refuse: () => (refuse = true), holdSnapshotRead: (until: Promise<void>) => (hold = until) };
  }

  it("whose page the service refuses reports it only once its read of the snapshot is back from Excel", async () => {
    const s = await loaded();
    const snapshotRead = gate();
    s.holdSnapshotRead(snapshotRead.opened);
    s.refuse();
    const done = refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    const state = watch(done);
    await until(() => s.reads.some((r) => r.startsWith(snapshotTableOf(TABLE))) && s.wire.requests.length >= 2);
    await settle();
    expect(state).toEqual({ done: false, failed: null });
    snapshotRead.open();
    await expect(done).rejects.toThrow();
  });

  it("of the whole table reads the snapshot and the table, not the columns a refresh of what changed decides on", async () => {
    const s = await loaded();
    await refreshTable(s.client, s.workbook, TABLE, { now: NOW, wholeTable: true });
    expect(s.reads).toEqual([`${TABLE}: `, `${snapshotTableOf(TABLE)}: Record ID, state, accounted_id, paid_id, paid_at, read_only, digest`]);
    s.reads.length = 0;
    await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
    expect(s.reads).toEqual([
      `${TABLE}: `, `${snapshotTableOf(TABLE)}: Record ID, state, accounted_id, paid_id, paid_at, read_only, digest`, `${TABLE}: Card ID, Sync status`,
    ]);
  });
});

it("a refresh whose table loses a column's name while the pages travel rewrites the whole table, and says why", async () => {
  const s = setup((request) => ({ body: pageOf(request.url, 3) }));
  await loadTable(s.client, s.workbook, PARAMS, { now: NOW });
  const t = tableView(s.excel, TABLE);
  const readColumns = s.workbook.readColumns.bind(s.workbook);
  s.workbook.readColumns = async (table, headers) => {
    // The deciding columns are read while the pages travel: the person renames Billing day just before.
    if (table === TABLE && headers.length > 0 && tableView(s.excel, TABLE).header.includes("Billing day")) {
      s.excel.user.type(t.sheet.name, `${t.letter("Billing day")}1`, "Day");
    }
    return readColumns(table, headers);
  };
  const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
  expect(report.refreshed).toEqual({ whole: true, why: 'its column "Billing day" is missing or twice in the table' });
  expect(report.userColumns).toEqual(["Day"]);
  const after = tableView(s.excel, TABLE);
  expect(after.header).toEqual([...t.header, "Day"]);
  expect(after.values("Card ID")).toEqual(["r1", "r2", "r3"]);
  expect(after.values("Billing day")).toEqual(t.values("Billing day"));
});

it("a refresh whose table loses two columns' names while the pages travel names both (one renamed, one given another column's name)", async () => {
  const s = setup((request) => ({ body: pageOf(request.url, 3) }));
  await loadTable(s.client, s.workbook, PARAMS, { now: NOW });
  const t = tableView(s.excel, TABLE);
  const [second, third] = t.header.slice(1, 3);
  const readColumns = s.workbook.readColumns.bind(s.workbook);
  s.workbook.readColumns = async (table, headers) => {
    if (table === TABLE && headers.length > 0 && tableView(s.excel, TABLE).header.includes(third)) {
      // The person renames one column and types another column's name over a second one's header.
      s.excel.user.type(t.sheet.name, `${t.letter(second)}1`, "Mine");
      s.excel.user.type(t.sheet.name, `${t.letter(third)}1`, t.header[0]);
    }
    return readColumns(table, headers);
  };
  const report = await refreshTable(s.client, s.workbook, TABLE, { now: NOW });
  expect(report.refreshed).toEqual({ whole: true, why: `its columns "${second}", "${third}" are missing or twice in the table` });
});
