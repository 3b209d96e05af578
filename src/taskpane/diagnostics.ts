/** The taskpane's Diagnostics section: "Check this Excel" runs the self-test and lists every check. */
import type { SelfTestReport } from "../sheets/excel";
import { append, setChildren, h } from "./dom";
import { messageOf } from "../domain";

/** A section that runs `check` on demand and shows its pass/fail list with the Excel it ran in. */
export function diagnosticsSection(check: () => Promise<SelfTestReport>): HTMLElement {
  const summary = h("p", { id: "check-summary", role: "status" });
  const list = h("ul", { id: "check-results", className: "rows" });
  const button = h("button", { id: "check-excel", type: "button" }, "Check this Excel");
  button.addEventListener("click", () => void run());

  async function run(): Promise<void> {
    button.disabled = true;
    summary.className = "busy";
    summary.textContent = "Checking: writing test data to a temporary hidden sheet…";
    setChildren(list);
    try {
      const report = await check();
      summary.className = report.failed === 0 ? "ok" : "error";
      summary.textContent = `${report.passed} of ${report.results.length} checks passed in ${report.host}.` +
        (report.failed === 0 ? " The temporary sheets were deleted." : " Send this list to your Spend Sync contact.");
      for (const result of report.results) {
        append(list, h("li", { className: result.passed ? "ok" : "error" },
          h("strong", {}, `${result.passed ? "✓ Pass" : "✗ Fail"}: ${result.name}`), " — ", result.detail,
          h("div", { className: "hint" }, result.proves)));
      }
      // What this Excel reports about the functions' data types: information, not a pass or a fail.
      for (const feature of report.features) {
        append(list, h("li", { className: "info" },
          h("strong", {}, `${feature.available ? "Has" : "Lacks"} ${feature.set}: ${feature.name}`), " — ", feature.effect));
      }
    } catch (error) {
      summary.className = "error";
      summary.textContent = `The check could not run: ${messageOf(error)}`;
    } finally {
      button.disabled = false;
    }
  }

  return h("details", { className: "section", id: "diagnostics" },
    h("summary", {}, "Diagnostics"),
    h("p", { className: "hint" }, "Writes the kinds of data Spend Sync writes to a temporary hidden sheet, reads them back, compares every value and format, then deletes the sheet."),
    h("div", { className: "row" }, button), summary, list);
}
