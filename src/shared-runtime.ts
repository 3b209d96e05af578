/**
 * Composition root of the shared runtime page (taskpane.html); it sits above the host layers and wires them.
 * The shared runtime's page in Excel: one Session for the taskpane, the ribbon commands and the custom
 * functions (which this bundle also registers, through the metadata plugin's associate calls).
 *
 * Order matters here:
 * 1. The ribbon commands are registered at the top level, synchronously, so that a button pressed while the
 *    page is still starting finds its handler; the handlers wait for the set-up
 *    (https://learn.microsoft.com/office/dev/add-ins/develop/create-addin-commands#sample-code-for-function-commands).
 * 2. The set-up runs once Office.js is ready (https://learn.microsoft.com/office/dev/add-ins/develop/initialize-add-in):
 *    it first checks that there is an Excel (Office.js loaded, the page inside Office) and that it has the
 *    requirement sets (src/requirements.ts), so each failure reads one sentence in the taskpane instead of a
 *    blank page or an error inside a load; then the Session over the guarded, partitioned storage. While
 *    Office.js has not answered, the taskpane says so after STALLED_AFTER_MS.
 */
import { Session } from "./api";
import { refreshData, syncStates } from "./commands/commands";
import { whenReady, type CommandFailure } from "./commands/when-ready";
import "./functions/functions";
import { useSession } from "./functions/runtime";
import { guardedStorage, storageBlockedMessage } from "./guarded-storage";
import { ExcelWorkbook, runSelfTest } from "./sheets/excel";
import { mountTaskpane, type Taskpane } from "./taskpane/app";
import { OFFICE_JS_STALLED, STALLED_AFTER_MS, assertExcelSupported, officeReady } from "./taskpane/host-support";
import { explain } from "./taskpane/messages";
import { hideNotice, showNotice, showOnly } from "./taskpane/notices";
import { messageOf } from "./domain";

interface Runtime {
  session: Session;
  taskpane: Taskpane;
}

const appRoot = (): HTMLElement => document.getElementById("app")!;

/** Office.js's global; undefined where its script tag (taskpane.html) did not load. */
const office = (): typeof Office | undefined => Reflect.get(globalThis, "Office") as typeof Office | undefined;

/** Resolves once Office.js is ready and the taskpane is mounted; rejects with why it could not be. */
const ready: Promise<Runtime> = officeReady(office()).then(setUp);
const stalled = setTimeout(() => showNotice(appRoot(), "setup-stalled", OFFICE_JS_STALLED), STALLED_AFTER_MS);
ready.then(() => hideNotice(appRoot(), "setup-stalled"), (error: unknown) => {
  console.error("Spend Sync could not start:", messageOf(error));
  showOnly(appRoot(), "setup-error", explain(error));
}).finally(() => clearTimeout(stalled));

register("refreshData", whenReady(ready, ({ taskpane }) => refreshData(() => Office.addin.showAsTaskpane(), () => taskpane.refreshAll()), report));
register("syncStates", whenReady(ready, ({ taskpane }) => syncStates(() => Office.addin.showAsTaskpane(), () => taskpane.previewSync()), report));

function setUp(): Runtime {
  assertExcelSupported(Office.context.requirements);
  const root = appRoot();
  const storage = guardedStorage(() => localStorage, {
    partitionKey: Office.context.partitionKey,
    onBlocked: (reason) => showNotice(root, "storage-blocked", storageBlockedMessage(reason)),
  });
  const session = new Session(storage);
  useSession(session);
  const workbook = new ExcelWorkbook(Excel);
  const host = `Excel ${Office.context.diagnostics.version} on ${Office.context.diagnostics.platform}`;
  // Refresh All recalculates this workbook's =SPEND formulas only: not the person's other open workbooks, not
  // their own formulas, not other add-ins' functions (src/sheets/excel/recalc.ts).
  const recalculate = async () => void (await workbook.recalculateSpendFormulas());
  return { session, taskpane: mountTaskpane(root, { session, workbook, storage, recalculate, selfTest: () => runSelfTest(Excel, host, Office.context.requirements) }) };
}

/** A failed command opens the taskpane, which says why (the set-up error is already shown there). */
async function report({ stage, error }: CommandFailure): Promise<void> {
  console.error(`Spend Sync ${stage === "set-up" ? "could not start" : "command failed"}:`, messageOf(error));
  if (stage === "command") showNotice(appRoot(), "command-error", explain(error), "error");
  await Office.addin.showAsTaskpane();
}

/**
 * Office.actions.associate, kept from stopping the page: where Excel ignores the manifest's VersionOverrides
 * (an Excel without the requirement sets), this page runs as a plain taskpane with no commands to bind.
 */
function register(actionId: string, handler: (event: Office.AddinCommands.Event) => void): void {
  if (office() === undefined) return; // no Office.js: the taskpane says so (officeReady)
  try {
    Office.actions.associate(actionId, handler);
  } catch (error) {
    console.warn(`Spend Sync: the ribbon command ${actionId} is not available here:`, messageOf(error));
  }
}
