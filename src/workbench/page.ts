/**
 * The workbench page: the real taskpane beside the in-memory Excel, with a ribbon strip wired like the
 * shared runtime's ribbon commands and a grid that behaves like Excel's for what a person does in this
 * product. Everything goes to the service through the same client, governor and workbook port as in Excel.
 * The page is a named Excel (?excel=office-2024; the menu in its header): the add-in gets what that Excel
 * gives it (fake-excel/addin-parts.ts) and sees its requirement sets, as Microsoft's client does.
 */
import { Session } from "../api";
import { refreshData, syncStates } from "../commands/commands";
import { whenReady, type CommandFailure } from "../commands/when-ready";
import "../functions/functions";
import { useSession } from "../functions/runtime";
import { ExcelWorkbook, runSelfTest } from "../sheets/excel";
import { JOURNAL_TABLE } from "../sync";
import { mountTaskpane, type Taskpane } from "../taskpane/app";
import { assertExcelSupported } from "../taskpane/host-support";
import { explain } from "../taskpane/messages";
import { showNotice, showOnly } from "../taskpane/notices";
import { FakeExcel } from "./fake-excel";
import { demoIds } from "./demo-ids";
import { addInParts } from "./fake-excel/addin-parts";
import { inArea } from "./fake-excel/spills";
import { DEFAULT_PROFILE, PROFILES, profileOf } from "./fake-excel/profiles";
import { officeJs } from "./office-js/library";
import { useExcelProfile } from "./office-js/office-host";
import { withOfficeSignIn } from "./office-js/office-sign-in";
import { addValuesAsJson } from "./office-js/values-as-json";
import { mountProfileMenu } from "./profile-menu";
import { editableColumns } from "./editable-columns";
import { Entries } from "./entry";
import { mountRibbon } from "./ribbon";
import { PersonView } from "./person-view";
import type { WorkbookView } from "./workbook-view";

// Microsoft's Office.js client came with a script tag (workbench.html); the add-in reaches the in-memory Excel through it.
addValuesAsJson(officeJs());
const params = new URLSearchParams(location.search);
const asked = params.get("excel") ?? DEFAULT_PROFILE;
const profile = useExcelProfile(withOfficeSignIn(profileOf(PROFILES.find((p) => p.id === asked)?.id ?? DEFAULT_PROFILE), params));
const parts = addInParts(profile);
const excel = new FakeExcel();
const session = new Session(localStorage);
useSession(session);
const workbook = new ExcelWorkbook(excel);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const entries = new Entries(excel, () => view.render(), { functions: parts.overrides });
// Excel reads functions.json beside functions.js: which parameters take a cell's data type whole. Unread, every
// reference is handed as a plain value.
void fetch("functions.json").then((r) => (r.ok ? r.json() : null)).then((metadata) => metadata && entries.useMetadata(metadata), () => undefined);
const view: WorkbookView = new PersonView(excel, entries, {
  grid: byId("grid"), tabs: byId("tabs"), nameBox: byId<HTMLInputElement>("name-box"), bar: byId<HTMLInputElement>("formula"), status: byId("formula-status"),
});
// Tests (and a curious developer) reach the model and the view from the console.
Object.assign(window, { spendWorkbench: { excel, view } });

mountProfileMenu(byId("excel-profile"), profile.id);
let tablesSeen = 0;
const appRoot = byId("app");
/** The shared runtime's set-up (src/shared-runtime.ts): an Excel without the required sets reads one sentence. */
function setUp(): Taskpane {
  assertExcelSupported(Office.context.requirements);
  return mountTaskpane(appRoot, {
    session, workbook, recalculate: () => entries.recalculateAll(), selfTest: () => runSelfTest(excel, `${profile.name}, in memory`, Office.context.requirements),
    defaults: { baseUrl: params.get("baseUrl") ?? `${location.origin}/proxy`, enterpriseId: params.get("enterprise") ?? "" },
    offeredIds: demoIds(),
    onWorkbookChanged: () => {
      // Follow the add-in: show the sheet of the cell it selected (a link to a row), or of the newest table.
      const picked = excel.model.selection;
      excel.model.selection = null;
      const loaded = excel.model.tables.filter((t) => t.sheet.visibility === "Visible" && t.name !== JOURNAL_TABLE);
      if (view.editing) {
        // Leave the person's edit where it is; the new table's tab is there to click.
      } else if (picked) {
        view.showSheet(picked.sheet, { row: picked.area.row, column: picked.area.column });
        // A cell of the editable columns (a load's first State cell): all of them on screen, State first
        // (docs/layout.md, "On a laptop's screen").
        const table = excel.model.tables.find((t) => t.sheet.name === picked.sheet && inArea(t.area, picked.area.row, picked.area.column));
        const editable = table && editableColumns(table);
        if (editable && picked.area.column >= editable.first && picked.area.column <= editable.last) view.revealColumns(picked.area.column, editable.last);
      }
      // A table just loaded: show it (the journal stays on its own tab until the user opens it).
      else if (loaded.length > tablesSeen) view.showSheet(loaded[loaded.length - 1].sheet.name);
      tablesSeen = loaded.length;
      view.render();
    },
  });
}

let taskpane: Taskpane | null = null;
if (!parts.loads) {
  appRoot.textContent = `${profile.name} does not load Spend Sync: it lacks ${parts.missing.map((s) => `${s.name} ${s.version}`).join(" and ")}, which the manifest requires.`;
} else {
  try {
    taskpane = setUp();
  } catch (error) {
    showOnly(appRoot, "setup-error", explain(error));
  }
}

// The ribbon, wired as src/shared-runtime.ts wires Office's: the same command functions, the same wrapper. Where
// Excel ignores the manifest's VersionOverrides, there is no ribbon group (and no functions: see Entries).
const ready = taskpane ? Promise.resolve({ session, taskpane }) : new Promise<never>(() => undefined);
const report = ({ error }: CommandFailure) => showNotice(appRoot, "command-error", explain(error), "error");
if (parts.overrides) mountRibbon(byId("ribbon"), [
  {
    id: "refreshData", label: "Refresh data", title: "Refresh every Spend Sync table, then recalculate every =SPEND formula",
    handler: whenReady(ready, (app) => refreshData(showTaskpane, () => app.taskpane.refreshAll()), report),
  },
  {
    id: "syncStates", label: "Sync states", title: "Open the taskpane on the preview of the table you are looking at",
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
