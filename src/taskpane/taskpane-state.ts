/**
 * What the taskpane's sections share: the workbook and session they work on, and the little state more than
 * one of them reads or changes (the run in progress, the preview shown). Everything else stays in its section.
 */
import type { Session } from "../api";
import type { Workbook } from "../sheets";
import type { SyncPreview } from "../sync";
import type { OfferedIds } from "./offered-ids";

/** The state more than one section reads or changes; app.ts makes the one object and hands it to them. */
export interface TaskpaneState {
  /** The load or refresh running (Cancel aborts it); null when none. Refresh All does not start over one. */
  loading: AbortController | null;
  /** The table the list under Preview describes (a preview, then a sync's results); null when empty. */
  previewTable: string | null;
  /** The preview Confirm would send; null when there is none (cleared, or sent). */
  pending: SyncPreview | null;
  /**
   * A Confirm and sync is running: nothing may replace its preview or enable Confirm again until it ends (a second
   * run over the same rows could read them as loaded before the first run's PATCH lands, and send them twice).
   */
  syncing: boolean;
}

/** What every section that reads or writes the workbook is given. */
export interface SectionContext {
  session: Session;
  workbook: Workbook;
  /** After a load, a refresh or a sync wrote to the workbook (TaskpaneDeps.onWorkbookChanged). */
  changed: () => void;
  state: TaskpaneState;
  /** Ids the host offers the Load section's pickers (TaskpaneDeps.offeredIds). */
  offeredIds?: Promise<OfferedIds | null>;
}

