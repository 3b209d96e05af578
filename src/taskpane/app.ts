/**
 * The taskpane: connect -> load -> edit -> preview -> sync. The same app runs in Excel (over Office.js) and in
 * the workbench (over the in-memory Excel); it only calls sheets/ and sync/, through the Workbook port.
 * Each section is a file of its own (connection, load, tables, settings, diagnostics); this one builds them
 * over one TaskpaneState and wires the few calls one section makes to another.
 */
import type { KeyValueStorage, Session } from "../api";
import { guardedStorage, officePartitionKey } from "../guarded-storage";
import type { Workbook } from "../sheets";
import type { SelfTestReport } from "../sheets/excel";
import { cardCloseSection } from "./card-close-section";
import { connectionSection } from "./connection-section";
import { diagnosticsSection } from "./diagnostics";
import { importSection } from "./import-section";
import { append } from "./dom";
import { loadSection } from "./load-section";
import type { OfferedIds } from "./offered-ids";
import { EXCEL_WAIT_NOTICE, hideNotice, showNotice } from "./notices";
import { RecentValues } from "./recent-values";
import { settingsSection } from "./settings-section";
import { tablesSection } from "./tables-section";
import type { SectionContext, TaskpaneState } from "./taskpane-state";
import { approvalSection } from "./team-approvals";
import { connectionChoice, type TeamState } from "./team-connection";

export interface TaskpaneDeps {
  session: Session;
  workbook: Workbook;
  /** Pre-filled connection fields (the workbench's demo); never the key in Excel. */
  defaults?: { baseUrl?: string; enterpriseId?: string };
  /** After a load, a refresh or a sync wrote to the workbook. */
  onWorkbookChanged?: () => void;
  /** The Office identity of the person, where the host has one (the journal's "By" when no name is set). */
  identity?: () => Promise<string | null>;
  /** Asks Excel to recalculate this workbook's =SPEND formulas, and nothing else, so each asks the service again (Refresh All). */
  recalculate?: () => Promise<void>;
  /** "Check this Excel" (Diagnostics): the self-test of src/sheets/excel/self-test/self-test.ts in this Excel. */
  selfTest?: () => Promise<SelfTestReport>;
  /**
   * This device's storage for the journal name and the ids used lately (never the workbook); by default the
   * guarded, partitioned localStorage the Session also uses (src/guarded-storage.ts).
   */
  storage?: KeyValueStorage;
  /** Ids to offer in the Load section's pickers beside those used before (the workbench: the demo data's); none in Excel. */
  offeredIds?: Promise<OfferedIds | null>;
}

export interface Taskpane {
  /**
   * The ribbon's Sync states: the preview of the table the person is looking at (the sheet on screen's, the
   * selection's; the taskpane's pick only where that sheet holds none), named and brought into view.
   */
  previewSync(): Promise<void>;
  /**
   * The ribbon's Refresh data: every Spend Sync table refreshed, with its line in the taskpane, then the formulas
   * recalculated; the summary brought into view.
   */
  refreshAll(): Promise<void>;
}

/** Builds the taskpane's sections into `root`, in order, and returns what the ribbon's commands call. */
export function mountTaskpane(root: HTMLElement, deps: TaskpaneDeps): Taskpane {
  const { session, workbook } = deps;
  const storage = deps.storage ?? guardedStorage(() => localStorage, { partitionKey: officePartitionKey() });
  const state: TaskpaneState = { loading: null, previewTable: null, pending: null, syncing: false };
  const ctx: SectionContext = { session, workbook, changed: () => deps.onWorkbookChanged?.(), state, offeredIds: deps.offeredIds };
  // Excel waits for a cell being edited, silently: the taskpane says why a load or a sync seems stuck.
  workbook.onExcelWait?.((waiting) => (waiting ? showNotice(root, "excel-wait", EXCEL_WAIT_NOTICE) : hideNotice(root, "excel-wait")));

  // The sections reach each other only through these arrows (made before the sections they name exist; none
  // runs while they are built). A load or a refresh runs alone: every run button disabled, Cancel shown.
  const running = (on: boolean) => {
    load.running(on);
    tables.running(on);
  };
  const connection = connectionSection(session, deps.defaults, () => load.connected());
  const load = loadSection(ctx, new RecentValues(storage), {
    running, clearPreview: () => tables.clearPreview(), showTables: (selected) => { void imports.refresh(); return tables.renderTables(selected); },
  });
  const tables = tablesSection(ctx, { withLoad: load.withLoad, running, storage, identity: deps.identity, recalculate: deps.recalculate });

  // Team mode (docs/team-mode.md): the choice above the key form, and the approval section after the tables.
  const team: TeamState = { gateway: null, me: null, sending: null, onSignedIn: [], onSignedOut: [] };
  const choice = connectionChoice(connection, session, team, storage, () => load.connected());
  const imports = importSection(ctx, storage, () => tables.clearPreview());
  append(
    root, choice, load.element, tables.element, approvalSection(ctx, team, tables.showSyncReport), imports.element, cardCloseSection(ctx), settingsSection(session),
    deps.selfTest ? diagnosticsSection(deps.selfTest) : null,
  );
  void tables.renderTables();
  void load.refreshSuggestions();
  return {
    previewSync: async () => { await tables.renderTables(); await tables.previewInView(); },
    refreshAll: tables.refreshAllInView,
  };
}
