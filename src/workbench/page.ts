/**
 * The workbench page: the real taskpane beside the in-memory Excel, with a ribbon strip wired like the
 * shared runtime's ribbon commands and a grid that behaves like Excel's for what a person does in this
 * product. Everything goes to the service through the same client, governor and workbook port as in Excel.
 */
import { Session } from "../api";
import { refreshData, syncStates } from "../commands/commands";
import { whenReady, type CommandFailure } from "../commands/when-ready";
import "../functions/functions";
import { useSession } from "../functions/runtime";
import { ExcelWorkbook, runSelfTest } from "../sheets";
import { JOURNAL_TABLE } from "../sync";
import { mountTaskpane, type Taskpane } from "../taskpane/app";
import { explain } from "../taskpane/messages";
import { showNotice } from "../taskpane/notices";
import { FakeExcel } from "./fake-excel";
import { officeJs } from "./office-js/library";
import { addValuesAsJson } from "./office-js/values-as-json";
import { Entries } from "./entry";
import { mountRibbon } from "./ribbon";
import { WorkbookView } from "./workbook-view";

// Microsoft's Office.js client came with a script tag (workbench.html); the add-in reaches the in-memory Excel through it.
addValuesAsJson(officeJs());
const excel = new FakeExcel();
const session = new Session(localStorage);
// The workbench plays an Excel with data types (ExcelApi 1.16): formatted numbers and entity values.
useSession(session, { dataTypes: true });
const workbook = new ExcelWorkbook(excel);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const entries = new Entries(excel, () => view.render());
const view: WorkbookView = new WorkbookView(excel, entries, {
  grid: byId("grid"), tabs: byId("tabs"), nameBox: byId<HTMLInputElement>("name-box"), bar: byId<HTMLInputElement>("formula"), status: byId("formula-status"),
});
// Tests (and a curious developer) reach the model and the view from the console.
Object.assign(window, { spendWorkbench: { excel, view } });

let tablesSeen = 0;
const appRoot = byId("app");
const params = new URLSearchParams(location.search);
const taskpane: Taskpane = mountTaskpane(appRoot, {
  session, workbook, selfTest: () => runSelfTest(excel, "the workbench's in-memory Excel"),
  defaults: { baseUrl: params.get("baseUrl") ?? `${location.origin}/proxy`, enterpriseId: params.get("enterprise") ?? "" },
  onWorkbookChanged: () => {
    // Follow the add-in: show the sheet of the cell it selected (a link to a row), or of the newest table.
    const picked = excel.model.selection;
    excel.model.selection = null;
    const loaded = excel.model.tables.filter((t) => t.sheet.visibility === "Visible" && t.name !== JOURNAL_TABLE);
    if (view.editing) {
      // Leave the person's edit where it is; the new table's tab is there to click.
    } else if (picked) view.showSheet(picked.sheet, { row: picked.area.row, column: picked.area.column });
    // A table just loaded: show it (the journal stays on its own tab until the user opens it).
    else if (loaded.length > tablesSeen) view.showSheet(loaded[loaded.length - 1].sheet.name);
    tablesSeen = loaded.length;
    view.render();
  },
});

// The ribbon, wired as src/shared-runtime.ts wires Office's: the same command functions, the same wrapper.
const ready = Promise.resolve({ session, taskpane });
const report = ({ error }: CommandFailure) => showNotice(appRoot, "command-error", explain(error), "error");
mountRibbon(byId("ribbon"), [
  {
    id: "refreshData", label: "Refresh data", title: "Clear the cached =SPEND results and recalculate every =SPEND formula",
    handler: whenReady(ready, (app) => refreshData(app.session, () => entries.recalculateAll()), report),
  },
  {
    id: "syncStates", label: "Sync states", title: "Open the taskpane on the preview of the chosen table",
    handler: whenReady(ready, (app) => syncStates(showTaskpane, () => app.taskpane.previewSync()), report),
  },
]);

/** The workbench's Office.addin.showAsTaskpane: the pane is always open, so bring it into view. */
async function showTaskpane(): Promise<void> {
  byId("app").closest("aside")?.scrollIntoView({ block: "nearest" });
}

// Redraw whenever the add-in synced something to the in-memory Excel.
let drawn = -1;
setInterval(() => {
  if (excel.stats.syncs !== drawn) {
    drawn = excel.stats.syncs;
    view.render();
  }
}, 250);
view.render();
view.focus();
