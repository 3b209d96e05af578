/**
 * Section 3's sync part: Preview sync marks every edited row of the picked table in the sheet and lists them;
 * Confirm and sync sends them, with the person's name for the journal; the rows that need the person stay
 * listed, each a link to its row. Nothing is sent before Confirm.
 */
import { redactSecrets, type KeyValueStorage } from "../api";
import { discardEdits, type Workbook } from "../sheets";
import { OUTCOME_LABELS, SEND_CHECKED_LABEL, changeInWords, previewInSheet, runSync, type SyncPreview, type SyncReport } from "../sync";
import { field, reveal, setChildren, h } from "./dom";
import { failed, status } from "./status";
import type { SectionContext } from "./taskpane-state";

/** The name for the journal, kept on this device (never the key). */
const NAME_KEY = "spendsync.by";

/** One line of a row list: the sheet row, the record's id, how it went ("ok", "warn", "error"), and why. */
interface RowLine { row: number; id: string; kind: string; text: string }

/** The preview's counts in one sentence, above its rows. */
function countsSentence(c: SyncPreview["counts"]): string {
  return `${c.change} to send, ${c.invalid} invalid (will not be sent), ` +
    `${c.check ? `${c.check} to check (sent only if you confirm them), ` : ""}${c.unchanged} unchanged` +
    `${c.deleted ? `, ${c.deleted} loaded rows deleted from the sheet (nothing is sent for them)` : ""}` +
    `${c.typed ? `, ${c.typed} value${c.typed === 1 ? "" : "s"} typed in the service's columns (never sent; marked, and named in Sync status)` : ""}.`;
}

/** What the person does next, in the sync status line under a preview. */
function nextStep(c: SyncPreview["counts"]): string {
  return c.change + c.invalid + c.check === 0 ? "Nothing to sync: no edited rows."
    : c.change === 0 && c.check > 0 ? "Nothing will be sent unless you confirm the rows to check (their status in the sheet says what looks wrong), or fix them and preview again."
    : c.change === 0 ? "Nothing will be sent: fix the rows above (their status in the sheet says how), then preview again."
      : "Each edited row's Sync status in the sheet says what will happen. Check, then confirm. Nothing has been sent yet.";
}

/** The preview's rows as lines: what will be sent, what to check, what is invalid. */
function previewLines(p: SyncPreview): RowLine[] {
  return p.rows.map((r) => ({
    row: r.rows[0], id: r.id, kind: r.kind === "change" ? "ok" : r.kind === "check" ? "warn" : "error",
    text: r.kind === "change" && r.patch && r.loaded ? `will send ${changeInWords(r.loaded, r.patch)}${r.source ? ` (from ${r.source})` : ""}`
      : r.kind === "check" && r.patch && r.loaded ? `check: ${r.message} (would send ${changeInWords(r.loaded, r.patch)})` : (r.message ?? ""),
  }));
}

/** The rows of a sync that need the person (neither applied nor applied before), as lines. */
function problemLines(report: SyncReport): RowLine[] {
  const problems = report.results.filter((r) => r.outcome !== "applied" && r.outcome !== "already-applied");
  return problems.map((r) => ({ row: r.rows[0], id: r.id, kind: r.outcome === "rejected" || r.outcome === "invalid" ? "error" : "warn", text: `${OUTCOME_LABELS[r.outcome]}: ${r.message}` }));
}

/** Selects a row's Sync status cell, so a click on a listed row shows it in the sheet. */
async function goTo(workbook: Workbook, tableName: string, row: number): Promise<void> {
  const read = await workbook.readTable(tableName);
  const column = Math.max(0, read?.header.indexOf("Sync status") ?? 0);
  await workbook.select(tableName, row, column);
}

/** The listed rows (the first 200), each a link to its row; with `discard`, a button that puts back its loaded values. */
function rowList(tableName: string, rows: RowLine[], go: (row: number) => void, discard?: (id: string) => void): HTMLElement | null {
  if (rows.length === 0) return null;
  const shown = rows.slice(0, 200);
  return h("ul", { className: "rows" }, ...shown.map((r) =>
    h("li", { className: r.kind },
      h("button", { type: "button", className: "link", title: "Go to this row", onclick: () => go(r.row) }, `Row ${r.row + 2}`),
      ` ${r.id.slice(0, 8)}: ${redactSecrets(r.text)}`,
      discard && r.id ? h("button", { type: "button", className: "link discard", title: "Put back the values last loaded on this row", onclick: () => discard(r.id) }, " Discard edit") : null)),
    rows.length > shown.length ? h("li", {}, `… and ${rows.length - shown.length} more.`) : null);
}

/** Where a listed row's link goes: its Sync status cell selected, then the workbook view told. */
function linkTo(ctx: SectionContext, tableName: string): (row: number) => void {
  return (row) => void goTo(ctx.workbook, tableName, row).then(() => ctx.changed());
}

/** The sync part's controls; the name for the journal is kept on this device as it changes. */
interface SyncView {
  /** Which table the ribbon's Sync states previews and why (empty for the taskpane's own button). */
  target: HTMLElement;
  previewBox: HTMLElement;
  syncStatus: HTMLElement;
  syncProgress: HTMLProgressElement;
  previewButton: HTMLButtonElement;
  confirmButton: HTMLButtonElement;
  sendChecked: HTMLInputElement;
  byName: HTMLInputElement;
}

/** Builds the sync part's controls, the journal name filled from this device. */
function syncView(storage: KeyValueStorage): SyncView {
  const byName = h("input", { id: "sync-by", value: storage.getItem(NAME_KEY) ?? "", placeholder: "your name", autocomplete: "name" });
  byName.addEventListener("change", () => storage.setItem(NAME_KEY, byName.value.trim()));
  return {
    target: h("p", { id: "sync-target", className: "target", tabIndex: -1, hidden: true }),
    previewBox: h("div", { id: "preview", "aria-live": "polite" }),
    syncStatus: h("div", { id: "sync-status", role: "status", "aria-live": "polite" }),
    syncProgress: h("progress", { id: "sync-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows synced" }),
    previewButton: h("button", { id: "preview-sync", type: "button" }, "Preview sync"),
    confirmButton: h("button", { id: "confirm-sync", className: "primary", type: "button", disabled: true }, "Confirm and sync"),
    sendChecked: h("input", { id: "send-checked", type: "checkbox" }),
    byName,
  };
}

/** A sync's outcome in place of its preview: the summary, and the rows that need the person (none: the list empties). */
function showReport(ctx: SectionContext, view: SyncView, report: SyncReport, summary = report.summary): void {
  const needsYou = report.counts.rejected + report.counts.invalid + report.counts.check + report.counts.conflict + report.counts.unconfirmed > 0;
  status(view.syncStatus, report.stopped || report.confirmFailure || needsYou ? "warn" : "ok", summary);
  const problems = problemLines(report);
  setChildren(view.previewBox, problems.length ? h("p", {}, "Rows that need you (click to go to the row):") : null, rowList(report.tableName, problems, linkTo(ctx, report.tableName)));
}

/** Confirm and sync: sends the pending preview (its rows to check once ticked), then lists the rows that need the person. */
async function confirmSync(ctx: SectionContext, view: SyncView, identity?: () => Promise<string | null>): Promise<void> {
  const { session, workbook, changed, state } = ctx;
  const { syncStatus, syncProgress, previewButton, confirmButton, sendChecked, byName } = view;
  const pending = state.pending;
  if (!pending || pending.counts.change + (sendChecked.checked ? pending.counts.check : 0) === 0) return;
  confirmButton.disabled = previewButton.disabled = true;
  state.syncing = true;
  syncProgress.hidden = false;
  status(syncStatus, "busy", "Reading the records' current state…");
  try {
    const by = byName.value.trim() || (await identity?.().catch(() => null)) || "";
    const report: SyncReport = await runSync(session.currentClient(), workbook, pending, {
      by,
      sendChecked: sendChecked.checked,
      onProgress: (done, total) => {
        syncProgress.max = Math.max(1, total);
        syncProgress.value = done;
        syncStatus.textContent = `Synced ${done} of ${total}…`;
      },
    });
    showReport(ctx, view, report);
  } catch (error) {
    failed(syncStatus, error);
  } finally {
    state.syncing = false;
    state.pending = null;
    previewButton.disabled = false;
    syncProgress.hidden = true;
    changed();
  }
}

export interface SyncPart {
  /** "Your name" for the journal (the section shows it under the table picker). */
  nameField: HTMLElement;
  /** The hint, the Preview and Confirm buttons, the progress, the status and the row list, in that order. */
  elements: HTMLElement[];
  /** Empties the preview: it no longer describes the sheet, or another table was picked. */
  clear(): void;
  /** Preview sync of the picked table; `note` (which table, and why) is shown above it. */
  show(note?: string): Promise<void>;
  /** Brings the preview's first line into view and gives it the focus (the ribbon's Sync states opens there). */
  reveal(): void;
  /** A sync run elsewhere (team mode's approved batch) ended: its outcome replaces the preview, which is no longer pending. */
  showReport(report: SyncReport, summary?: string): void;
}

/**
 * The sync part of section 3, previewing the table `picked()` names. `identity` is the journal's "By" when no
 * name is given; `storage` keeps the name on this device.
 */
export function syncPart(ctx: SectionContext, picked: () => string, storage: KeyValueStorage, identity?: () => Promise<string | null>): SyncPart {
  const { session, workbook, changed, state } = ctx;
  const view = syncView(storage);
  const { target, previewBox, syncStatus, syncProgress, previewButton, confirmButton, sendChecked, byName } = view;

  function clear(): void {
    if (state.syncing) return; // the running sync's status and rows stay until it ends
    state.pending = null;
    state.previewTable = null;
    confirmButton.disabled = true;
    setChildren(previewBox);
    status(syncStatus, "", "");
    target.textContent = "";
    target.hidden = true;
  }

  function revealPreview(): void {
    reveal(target.hidden ? syncStatus : target, true);
  }

  async function show(note?: string): Promise<void> {
    if (state.syncing) return void status(syncStatus, "busy", "A sync is running: its outcome shows here when it ends. Preview again after it.");
    clear();
    if (note) {
      // Names of tables and sheets only: no text from the service, nothing to redact.
      target.textContent = note;
      target.hidden = false;
    }
    if (!picked()) return void status(syncStatus, "error", "Load an allowances or expenses table first.");
    const tableName = picked();
    try {
      // Statuses in the sheet pass the client's redaction when connected (a preview itself needs no connection).
      const redact = session.connection() ? (text: string) => session.currentClient().redact(text) : undefined;
      const p = await previewInSheet(workbook, tableName, redact);
      changed();
      // Another table was picked while the preview was read: it is not shown.
      if (picked() !== tableName) return;
      state.previewTable = tableName;
      const c = p.counts;
      setChildren(previewBox, h("p", { id: "preview-counts" }, countsSentence(c)),
        rowList(p.tableName, previewLines(p), linkTo(ctx, p.tableName), (id) => void discardRow(p.tableName, id)),
        c.check ? h("label", { className: "check" }, sendChecked, ` ${SEND_CHECKED_LABEL}`) : null);
      state.pending = p;
      // Confirm sends: with nothing to send there is nothing to confirm (invalid rows are never sent; rows to
      // check only once the user ticks the box that confirms them).
      const confirmable = () => (confirmButton.disabled = c.change + (sendChecked.checked ? c.check : 0) === 0);
      sendChecked.checked = false;
      sendChecked.onchange = confirmable;
      confirmable();
      status(syncStatus, "", nextStep(c));
    } catch (error) {
      failed(syncStatus, error);
    }
  }

  async function discardRow(tableName: string, id: string): Promise<void> {
    try {
      await discardEdits(workbook, tableName, [id]);
      changed();
      await show();
    } catch (error) {
      failed(syncStatus, error);
    }
  }

  previewButton.addEventListener("click", () => void show());
  syncStatus.tabIndex = -1;
  confirmButton.addEventListener("click", () => void confirmSync(ctx, view, identity));
  return {
    nameField: field("Your name", byName, "Written in the journal beside every change you sync; kept on this device."),
    elements: [h("p", { className: "hint" }, "Edit State, Accounted ID, Paid ID and Paid at in the yellow columns, then preview."),
      h("div", { className: "row" }, previewButton, confirmButton), target, syncProgress, syncStatus, previewBox],
    clear, show, reveal: revealPreview,
    showReport: (report, summary) => {
      state.pending = null;
      confirmButton.disabled = true;
      showReport(ctx, view, report, summary);
    },
  };
}
