/**
 * Section 3's Refresh all tables (also the ribbon's Refresh data): every Spend Sync table refreshed with a line
 * each, then the formulas recalculated.
 */
import { listLoadedTables, loadedQuery, refreshAll, writeReconciliationSummary } from "../sheets";
import { h, reveal } from "./dom";
import { loadNeedsAttention, loadSentence } from "./load-sentence";
import { RefreshAllView, askTyped } from "./refresh-views";
import { failed, status } from "./status";
import type { SectionContext } from "./taskpane-state";

/** What Refresh All asks of the rest of the taskpane. */
export interface RefreshAllLinks {
  /** A run starts (true) or ends: every run button of the taskpane disabled and Cancel shown, or all back. */
  running(on: boolean): void;
  /** The preview under section 3 no longer describes the sheet. */
  clearPreview(): void;
  /** The table picker listed again. */
  showTables(): Promise<void>;
  /** Asks Excel to recalculate this workbook's =SPEND formulas (TaskpaneDeps.recalculate), where the host can. */
  recalculate?: () => Promise<void>;
}

export interface RefreshAllPart {
  /** The button's row, the status line and the list of tables, in that order. */
  elements: HTMLElement[];
  /** Refresh All; nothing when a load or a refresh runs already. */
  run(): Promise<void>;
  /** This part's share of `running`: its button disabled while a run goes. */
  running(on: boolean): void;
  /** Brings the status line (the summary, above each table's line) into view; with `focus`, gives it the focus too. */
  reveal(focus: boolean): void;
}

/** Builds Refresh All: its button, status line and list of tables; `links` are what it calls beyond them. */
export function refreshAllPart(ctx: SectionContext, links: RefreshAllLinks): RefreshAllPart {
  const { session, workbook, state } = ctx;
  const refreshAllButton = h("button", { id: "refresh-all", type: "button" }, "Refresh all tables");
  const refreshAllStatus = h("div", { id: "refresh-all-status", role: "status", "aria-live": "polite", tabIndex: -1 });
  const refreshAllView = new RefreshAllView(h("ul", { id: "refresh-all-list", className: "rows" }));

  /** Refresh All: every table, one line each; a table that fails says why and the others go on; then the formulas. */
  async function runRefreshAll(): Promise<void> {
    if (state.loading) return;
    const loading = new AbortController();
    state.loading = loading;
    links.running(true);
    status(refreshAllStatus, "busy", "Refreshing every table…");
    const names = await listLoadedTables(workbook).catch(() => []);
    refreshAllView.start(names);
    let failures = 0;
    let current = "";
    try {
      const client = session.currentClient();
      const outcomes = await refreshAll(client, workbook, {
        signal: loading.signal,
        onTable: (name) => {
          current = name;
          refreshAllView.progress(name, "starting…");
        },
        onProgress: (name, p) => refreshAllView.progress(name, `${p.phase === "fetch" ? "loading" : "writing"} ${p.done.toLocaleString()} of ${p.total === null ? "?" : p.total.toLocaleString()} rows…`),
        onTyped: (typed) => {
          refreshAllView.progress(current, "waiting for your answer above…");
          return askTyped(refreshAllStatus, typed, current);
        },
        onOutcome: (outcome) => refreshAllView.outcome(outcome, loadSentence, loadNeedsAttention),
      });
      for (const outcome of outcomes) {
        if (outcome.kind !== "refreshed") {
          failures++;
          continue;
        }
        if (outcome.report.tableName === state.previewTable) links.clearPreview();
        await writeReconciliationSummary(workbook, outcome.report.tableName, loadedQuery(outcome.report)).catch(() => null);
      }
      session.governor.clear();
      await links.recalculate?.();
      const done = outcomes.length - failures;
      status(refreshAllStatus, failures ? "warn" : "ok", names.length === 0 ? "No Spend Sync table in this workbook yet: load one first." :
        `Refreshed ${done} of ${names.length} table${names.length === 1 ? "" : "s"}${failures ? `; ${failures} not (see below)` : ""}${links.recalculate ? "; formulas recalculated" : ""}.`);
      await links.showTables();
    } catch (error) {
      failed(refreshAllStatus, error);
    } finally {
      state.loading = null;
      links.running(false);
      ctx.changed();
    }
  }
  refreshAllButton.addEventListener("click", () => void runRefreshAll());

  return {
    elements: [h("div", { className: "row" }, refreshAllButton), refreshAllStatus, refreshAllView.element],
    run: runRefreshAll,
    running: (on) => {
      refreshAllButton.disabled = on;
    },
    reveal: (focus) => reveal(refreshAllStatus, focus),
  };
}
