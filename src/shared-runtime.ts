/**
 * Composition root of the shared runtime page (taskpane.html); it sits above the host layers and wires them.
 * The shared runtime's page in Excel: one Session for the taskpane, the ribbon commands and the custom
 * functions (which this bundle also registers, through the metadata plugin's associate calls).
 */
import { Session } from "./api";
import { completing, refreshData, syncStates } from "./commands/commands";
import "./functions/functions";
import { useSession } from "./functions/runtime";
import { ExcelWorkbook, type ExcelHost } from "./sheets";
import { mountTaskpane } from "./taskpane/app";

Office.onReady(() => {
  const session = new Session(localStorage);
  useSession(session);
  const workbook = new ExcelWorkbook(Excel as unknown as ExcelHost);
  const app = mountTaskpane(document.getElementById("app")!, { session, workbook });
  Office.actions.associate("refreshData", completing(() => refreshData(session, () => Excel.run(async (ctx) => {
    ctx.workbook.application.calculate(Excel.CalculationType.full);
    await ctx.sync();
  }))));
  Office.actions.associate("syncStates", completing(() => syncStates(() => Office.addin.showAsTaskpane(), () => app.previewSync())));
});
