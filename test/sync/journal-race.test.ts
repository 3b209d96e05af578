/**
 * Two runs that both find no journal create it once (issue 25: 48 rows came back "Not sent: … sheet 'Spend
 * Sync journal' already exists"). Runs through one Workbook wait for each other's creation; a run through
 * another Workbook over the same Excel (the ribbon's beside the taskpane's) finds the journal made meanwhile
 * and appends to it. Every line of both runs is in the one journal; no row is "Not sent" for it.
 */
import { type Workbook } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { JOURNAL_SHEET, JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

/** Two tables (expenses and allowances), 24 approved records of each edited to accounted. */
async function twoEditedTables() {
  const expenses = await loadFor(f, { resource: "expenses", state: "approved" });
  const allowances = await loadFor(f, { resource: "allowances", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved").slice(0, 24);
  const a = f.sandbox.store.allowancesOf(f.sub).filter((x) => x.state === "approved").slice(0, 24);
  e.forEach((x, i) => edit(f, expenses, x.id, { State: "accounted", "Accounted ID": `ACC-E-${i}` }));
  a.forEach((x, i) => edit(f, allowances, x.id, { State: "accounted", "Accounted ID": `ACC-A-${i}` }));
  return { expenses, allowances, ids: [...e, ...a].map((x) => x.id) };
}

it.each([
  ["through one Workbook", () => f.workbook],
  ["through two Workbooks over one Excel", () => new ExcelWorkbook(f.excel) as Workbook],
])("two runs creating the journal at once (%s): one journal, every line in it, 0 rows not sent", async (_how, second) => {
  const { expenses, allowances, ids } = await twoEditedTables();
  expect(f.excel.model.table(JOURNAL_TABLE)).toBeFalsy();
  const other = second();
  const [p1, p2] = await Promise.all([previewSync(f.workbook, expenses), previewSync(other, allowances)]);
  const [r1, r2] = await Promise.all([runSync(f.client, f.workbook, p1), runSync(f.client, other, p2)]);
  for (const r of [r1, r2]) {
    expect(r.stopped).toBeNull();
    expect(r.counts).toMatchObject({ applied: 24, "not-sent": 0 });
    expect(r.results.filter((x) => /already exists/.test(x.message))).toEqual([]);
  }
  expect(f.excel.model.sheets.filter((s) => s.name.startsWith(JOURNAL_SHEET)).map((s) => s.name)).toEqual([JOURNAL_SHEET]);
  const journal = tableView(f.excel, JOURNAL_TABLE);
  const lines = journal.rows.map((row) => [String(row[journal.column("Record ID")]), String(row[journal.column("Outcome")])]);
  for (const id of ids) expect(lines.filter(([line]) => line === id).map(([, outcome]) => outcome)).toEqual(["sending", "applied"]);
  expect(new Set(journal.values("Run"))).toEqual(new Set([r1.runId, r2.runId]));
});

/** A Workbook over the fixture's Excel whose first journal append meets a journal made meanwhile elsewhere. */
function racedByAnotherRuntime(outcome: "made it" | "made nothing"): Workbook {
  const real = new ExcelWorkbook(f.excel);
  const elsewhere = new ExcelWorkbook(f.excel);
  let first = true;
  return new Proxy(real, {
    get(target, name, receiver) {
      if (name !== "appendRows") return Reflect.get(target, name, receiver);
      return async (write: Parameters<Workbook["appendRows"]>[0]) => {
        if (!first) return target.appendRows(write);
        first = false;
        // Another add-in runtime (a co-author's) creates the journal with a line of its own, and this
        // creation then fails as Excel fails it.
        if (outcome === "made it") await elsewhere.appendRows({ ...write, rows: [write.rows[0].map((cell, i) => (i === 1 ? "their-run" : cell))] });
        throw new Error(`A sheet named '${JOURNAL_SHEET}' already exists.`);
      };
    },
  });
}

it("a creation that fails because the journal appeared meanwhile appends to it; any other failure still stops the run", async () => {
  const { expenses } = await twoEditedTables();
  const raced = racedByAnotherRuntime("made it");
  const report = await runSync(f.client, raced, await previewSync(raced, expenses));
  expect(report.counts).toMatchObject({ applied: 24, "not-sent": 0 });
  const journal = tableView(f.excel, JOURNAL_TABLE);
  expect(journal.values("Run").filter((run) => run === "their-run")).toHaveLength(1);
  expect(journal.values("Run").filter((run) => run === report.runId)).toHaveLength(48);
});

it("a creation that fails with no journal made meanwhile sends nothing, and says why", async () => {
  const { expenses } = await twoEditedTables();
  const raced = racedByAnotherRuntime("made nothing");
  const report = await runSync(f.client, raced, await previewSync(raced, expenses));
  expect(report.counts).toMatchObject({ applied: 0, "not-sent": 24 });
  expect(report.results[0].message).toBe(`The journal could not be written, so nothing more was sent: A sheet named '${JOURNAL_SHEET}' already exists.`);
});
