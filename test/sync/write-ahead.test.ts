/**
 * The write-ahead rule, with an Excel slower than the service (a round trip of 15 ms against a loopback
 * sandbox): each PATCH leaves only once its "sending" line is in the workbook's journal.
 */
import { loadTable, type LoadParams } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { Recorder } from "./recorder";
import { clientWith } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

it("no PATCH leaves before its journal line, even when every Excel round trip is slower than the service", async () => {
  f = await withExcel();
  const excel = new FakeExcel(undefined, { latencyMs: 15 });
  const workbook = new ExcelWorkbook(excel);
  const sendingLines = (id: string) => {
    const journal = excel.model.table(JOURNAL_TABLE);
    if (!journal) return 0;
    const j = tableView(excel, JOURNAL_TABLE);
    return j.rows.filter((r) => r[j.column("Record ID")] === id && r[j.column("Outcome")] === "sending").length;
  };
  const recorder = new Recorder(() => excel.stats.syncs, sendingLines);
  const client = clientWith(f, (t) => recorder.wrap(t));
  const report = await loadTable(client, workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" } as LoadParams);
  const t = tableView(excel, report.tableName);
  const ids = t.values("Expense ID").slice(0, 30).map(String);
  ids.forEach((id, i) => {
    const row = t.values("Expense ID").indexOf(id);
    excel.user.paste(t.sheet.name, t.address("State", row), "accounted");
    excel.user.paste(t.sheet.name, t.address("Accounted ID", row), `ACC-WA-${i}`);
  });
  const result = await runSync(client, workbook, await previewSync(workbook, report.tableName));
  expect(result.counts.applied).toBe(30);
  expect(recorder.log.filter((e) => e.method === "PATCH")).toHaveLength(30);
  expect(recorder.patchesAheadOfJournal()).toEqual([]);
});
