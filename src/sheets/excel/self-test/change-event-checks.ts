/**
 * The self-test's checks of Excel's change events (issue 46), on which Preview's edit marks rest (edit-marks.ts):
 * docs/excel-checks.md, "Change events", takes readings Microsoft does not spell out; here the Excel the add-in runs
 * in shows whether they hold. Each check watches the run's test table with the add-in's own marks
 * (`ExcelWorkbook.editMarks`) and with a handler of its own that records what Excel told, changes the table through
 * the adapter, and counts the requests until Excel's event arrived: the marks are read one request after Preview
 * begins (`MarksWatch.check`), so an event later than that could let Preview miss an edit made just before it.
 * Where Excel lacks the sets, the marks are never used (every Preview reads in full) and the check says so.
 */
import type { ExcelHost, XContext } from "../api";
import { RUN_OPTIONS } from "../runs";
import type { Probe } from "./probe";
import type { MarksWatch } from "../../port/edit-marks";

/** What Excel told the check's own handler: each event's change type and address, in order. */
type Heard = { changeType: string; address: string }[];

/** How long the check waits for an event: requests, and real time (this runs in Excel, not under test timers). */
const MAX_SYNCS = 20;
const MAX_WAIT_MS = 5_000;
/** Preview reads the marks after one request of its own: an event must be in by then. */
const SYNCS_ALLOWED = 1;

const has = (version: string) => typeof Office !== "undefined" && Office.context?.requirements?.isSetSupported("ExcelApi", version) === true;

/** A pass that reports what it measured, or a failure's difference. */
export type EventOutcome = string | null | { note: string };

const notAvailable = (set: string): EventOutcome => ({ note: `not available on this Excel (ExcelApi ${set}): no edit marks, every Preview reads every row` });

/** The add-in's own write of one body cell: Excel tells it (RangeEdited, inside the table) and the marks hold the row. */
export async function ownWriteMarked(probe: Probe): Promise<EventOutcome> {
  if (!has("1.10")) return notAvailable("1.10");
  return withWatchedTable(probe, async (heard, marks) => {
    await probe.workbook.writeCells(probe.tableName, [{ row: 1, column: 0, value: "edited" }]);
    const syncs = await syncsUntil(probe.excel, probe.sheetName, () => heard.length > 0);
    if (syncs === null) return `no Table.onChanged within ${MAX_SYNCS} requests or ${MAX_WAIT_MS / 1000} s of the add-in's write`;
    if (heard[0].changeType !== "RangeEdited" || heard[0].address.replace(/\$/g, "").split("!").pop() !== "A3") return `the write of A3 was told as ${told(heard)}`;
    if (syncs > SYNCS_ALLOWED) return `the event came ${when(syncs)}: Preview, reading the marks one request after it begins, could miss an edit`;
    const rows = marks.changedRows();
    if (!rows || rows.join() !== "1") return `the marks hold ${rows ? `rows [${rows.join()}]` : "nothing (incomplete)"} after a write of body row 2`;
    return { note: `told as ${told(heard)}, ${when(syncs)}` };
  });
}

/** Body rows deleted by the add-in (the table shrunk, ExcelApi 1.13): Excel tells it, and the marks are no longer complete. */
export async function deletedRowsUnmark(probe: Probe): Promise<EventOutcome> {
  if (!has("1.10")) return notAvailable("1.10");
  if (!has("1.13")) return { note: "not checked on this Excel: it lacks ExcelApi 1.13 (Table.resize), which the check deletes rows with" };
  return withWatchedTable(probe, async (heard, marks) => {
    await probe.excel.run(RUN_OPTIONS, async (context: XContext) => {
      // Three body rows become two: the last row leaves the table.
      context.workbook.tables.getItem(probe.tableName).resize(`'${probe.sheetName}'!A1:D3`);
      await context.sync();
    });
    const syncs = await syncsUntil(probe.excel, probe.sheetName, () => marks.changedRows() === null);
    if (syncs === null) return `a deleted row left the marks complete (Excel told ${told(heard)}): Preview would take rows by their old places`;
    if (syncs > SYNCS_ALLOWED) return `the marks learned of the deleted row only ${when(syncs)} (Excel told ${told(heard)})`;
    return { note: `told as ${told(heard)}, ${when(syncs)}` };
  });
}

/** A sort of the table by the add-in (Table.sort): the marks must become incomplete, whatever else Excel tells. */
export async function sortUnmarks(probe: Probe): Promise<EventOutcome> {
  if (!has("1.10")) return notAvailable("1.10");
  return withWatchedTable(probe, async (heard, marks) => {
    await probe.excel.run(RUN_OPTIONS, async (context: XContext) => {
      // Amounts 1, 2, 3 sorted descending: every body row moves but the middle one.
      context.workbook.tables.getItem(probe.tableName).sort.apply([{ key: 1, ascending: false }]);
      await context.sync();
    });
    const syncs = await syncsUntil(probe.excel, probe.sheetName, () => marks.changedRows() === null);
    // Table.onChanged for a sort is reported, not required: the ledger's strict reading says Excel raises none.
    const onChanged = heard.length === 0 ? "no Table.onChanged" : `Table.onChanged ${told(heard)}`;
    if (syncs === null) return `a sort left the marks complete (${onChanged}, no Worksheet.onRowSorted): Preview would take rows by their old places`;
    if (syncs > SYNCS_ALLOWED) return `the marks learned of the sort only ${when(syncs)} (${onChanged})`;
    return { note: `Worksheet.onRowSorted or Table.onChanged ended the marks ${when(syncs)}; ${onChanged}` };
  });
}

/**
 * Runs `body` on a fresh three-row test table watched by the add-in's marks and by a handler that records each
 * event; the handler is removed after (the marks' handlers go with the table, when the run's sheets are deleted).
 */
async function withWatchedTable(probe: Probe, body: (heard: Heard, marks: MarksWatch) => Promise<EventOutcome>): Promise<EventOutcome> {
  await probe.write([["a", 1, 1, 1], ["b", 2, 2, 2], ["c", 3, 3, 3]]);
  const heard: Heard = [];
  const handler = await probe.excel.run(RUN_OPTIONS, async (context: XContext) => {
    const added = context.workbook.tables.getItem(probe.tableName).onChanged.add(async (event) => void heard.push({ changeType: event.changeType, address: event.address }));
    await context.sync();
    return added;
  }).catch(() => null);
  try {
    // The marks' snapshot does not exist here: a table of no snapshot is watched alone (edit-marks.ts).
    const marks = await probe.workbook.editMarks.watch(probe.tableName, `${probe.tableName}_none`);
    if (!handler || !marks) return "Excel refused the change-event registration (Table.onChanged or Worksheet.onRowSorted)";
    return await body(heard, marks);
  } finally {
    if (handler) {
      handler.remove();
      await handler.context.sync().catch(() => undefined);
    }
  }
}

const told = (heard: Heard) => heard.map((e) => `${e.changeType} ${e.address}`).join(", ") || "nothing";
const when = (syncs: number) => (syncs === 0 ? "before the change's own request completed" : `${syncs} request${syncs === 1 ? "" : "s"} after the change`);

/** How many requests after the last one it took until `arrived`, or null when it did not within the bounds. */
async function syncsUntil(excel: ExcelHost, sheetName: string, arrived: () => boolean): Promise<number | null> {
  return excel.run(RUN_OPTIONS, async (context: XContext) => {
    const started = Date.now();
    for (let syncs = 0; syncs <= MAX_SYNCS && Date.now() - started <= MAX_WAIT_MS; syncs++) {
      if (arrived()) return syncs;
      // A sync with nothing queued sends no request: a load makes it one round trip to Excel.
      context.workbook.worksheets.getItemOrNullObject(sheetName).load("name");
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- counting requests until the event arrives is the check
      await context.sync();
    }
    return null;
  });
}
