/**
 * The key refused on one record's PATCH stops the run where it is: a record read meanwhile is not sent, the
 * records not reached are not read, each of their rows and journal lines gives the key's refusal as the
 * reason, and the records already applied are not read again (the key that would read them was refused). A run
 * already cancelled stays cancelled when a PATCH on its way comes back refused for the key.
 */
import type { RawRequest } from "../../src/api";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const NOW = () => new Date("2026-11-21T10:00:00Z");
const idOf = (r: RawRequest) => /\/expenses\/([0-9a-f-]{36})\//.exec(r.url)?.[1] ?? "";
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("refused on the second record: the third, read meanwhile, is not sent; the last two are not read; the first is not read again", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b, c, d, e] = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved");
  for (const [i, x] of [a, b, c, d, e].entries()) edit(f, table, x.id, { State: "accounted", "Accounted ID": `ACC-${i}` });
  const preview = await previewSync(f.workbook, table);

  let aAnswered!: () => void;
  const aDone = new Promise<void>((r) => (aAnswered = r));
  let bRefused!: () => void;
  const bDone = new Promise<void>((r) => (bRefused = r));
  const requests: string[] = [];
  const name = new Map([[a.id, "a"], [b.id, "b"], [c.id, "c"], [d.id, "d"], [e.id, "e"]]);
  const client = clientWith(f, (inner) => async (request) => {
    const who = name.get(idOf(request)) ?? "list";
    requests.push(`${request.method} ${who}`);
    if (request.method === "PATCH" && who === "b") {
      await aDone;
      await later(20);
      setTimeout(bRefused, 20);
      return { status: 401, headers: new Headers({ "content-type": "application/json" }), text: JSON.stringify({ status: 401, error: "Invalid API key" }) };
    }
    if (request.method === "GET" && who === "c") await bDone;
    const response = await inner(request);
    if (request.method === "PATCH" && who === "a") aAnswered();
    return response;
  });
  const report = await runSync(client, f.workbook, preview, { now: NOW, concurrency: 2, runId: "r", by: "Ana" });

  const refused = `The API key was refused for enterprise ${f.enterprise.id}. Check the key and the enterprise id in the connection settings. ` +
    'The service said: "Invalid API key".';
  expect(report.stopped).toBe("auth");
  expect(report.summary).toBe(`1 applied, 4 not sent. ${refused}`);
  expect(report.results.map((r) => [name.get(r.id), r.outcome])).toEqual(expect.arrayContaining([
    ["a", "applied"], ["b", "not-sent"], ["c", "not-sent"], ["d", "not-sent"], ["e", "not-sent"],
  ]));
  // c was read, never sent; d and e never read; a not read again after the run.
  expect(requests.filter((r) => r !== "GET list").sort()).toEqual(["GET a", "GET b", "GET c", "PATCH a", "PATCH b"]);
  for (const x of [b, c, d, e]) {
    expect(f.sandbox.store.transitionsOf(x.id)).toHaveLength(0);
    expect(cellOf(f, table, x.id, "Sync status")).toBe(`Not sent 2026-11-21 10:00 UTC: ${refused}`);
  }
  const j = tableView(f.excel, JOURNAL_TABLE);
  const lines = (x: { id: string }) => j.rows.filter((r) => r[j.column("Record ID")] === x.id)
    .map((r) => [r[j.column("Request")], r[j.column("HTTP status")], r[j.column("Outcome")], r[j.column("Message")]]);
  const sending = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";
  expect(lines(b)).toEqual([["PATCH", "", "sending", sending], ["PATCH", 401, "not-sent", refused]]);
  expect(lines(c)).toEqual([
    ["PATCH", "", "sending", sending],
    ["read (GET)", 200, "not-sent", `Read the record before sending: it still reads approved, as loaded. Then the run stopped, so nothing was sent: ${refused}`],
  ]);
  for (const x of [d, e]) expect(lines(x)).toEqual([["PATCH", "", "sending", sending], ["none", "", "not-sent", refused]]);
});

it("Cancel pressed first, then a PATCH already on its way refused for the key: the run stays cancelled, that row gives the key's refusal", async () => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved");
  edit(f, table, a.id, { State: "accounted", "Accounted ID": "ACC-A" });
  edit(f, table, b.id, { State: "accounted", "Accounted ID": "ACC-B" });
  const preview = await previewSync(f.workbook, table);
  const controller = new AbortController();
  const signal = (): [Promise<void>, () => void] => {
    let open!: () => void;
    return [new Promise<void>((r) => (open = r)), () => open()];
  };
  const [bFetched, fetchedB] = signal();
  const [cancelled, cancel] = signal();
  const [bReturned, returnB] = signal();
  const client = clientWith(f, (inner) => async (request) => {
    const id = idOf(request);
    if (request.method === "PATCH" && id === a.id) {
      await bFetched;
      controller.abort(); // Cancel pressed while a's PATCH is on its way and b's read is answered
      cancel();
      await bReturned;
      await later(20);
      return { status: 401, headers: new Headers({ "content-type": "application/json" }), text: JSON.stringify({ status: 401, error: "Invalid API key" }) };
    }
    const response = await inner(request);
    if (request.method === "GET" && id === b.id) {
      fetchedB();
      await cancelled;
      returnB();
    }
    return response;
  });
  const report = await runSync(client, f.workbook, preview, { now: NOW, concurrency: 2, signal: controller.signal });
  const refused = `The API key was refused for enterprise ${f.enterprise.id}. Check the key and the enterprise id in the connection settings. ` +
    'The service said: "Invalid API key".';
  expect(report.stopped).toBe("cancelled");
  expect(report.summary).toBe("2 not sent. Cancelled: the rest was not sent.");
  expect(cellOf(f, table, a.id, "Sync status")).toBe(`Not sent 2026-11-21 10:00 UTC: ${refused}`);
  expect(cellOf(f, table, b.id, "Sync status")).toBe("Not sent 2026-11-21 10:00 UTC: Cancelled: the rest was not sent.");
  for (const x of [a, b]) expect(f.sandbox.store.transitionsOf(x.id)).toHaveLength(0);
});
