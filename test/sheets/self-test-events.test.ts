/**
 * "Check this Excel"'s change-event checks (self-test/change-event-checks.ts): they pass in the in-memory Excel,
 * whose events follow docs/excel-checks.md "Change events", and fail, saying why, in an Excel whose events would
 * leave Preview's edit marks wrong; on an Excel without the sets they say the marks are not used.
 */
import { runSelfTest } from "../../src/sheets/excel";
import { FakeExcel } from "../../src/workbench/fake-excel";
import type { EventEntry } from "../../src/workbench/fake-excel/protocol/change-events";
import { DEFAULT_PROFILE, profileOf } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";

const WRITE = "Excel tells of a write in a table";
const DELETE = "Excel tells of rows deleted from a table";
const SORT = "Excel tells of a sort of a table";
const SORT_PASS = "Worksheet.onRowSorted or Table.onChanged ended the marks before the change's own request completed; no Table.onChanged";

/** The three event checks' results, [passed, detail] each, in an Excel made by `excel`. */
async function eventChecks(excel: FakeExcel): Promise<[boolean, string][]> {
  const report = await runSelfTest(excel, "in-memory Excel");
  expect(excel.model.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
  expect(report.results.at(-1)).toMatchObject({ name: "The workbook is left as it was", passed: true });
  return [WRITE, DELETE, SORT].map((name) => {
    const found = report.results.find((r) => r.name === name)!;
    return [found.passed, found.detail];
  });
}

/** An in-memory Excel whose events reach the add-in as `change` makes them (dropped where it gives null). */
function excelWhoseEvents(change: (args: Record<string, unknown>, type: number) => Record<string, unknown> | null): FakeExcel {
  const excel = new FakeExcel();
  const send = excel.host.events.sink!;
  excel.host.events.sink = (entries: EventEntry[]) => send(entries.flatMap((entry) => {
    const args = change(JSON.parse(entry[3]) as Record<string, unknown>, entry[1]);
    return args ? [[entry[0], entry[1], entry[2], JSON.stringify(args), entry[4]] as EventEntry] : [];
  }));
  return excel;
}

afterEach(() => useExcelProfile(DEFAULT_PROFILE));

describe("the self-test's change-event checks", () => {
  it("pass in the in-memory Excel, telling what Excel said and that it came before the change's request completed", async () => {
    expect(await eventChecks(new FakeExcel())).toEqual([
      [true, "told as RangeEdited A3, before the change's own request completed"],
      [true, "told as RowDeleted A4:D4, before the change's own request completed"],
      [true, SORT_PASS],
    ]);
  });

  it("fail in an Excel that cannot deliver events (the registration refused)", async () => {
    const excel = new FakeExcel();
    excel.host.events.sink = null;
    const refused = "Excel refused the change-event registration (Table.onChanged or Worksheet.onRowSorted)";
    expect(await eventChecks(excel)).toEqual([[false, refused], [false, refused], [false, refused]]);
  });

  it("fail in an Excel that accepts the registration but never tells of a change", async () => {
    expect(await eventChecks(excelWhoseEvents(() => null))).toEqual([
      [false, "no Table.onChanged within 20 requests or 5 s of the add-in's write"],
      [false, "a deleted row left the marks complete (Excel told nothing): Preview would take rows by their old places"],
      [false, "a sort left the marks complete (no Table.onChanged, no Worksheet.onRowSorted): Preview would take rows by their old places"],
    ]);
  });

  it("fail on a sort that raises no Worksheet.onRowSorted, even where it raises Table.onChanged edits; report a Table.onChanged beside onRowSorted", async () => {
    // Office.js's event type of Worksheet.onRowSorted (change-events.ts).
    const ROW_SORTED = 19;
    const noSortEvent = await eventChecks(excelWhoseEvents((args, type) => (type === ROW_SORTED ? null : args)));
    expect(noSortEvent.map(([passed]) => passed)).toEqual([true, true, false]);
    expect(noSortEvent[2][1]).toBe("a sort left the marks complete (no Table.onChanged, no Worksheet.onRowSorted): Preview would take rows by their old places");
    // A sort told as an edit of the body (and no onRowSorted): the marks would place it as edited rows, not moved ones.
    const asEdits = new FakeExcel();
    const send = asEdits.host.events.sink!;
    asEdits.host.events.sink = (entries) => send(entries.map((e) => (e[1] === ROW_SORTED ? [e[0], 101, asEdits.model.tables[0].id, JSON.stringify({ address: "A2:D4", changeType: "RangeEdited", source: "Local" }), e[4]] : e)));
    expect((await eventChecks(asEdits))[2]).toEqual([false, "a sort left the marks complete (Table.onChanged RangeEdited A2:D4, no Worksheet.onRowSorted): Preview would take rows by their old places"]);
  });

  it("fail in an Excel that tells a deleted row as an edit, or an edit at another address", async () => {
    const asEdit = excelWhoseEvents((args) => ({ ...args, changeType: "RangeEdited" }));
    expect((await eventChecks(asEdit))[1]).toEqual([false, "a deleted row left the marks complete (Excel told RangeEdited A4:D4): Preview would take rows by their old places"]);
    const elsewhere = excelWhoseEvents((args) => ({ ...args, address: args.changeType === "RangeEdited" ? "A2" : args.address }));
    expect((await eventChecks(elsewhere))[0]).toEqual([false, "the write of A3 was told as RangeEdited A2"]);
  });

  it("fail, counting the requests, in an Excel whose event comes two requests late", async () => {
    const held: EventEntry[][] = [];
    // Each request lets out, before it is answered, the events held since three requests before it (counted from the change, not from the end of the adapter's write).
    const excel = new FakeExcel(undefined, { endpoint: (host) => ({ processQuery: (body, flags) => {
      if (held.length > 0) held.push([]);
      if (held.length > 3) send(held.shift()!);
      return host.processQuery(body, flags);
    } }) });
    const send = excel.host.events.sink!;
    excel.host.events.sink = (entries) => void held.push(entries);
    expect((await eventChecks(excel))[0]).toEqual([false, "the event came 2 requests after the change: Preview, reading the marks one request after it begins, could miss an edit"]);
  });

  it("say the marks are not used on an Excel without ExcelApi 1.10 or 1.13, rather than fail", async () => {
    useExcelProfile({ ...profileOf(DEFAULT_PROFILE), sets: { ...profileOf(DEFAULT_PROFILE).sets, ExcelApi: "1.9" } });
    const report = await runSelfTest(new FakeExcel(), "an old Excel");
    const none = "not available on this Excel (ExcelApi 1.10): no edit marks, every Preview reads every row";
    expect(report.results.filter((r) => r.name === WRITE || r.name === DELETE).map((r) => [r.passed, r.detail])).toEqual([[true, none], [true, none]]);
    useExcelProfile({ ...profileOf(DEFAULT_PROFILE), sets: { ...profileOf(DEFAULT_PROFILE).sets, ExcelApi: "1.12" } });
    const older = await runSelfTest(new FakeExcel(), "an Excel of ExcelApi 1.12");
    expect(older.results.find((r) => r.name === DELETE)).toMatchObject({ passed: true, detail: "not checked on this Excel: it lacks ExcelApi 1.13 (Table.resize), which the check deletes rows with" });
  });
});
