/**
 * The taskpane's section 3, "Refresh and sync", over the table picked in it: Refresh selected table here, Refresh
 * all tables (refresh-all.ts), and Preview then Confirm sync (sync-preview.ts).
 */
import type { KeyValueStorage } from "../api";
import { listLoadedTables, refreshTable } from "../sheets";
import { field, setChildren, h } from "./dom";
import type { LoadSection } from "./load-section";
import { refreshAllPart } from "./refresh-all";
import { askTyped } from "./refresh-views";
import { status } from "./status";
import { syncPart, type SyncPart } from "./sync-preview";
import { chooseTable } from "./table-in-view";
import type { SectionContext } from "./taskpane-state";

/** What section 3 is given by the taskpane. */
export interface TablesDeps {
  /** The Load section's run, which a Refresh goes through (progress, Cancel, the summary after it). */
  withLoad: LoadSection["withLoad"];
  /** A run starts (true) or ends: every run button of the taskpane disabled and Cancel shown, or all back. */
  running(on: boolean): void;
  /** Keeps the journal name on this device. */
  storage: KeyValueStorage;
  /** The Office identity of the person: the journal's "By" when no name is given. */
  identity?: () => Promise<string | null>;
  /** Asks Excel to recalculate this workbook's =SPEND formulas after Refresh All (TaskpaneDeps.recalculate). */
  recalculate?: () => Promise<void>;
}

export interface TablesSection {
  element: HTMLElement;
  /** The picker lists the loaded tables again, keeping the table picked (or picking `selected`). */
  renderTables(selected?: string): Promise<void>;
  /** Empties the preview (it no longer describes the sheet). */
  clearPreview(): void;
  /** Preview sync of the picked table. */
  showPreview(): Promise<void>;
  /** A team batch's sync ended: its outcome in place of the preview (SyncPart.showReport). */
  showSyncReport: SyncPart["showReport"];
  /**
   * The ribbon's Sync states: the preview of the table the person is looking at (table-in-view.ts), picked in the
   * taskpane too, with the sentence that names it, brought into view and focused.
   */
  previewInView(): Promise<void>;
  /** Refresh All (the taskpane's button). */
  refreshAll(): Promise<void>;
  /** The ribbon's Refresh data: Refresh All with its status brought into view, and focused once it is done. */
  refreshAllInView(): Promise<void>;
  /** This section's share of `running`: Refresh and Refresh All disabled while a run goes. */
  running(on: boolean): void;
}

/** Builds section 3 over its table picker; Refresh goes through the Load section's run (`deps.withLoad`). */
export function tablesSection(ctx: SectionContext, deps: TablesDeps): TablesSection {
  const { session, workbook, state } = ctx;
  const tables = h("select", { id: "table" });
  const discard = h("input", { id: "discard-edits", type: "checkbox" });
  const refreshButton = h("button", { id: "refresh", type: "button" }, "Refresh selected table");
  const refreshStatus = h("div", { id: "refresh-status", role: "status", "aria-live": "polite" });
  const sync = syncPart(ctx, () => tables.value, deps.storage, deps.identity);
  const refreshAll = refreshAllPart(ctx, { running: deps.running, clearPreview: sync.clear, showTables: () => renderTables(), recalculate: deps.recalculate });

  async function renderTables(selected?: string): Promise<void> {
    const names = await listLoadedTables(workbook);
    const keep = selected ?? tables.value;
    setChildren(tables, ...(names.length ? names.map((n) => h("option", { value: n }, n)) : [h("option", { value: "" }, "(no table loaded yet)")]));
    if (names.includes(keep)) tables.value = keep;
    tablePicked();
  }
  /** The preview belongs to one table: picking another clears it. */
  function tablePicked(): void {
    if (state.previewTable !== null && tables.value !== state.previewTable) sync.clear();
  }
  tables.addEventListener("change", tablePicked);

  async function previewInView(): Promise<void> {
    // While a sync runs, the ribbon's Sync states shows that run (a new preview would let Confirm start a second one).
    if (state.syncing) return void sync.reveal();
    const names = await listLoadedTables(workbook);
    const view = (await workbook.lookedAt?.().catch(() => null)) ?? null;
    const choice = chooseTable(view, names, tables.value);
    if (choice) {
      tables.value = choice.table;
      tablePicked();
    }
    await sync.show(choice?.note);
    sync.reveal();
  }
  refreshButton.addEventListener("click", () => {
    if (!tables.value) return void status(refreshStatus, "error", "Load a table first.");
    const discardEditsNow = discard.checked;
    // Discarding is for this refresh only: the box is unticked so the next refresh keeps edits again.
    discard.checked = false;
    const tableName = tables.value;
    void deps.withLoad(refreshStatus, (signal, onProgress) => refreshTable(session.currentClient(), workbook, tableName, {
      signal, onProgress, discardEdits: discardEditsNow, onTyped: (typed) => {
        status(refreshStatus, "warn", "Refresh needs your answer below before it writes anything.");
        return askTyped(refreshStatus, typed, tableName);
      },
    }));
  });

  const element = h("section", { className: "section", "aria-labelledby": "h-sync" },
    h("h2", { id: "h-sync" }, "3. Refresh and sync"),
    field("Table", tables), sync.nameField,
    h("div", { className: "row" }, refreshButton, h("label", { className: "check" }, discard, " discard my unsynced edits")), refreshStatus,
    ...refreshAll.elements, ...sync.elements);
  return {
    element, renderTables, clearPreview: sync.clear, showPreview: () => sync.show(), showSyncReport: sync.showReport, previewInView, refreshAll: refreshAll.run,
    refreshAllInView: async () => {
      refreshAll.reveal(false);
      await refreshAll.run();
      refreshAll.reveal(true);
    },
    running: (on) => {
      refreshButton.disabled = on;
      refreshAll.running(on);
    },
  };
}
