/**
 * The taskpane's Load section: what to load (the resource, the scope fields it shows, the expand boxes), then
 * the load itself with its progress bar and Cancel. Its run (withLoad) also carries section 3's Refresh.
 */
import {
  amountNotesText, loadTable, loadedQuery, tableNameOf, writeReconciliationSummary,
  type LoadProgress, type Query, type LoadReport, type SummaryReport, type Workbook,
} from "../sheets";
import { field, h } from "./dom";
import { asksForCard, formQuery, kindOf, loadForm, renderForm } from "./load-form";
import { explain } from "./messages";
import { loadNeedsAttention, loadSentence } from "./load-sentence";
import { mountPickers } from "./pickers";
import type { RecentValues } from "./recent-values";
import { failed, status } from "./status";
import { summarySentence } from "./summary-sentence";
import type { SectionContext } from "./taskpane-state";

/** Progress of a load or a refresh, shown in its own section: the bar above its status line, the count in it. */
function progressIn(progress: HTMLProgressElement, where: HTMLElement): (p: LoadProgress) => void {
  return (p) => {
    if (progress.nextSibling !== where) where.before(progress);
    progress.hidden = false;
    progress.max = Math.max(1, p.total ?? p.done);
    progress.value = p.done;
    where.textContent = `${p.phase === "fetch" ? "Loading" : "Writing"} ${p.done.toLocaleString()} of ${p.total === null ? "?" : p.total.toLocaleString()} rows…`;
  };
}

/** Says in `where` how a load or a refresh went, with the reconciliation summary written after it (movements). */
async function reportLoad(workbook: Workbook, where: HTMLElement, report: LoadReport): Promise<void> {
  let summary: SummaryReport | null = null;
  let summaryError = "";
  try {
    summary = await writeReconciliationSummary(workbook, report.tableName, loadedQuery(report));
  } catch (error) {
    summaryError = ` The reconciliation summary could not be written: ${explain(error)}`;
  }
  // Amounts shown wider than their currency, or in a code ISO 4217 does not list: said, never only in a format.
  const amounts = amountNotesText(report.amounts);
  status(where, loadNeedsAttention(report) || summaryError || amounts ? "warn" : "ok", loadSentence(report) +
    (amounts ? ` ${amounts}` : "") + (summary ? ` ${summarySentence(summary)}` : summaryError));
}

/** After a first load failed or was cancelled: its table, written as pages came, was deleted (sheets/load/first.ts). */
const FIRST_LOAD_UNDONE = "The partial table was removed: nothing was written.";

/** A load or a refresh: what it writes, told of Cancel (`signal`) and asked to report its progress. */
type LoadWork = (signal: AbortSignal, onProgress: (p: LoadProgress) => void) => Promise<LoadReport>;

/** What the Load section asks of the other sections. */
export interface LoadLinks {
  /** A run starts (true) or ends: every run button of the taskpane disabled and Cancel shown, or all back. */
  running(on: boolean): void;
  /** The preview under section 3 no longer describes the sheet. */
  clearPreview(): void;
  /** The table picker listed again, with this table chosen. */
  showTables(selected: string): Promise<void>;
}

export interface LoadSection {
  element: HTMLElement;
  /** A connection now works: the id suggestions again, and the cards listed when movements are chosen. */
  connected(): Promise<void>;
  /** The id suggestions again, from this device and the workbook. */
  refreshSuggestions(): Promise<void>;
  /**
   * A load or a refresh run, its outcome said in `where`; `after` runs once the table is written; `undone` says,
   * after a failure, what became of what the run had written.
   */
  withLoad(where: HTMLElement, work: LoadWork, after?: (report: LoadReport) => void, undone?: () => Promise<string>): Promise<void>;
  /** This section's part of `running`: Load disabled and Cancel shown while a run goes. */
  running(on: boolean): void;
}

/** Builds the Load section; `links` are the other sections' actions a load calls. */
export function loadSection(ctx: SectionContext, recent: RecentValues, links: LoadLinks): LoadSection {
  const { session, workbook } = ctx;
  const pickers = mountPickers(session, workbook, recent, ctx.offeredIds);
  const controls = loadForm(pickers);
  const progress = h("progress", { id: "load-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows loaded" });
  const loadStatus = h("div", { id: "load-status", role: "status", "aria-live": "polite" });
  const loadButton = h("button", { id: "load", className: "primary", type: "submit" }, "Load into a table");
  const cancelButton = h("button", { id: "cancel-load", type: "button", hidden: true }, "Cancel");
  cancelButton.addEventListener("click", () => ctx.state.loading?.abort());
  pickers.card.input.addEventListener("focus", () => void pickers.loadCards());
  /** Shows the chosen resource's fields; the cards are listed for its card picker. */
  const render = () => {
    renderForm(controls);
    if (asksForCard(kindOf(controls.resource)) && session.connection()) void pickers.loadCards();
  };
  controls.resource.addEventListener("change", render);
  render();

  /** A load or a refresh: the table is written, then its reconciliation summary when it holds movements. */
  async function withLoad(where: HTMLElement, work: LoadWork, after?: (report: LoadReport) => void, undone?: () => Promise<string>): Promise<void> {
    const loading = new AbortController();
    ctx.state.loading = loading;
    links.running(true);
    status(where, "busy", "Starting…");
    try {
      const report = await work(loading.signal, progressIn(progress, where));
      // The preview of this table no longer describes the sheet.
      if (report.tableName === ctx.state.previewTable) links.clearPreview();
      after?.(report);
      await reportLoad(workbook, where, report);
      // The loaded table is shown, a new one or one loaded again (Excel leaves a sheet it adds in the background,
      // the summary sheet too; a person who pressed Load from the Summary sheet reads the table next). Its first
      // State cell is selected, where the person edits (Excel scrolls it into view, also on a laptop's screen:
      // docs/layout.md); a table without one (cards, movements), its first cell.
      if (where === loadStatus) await workbook.select(report.tableName, 0, "State").catch(() => undefined);
      await links.showTables(report.tableName);
    } catch (error) {
      failed(where, error, await undone?.().catch(() => ""));
    } finally {
      ctx.state.loading = null;
      links.running(false);
      progress.hidden = true;
      ctx.changed();
    }
  }

  function submitLoad(): void {
    let query: Query | null = null;
    // Whether the table is new, read beside the load (not before: its first page is asked for at once). A first
    // load that fails or is cancelled takes back everything it wrote (sheets/load/first.ts): the status says so.
    let fresh: Promise<boolean> = Promise.resolve(false);
    void withLoad(loadStatus, (signal, onProgress) => {
      query = formQuery(controls, session.currentClient().enterpriseId);
      fresh = workbook.readColumns(tableNameOf(query), []).then((table) => table === null, () => false);
      return loadTable(session.currentClient(), workbook, query, { signal, onProgress });
    }, () => {
      if (query) pickers.remember(query.params);
      void pickers.refresh();
    }, async () => ((await fresh) ? FIRST_LOAD_UNDONE : ""));
  }

  const { resource, expandBox } = controls;
  const element = h("form", { className: "section", "aria-labelledby": "h-load", onsubmit: (e: Event) => { e.preventDefault(); submitLoad(); } },
    h("h2", { id: "h-load" }, "2. Load"),
    field("What", resource), ...[...controls.controls.values()].map((c) => c.element), expandBox,
    h("div", { className: "row" }, loadButton, cancelButton), progress, loadStatus);
  return {
    element, withLoad,
    connected: async () => {
      await pickers.refresh();
      if (asksForCard(kindOf(resource))) void pickers.loadCards();
    },
    refreshSuggestions: () => pickers.refresh(),
    running: (on) => {
      loadButton.disabled = on;
      cancelButton.hidden = !on;
    },
  };
}
