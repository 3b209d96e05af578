/**
 * The taskpane: connect -> load -> edit -> preview -> sync. The same app runs in Excel (over Office.js) and in
 * the workbench (over the in-memory Excel); it only calls sheets/ and sync/, through the Workbook port.
 */
import { ALLOWANCE_EXPAND, CARD_EXPAND, EXPENSE_EXPAND, InvalidRequestError, MOVEMENT_TYPES, listCards, redactSecrets, type KeyValueStorage, type Session } from "../api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../domain";
import { guardedStorage, officePartitionKey } from "../guarded-storage";
import {
  amountNotesText, discardEdits, listLoadedTables, loadTable, refreshAll, refreshTable, writeReconciliationSummary,
  LoadParams, type LoadProgress, type LoadReport, type SelfTestReport, type SummaryReport, type Workbook,
} from "../sheets";
import { SEND_CHECKED_LABEL, previewInSheet, runSync, type SyncPreview, type SyncReport } from "../sync";
import { diagnosticsSection } from "./diagnostics";
import { append, field, setChildren, h, select } from "./dom";
import { explain } from "./messages";
import { EXCEL_WAIT_NOTICE, hideNotice, showNotice } from "./notices";
import { loadNeedsAttention, loadSentence } from "./load-sentence";
import { mountPickers } from "./pickers";
import { RecentValues } from "./recent-values";
import { RefreshAllView, askTyped } from "./refresh-views";
import { summarySentence } from "./summary-sentence";

export interface TaskpaneDeps {
  session: Session;
  workbook: Workbook;
  /** Pre-filled connection fields (the workbench's demo); never the key in Excel. */
  defaults?: { baseUrl?: string; enterpriseId?: string };
  /** After a load, a refresh or a sync wrote to the workbook. */
  onWorkbookChanged?: () => void;
  /** The Office identity of the person, where the host has one (the journal's "By" when no name is set). */
  identity?: () => Promise<string | null>;
  /** Asks Excel to recalculate the workbook, so that every =SPEND formula asks the service again (Refresh All). */
  recalculate?: () => Promise<void>;
  /** "Check this Excel" (Diagnostics): the self-test of src/sheets/self-test.ts in this Excel. */
  selfTest?: () => Promise<SelfTestReport>;
  /**
   * This device's storage for the journal name and the ids used lately (never the workbook); by default the
   * guarded, partitioned localStorage the Session also uses (src/guarded-storage.ts).
   */
  storage?: KeyValueStorage;
}

export interface Taskpane {
  /** The ribbon's Sync states: show the preview of the chosen table. */
  previewSync(): Promise<void>;
  /** The ribbon's Refresh data: every Spend Sync table refreshed, with its line in the taskpane, then the formulas recalculated. */
  refreshAll(): Promise<void>;
}

/** The name for the journal, kept on this device (never the key). */
const NAME_KEY = "spendsync.by";

const RESOURCES = ["expenses", "allowances", "cards", "movements"] as const;
const LABELS: Record<string, string> = { expenses: "Expenses", allowances: "Allowances", cards: "Corporate cards", movements: "Card movements (billing period)" };

export function mountTaskpane(root: HTMLElement, deps: TaskpaneDeps): Taskpane {
  const { session, workbook } = deps;
  const storage = deps.storage ?? guardedStorage(() => localStorage, { partitionKey: officePartitionKey() });
  const changed = () => deps.onWorkbookChanged?.();
  const saved = session.connection();
  // Excel waits for a cell being edited, silently: the taskpane says why a load or a sync seems stuck.
  workbook.onExcelWait?.((waiting) => (waiting ? showNotice(root, "excel-wait", EXCEL_WAIT_NOTICE) : hideNotice(root, "excel-wait")));

  // ---- Connection
  // type="text": a browser's own check of type="url" refuses "api.example.com" in its words before ours can say what is missing.
  const baseUrl = h("input", { id: "base-url", type: "text", inputMode: "url", value: saved?.baseUrl ?? deps.defaults?.baseUrl ?? "", placeholder: "https://api.example.com", autocomplete: "url" });
  const enterprise = h("input", { id: "enterprise-id", value: saved?.enterpriseId ?? deps.defaults?.enterpriseId ?? "", placeholder: "enterprise UUID", spellcheck: false });
  const apiKey = h("input", { id: "api-key", type: "password", value: "", placeholder: saved ? "saved on this device" : "your API key", autocomplete: "off" });
  const connectStatus = h("div", { id: "connect-status", role: "status", "aria-live": "polite", className: saved ? "ok" : "" }, saved ? `Connected to enterprise ${saved.enterpriseId} (key saved on this device).` : "Not connected.");
  const connectButton = h("button", { id: "connect", className: "primary", type: "submit" }, "Test and save connection");
  const connection = h("form", { className: "section", "aria-labelledby": "h-connection", onsubmit: (e: Event) => { e.preventDefault(); void connect(); } },
    h("h2", { id: "h-connection" }, "1. Connection"),
    field("Base URL", baseUrl), field("Enterprise ID", enterprise), field("API key", apiKey, "Stored on this device only, never in the workbook."),
    h("div", { className: "row" }, connectButton), connectStatus);

  async function connect(): Promise<void> {
    const key = apiKey.value.trim() || session.connection()?.apiKey || "";
    status(connectStatus, "busy", "Testing the connection…");
    connectButton.disabled = true;
    try {
      const client = session.connect({ baseUrl: baseUrl.value.trim(), enterpriseId: enterprise.value.trim(), apiKey: key });
      const first = await listCards(client, {}, { pageSize: 1 }).pages().next();
      apiKey.value = "";
      apiKey.placeholder = "saved on this device";
      status(connectStatus, "ok", `Connected to enterprise ${client.enterpriseId}: ${first.value?.count ?? 0} corporate cards visible. The key is saved on this device only.`);
      await pickers.refresh();
      if (resource.value === "movements") void pickers.loadCards();
    } catch (error) {
      session.disconnect();
      status(connectStatus, "error", explain(error));
    } finally {
      connectButton.disabled = false;
    }
  }

  // ---- Load
  const resource = select("resource", RESOURCES, LABELS);
  const pickers = mountPickers(session, workbook, new RecentValues(storage));
  const subsidiary = pickers.subsidiary.input;
  const cardId = pickers.card.input;
  const period = pickers.period.input;
  const state = select("state", ["", ...EXPENSE_STATES]);
  const movementType = select("movement-type", ["", ...MOVEMENT_TYPES]);
  const reconciled = select("reconciled", ["", "true", "false"], { "": "(any)", true: "reconciled", false: "not reconciled" });
  const createdFrom = h("input", { id: "created-from", type: "date" });
  const createdTo = h("input", { id: "created-to", type: "date" });
  const expandBox = h("fieldset", { className: "expand" });
  const scopeFields = {
    subsidiary: field("Subsidiary ID", pickers.subsidiary.element, pickers.subsidiary.chosen, subsidiary),
    card: field("Card ID", pickers.card.element, h("div", {}, pickers.card.chosen, pickers.cardNote), cardId),
    period: field("Billing period ID", pickers.period.element, h("div", {}, pickers.period.chosen,
      h("div", { className: "hint" }, "The billing periods of the card used before on this device or in this workbook are offered.")), period),
    state: field("State", state), type: field("Movement type", movementType), reconciled: field("Reconciled", reconciled),
    from: field("Created from", createdFrom), to: field("Created to", createdTo),
  };
  const progress = h("progress", { id: "load-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows loaded" });
  const loadStatus = h("div", { id: "load-status", role: "status", "aria-live": "polite" });
  const loadButton = h("button", { id: "load", className: "primary", type: "submit" }, "Load into a table");
  const cancelButton = h("button", { id: "cancel-load", type: "button", hidden: true }, "Cancel");
  const discard = h("input", { id: "discard-edits", type: "checkbox" });
  const refreshButton = h("button", { id: "refresh", type: "button" }, "Refresh selected table");
  const refreshStatus = h("div", { id: "refresh-status", role: "status", "aria-live": "polite" });
  const refreshAllButton = h("button", { id: "refresh-all", type: "button" }, "Refresh all tables");
  const refreshAllStatus = h("div", { id: "refresh-all-status", role: "status", "aria-live": "polite" });
  const refreshAllView = new RefreshAllView(h("ul", { id: "refresh-all-list", className: "rows" }));
  let loading: AbortController | null = null;
  cancelButton.addEventListener("click", () => loading?.abort());
  cardId.addEventListener("focus", () => void pickers.loadCards());

  function renderScope(): void {
    const r = resource.value;
    scopeFields.subsidiary.hidden = r !== "expenses" && r !== "allowances";
    scopeFields.card.hidden = scopeFields.period.hidden = scopeFields.type.hidden = scopeFields.reconciled.hidden = r !== "movements";
    if (r === "movements" && session.connection()) void pickers.loadCards();
    scopeFields.state.hidden = r !== "expenses" && r !== "allowances";
    scopeFields.from.hidden = scopeFields.to.hidden = r !== "expenses";
    const states = r === "allowances" ? ALLOWANCE_STATES : EXPENSE_STATES;
    setChildren(state, ...["", ...states].map((s) => h("option", { value: s }, s || "(any)")));
    const values = r === "expenses" ? EXPENSE_EXPAND : r === "allowances" ? ALLOWANCE_EXPAND : r === "cards" ? CARD_EXPAND : [];
    // Ticked by default: people, cost centers, categories and card holders show their names (their ids stay in columns of their own).
    setChildren(expandBox, h("legend", {}, values.length ? "Expand (names beside the ids)" : "Reconciliation is always shown for movements"),
      ...values.map((v) => h("label", { className: "check" }, h("input", { type: "checkbox", value: v, name: "expand", checked: true }), ` ${v}`)));
  }
  resource.addEventListener("change", renderScope);
  renderScope();

  function loadParams(): LoadParams {
    const enterpriseId = session.currentClient().enterpriseId;
    const expand = Array.from(expandBox.querySelectorAll<HTMLInputElement>("input:checked")).map((i) => i.value);
    const required = (input: HTMLInputElement, name: string) => {
      const v = input.value.trim();
      if (!v) throw new InvalidRequestError(`${name} is required for ${LABELS[resource.value].toLowerCase()}.`);
      return v;
    };
    // The form's values are strings; the schema makes them the parameters' types (they come from its own lists).
    const form = (() => {
      switch (resource.value) {
        case "cards": return { resource: "cards", enterpriseId, expand };
        case "movements": return {
          resource: "movements", enterpriseId, cardId: required(cardId, "Card ID"), billingPeriodId: required(period, "Billing period ID"),
          type: movementType.value || undefined, reconciled: reconciled.value === "" ? undefined : reconciled.value === "true",
        };
        case "allowances": return { resource: "allowances", enterpriseId, subsidiaryId: required(subsidiary, "Subsidiary ID"), state: state.value || undefined, expand };
        default: return {
          resource: "expenses", enterpriseId, subsidiaryId: required(subsidiary, "Subsidiary ID"), state: state.value || undefined,
          createdFrom: createdFrom.value || undefined, createdTo: createdTo.value || undefined, expand,
        };
      }
    })();
    return LoadParams.parse(form);
  }

  /** Progress of a load or a refresh, shown in its own section: the bar above its status line, the count in it. */
  function progressIn(where: HTMLElement): (p: LoadProgress) => void {
    return (p) => {
      if (progress.nextSibling !== where) where.before(progress);
      progress.hidden = false;
      progress.max = Math.max(1, p.total ?? p.done);
      progress.value = p.done;
      where.textContent = `${p.phase === "fetch" ? "Loading" : "Writing"} ${p.done.toLocaleString()} of ${p.total === null ? "?" : p.total.toLocaleString()} rows…`;
    };
  }

  /** A load or a refresh: the table is written, then its reconciliation summary when it holds movements. */
  async function withLoad(
    where: HTMLElement, work: (signal: AbortSignal, onProgress: (p: LoadProgress) => void) => Promise<LoadReport>, after?: (report: LoadReport) => void,
  ): Promise<void> {
    loading = new AbortController();
    loadButton.disabled = refreshButton.disabled = refreshAllButton.disabled = true;
    cancelButton.hidden = false;
    status(where, "busy", "Starting…");
    try {
      const report = await work(loading.signal, progressIn(where));
      // The preview of this table no longer describes the sheet.
      if (report.tableName === previewTable) clearPreview();
      after?.(report);
      let summary: SummaryReport | null = null;
      let summaryError = "";
      try {
        summary = await writeReconciliationSummary(workbook, report.tableName);
      } catch (error) {
        summaryError = ` The reconciliation summary could not be written: ${explain(error)}`;
      }
      // Amounts shown wider than their currency, or in a code ISO 4217 does not list: said, never only in a format.
      const amounts = amountNotesText(report.amounts);
      status(where, loadNeedsAttention(report) || summaryError || amounts ? "warn" : "ok", loadSentence(report) +
        (amounts ? ` ${amounts}` : "") + (summary ? ` ${summarySentence(summary)}` : summaryError));
      // The loaded table is shown, a new one or one loaded again (Excel leaves a sheet it adds in the background,
      // the summary sheet too; a person who pressed Load from the Summary sheet reads the table next).
      if (where === loadStatus) await workbook.select(report.tableName, 0, 0).catch(() => undefined);
      await renderTables(report.tableName);
    } catch (error) {
      status(where, "error", explain(error));
    } finally {
      loading = null;
      loadButton.disabled = refreshButton.disabled = refreshAllButton.disabled = false;
      cancelButton.hidden = true;
      progress.hidden = true;
      changed();
    }
  }

  function submitLoad(): void {
    let params: LoadParams | null = null;
    void withLoad(loadStatus, (signal, onProgress) => {
      params = loadParams();
      return loadTable(session.currentClient(), workbook, params, { signal, onProgress });
    }, () => {
      if (params) pickers.remember(params);
      void pickers.refresh();
    });
  }
  const load = h("form", { className: "section", "aria-labelledby": "h-load", onsubmit: (e: Event) => { e.preventDefault(); submitLoad(); } },
    h("h2", { id: "h-load" }, "2. Load"),
    field("What", resource), scopeFields.subsidiary, scopeFields.card, scopeFields.period, scopeFields.state, scopeFields.type, scopeFields.reconciled,
    scopeFields.from, scopeFields.to, expandBox,
    h("div", { className: "row" }, loadButton, cancelButton), progress, loadStatus);

  // ---- Tables, refresh and sync
  const tables = h("select", { id: "table" });
  async function renderTables(selected?: string): Promise<void> {
    const names = await listLoadedTables(workbook);
    const keep = selected ?? tables.value;
    setChildren(tables, ...(names.length ? names.map((n) => h("option", { value: n }, n)) : [h("option", { value: "" }, "(no table loaded yet)")]));
    if (names.includes(keep)) tables.value = keep;
    tablePicked();
  }
  /** The preview belongs to one table: picking another clears it. */
  function tablePicked(): void {
    if (previewTable !== null && tables.value !== previewTable) clearPreview();
  }
  tables.addEventListener("change", tablePicked);
  refreshButton.addEventListener("click", () => {
    if (!tables.value) return void status(refreshStatus, "error", "Load a table first.");
    const discardEditsNow = discard.checked;
    // Discarding is for this refresh only: the box is unticked so the next refresh keeps edits again.
    discard.checked = false;
    const tableName = tables.value;
    void withLoad(refreshStatus, (signal, onProgress) => refreshTable(session.currentClient(), workbook, tableName, {
      signal, onProgress, discardEdits: discardEditsNow, onTyped: (typed) => {
        status(refreshStatus, "warn", "Refresh needs your answer below before it writes anything.");
        return askTyped(refreshStatus, typed, tableName);
      },
    }));
  });

  /** Refresh All: every table, one line each; a table that fails says why and the others go on; then the formulas. */
  async function runRefreshAll(): Promise<void> {
    if (loading) return;
    loading = new AbortController();
    loadButton.disabled = refreshButton.disabled = refreshAllButton.disabled = true;
    cancelButton.hidden = false;
    status(refreshAllStatus, "busy", "Refreshing every table…");
    const names = await listLoadedTables(workbook).catch(() => []);
    refreshAllView.start(names);
    let failed = 0;
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
          failed++;
          continue;
        }
        if (outcome.report.tableName === previewTable) clearPreview();
        await writeReconciliationSummary(workbook, outcome.report.tableName).catch(() => null);
      }
      session.governor.clear();
      await deps.recalculate?.();
      const done = outcomes.length - failed;
      status(refreshAllStatus, failed ? "warn" : "ok", names.length === 0 ? "No Spend Sync table in this workbook yet: load one first." :
        `Refreshed ${done} of ${names.length} table${names.length === 1 ? "" : "s"}${failed ? `; ${failed} not (see below)` : ""}${deps.recalculate ? "; formulas recalculated" : ""}.`);
      await renderTables();
    } catch (error) {
      status(refreshAllStatus, "error", explain(error));
    } finally {
      loading = null;
      loadButton.disabled = refreshButton.disabled = refreshAllButton.disabled = false;
      cancelButton.hidden = true;
      changed();
    }
  }
  refreshAllButton.addEventListener("click", () => void runRefreshAll());

  const previewBox = h("div", { id: "preview", "aria-live": "polite" });
  const syncStatus = h("div", { id: "sync-status", role: "status", "aria-live": "polite" });
  const syncProgress = h("progress", { id: "sync-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows synced" });
  const previewButton = h("button", { id: "preview-sync", type: "button" }, "Preview sync");
  const confirmButton = h("button", { id: "confirm-sync", className: "primary", type: "button", disabled: true }, "Confirm and sync");
  const sendChecked = h("input", { id: "send-checked", type: "checkbox" });
  let pending: SyncPreview | null = null;
  /** The table the list under Preview describes (a preview, then a sync's results); null when empty. */
  let previewTable: string | null = null;

  function clearPreview(): void {
    pending = null;
    previewTable = null;
    confirmButton.disabled = true;
    setChildren(previewBox);
    status(syncStatus, "", "");
  }

  async function showPreview(): Promise<void> {
    clearPreview();
    if (!tables.value) return void status(syncStatus, "error", "Load an allowances or expenses table first.");
    const tableName = tables.value;
    try {
      // Statuses in the sheet pass the client's redaction when connected (a preview itself needs no connection).
      const redact = session.connection() ? (text: string) => session.currentClient().redact(text) : undefined;
      const p = await previewInSheet(workbook, tableName, redact);
      changed();
      // Another table was picked while the preview was read: it is not shown.
      if (tables.value !== tableName) return;
      previewTable = tableName;
      const c = p.counts;
      setChildren(previewBox,
        h("p", { id: "preview-counts" }, `${c.change} to send, ${c.invalid} invalid (will not be sent), ` +
          `${c.check ? `${c.check} to check (sent only if you confirm them), ` : ""}${c.unchanged} unchanged` +
          `${c.deleted ? `, ${c.deleted} loaded rows deleted from the sheet (nothing is sent for them)` : ""}` +
          `${c.typed ? `, ${c.typed} value${c.typed === 1 ? "" : "s"} typed in the service's columns (never sent; marked, and named in Sync status)` : ""}.`),
        rowList(p.tableName, p.rows.map((r) => ({
          row: r.rows[0], id: r.id, kind: r.kind === "change" ? "ok" : r.kind === "check" ? "warn" : "error",
          text: r.kind === "change" ? `will send ${JSON.stringify(r.patch)}` : r.kind === "check" ? `check: ${r.message} (would send ${JSON.stringify(r.patch)})` : (r.message ?? ""),
        })), true),
        c.check ? h("label", { className: "check" }, sendChecked, ` ${SEND_CHECKED_LABEL}`) : null);
      pending = p;
      // Confirm sends: with nothing to send there is nothing to confirm (invalid rows are never sent; rows to
      // check only once the user ticks the box that confirms them).
      const confirmable = () => (confirmButton.disabled = c.change + (sendChecked.checked ? c.check : 0) === 0);
      sendChecked.checked = false;
      sendChecked.onchange = confirmable;
      confirmable();
      status(syncStatus, "", c.change + c.invalid + c.check === 0 ? "Nothing to sync: no edited rows."
        : c.change === 0 && c.check > 0 ? "Nothing will be sent unless you confirm the rows to check (their status in the sheet says what looks wrong), or fix them and preview again."
        : c.change === 0 ? "Nothing will be sent: fix the rows above (their status in the sheet says how), then preview again."
          : "Each edited row's Sync status in the sheet says what will happen. Check, then confirm. Nothing has been sent yet.");
    } catch (error) {
      status(syncStatus, "error", explain(error));
    }
  }

  async function confirm(): Promise<void> {
    if (!pending || pending.counts.change + (sendChecked.checked ? pending.counts.check : 0) === 0) return;
    confirmButton.disabled = previewButton.disabled = true;
    syncProgress.hidden = false;
    status(syncStatus, "busy", "Reading the records' current state…");
    try {
      const by = byName.value.trim() || (await deps.identity?.().catch(() => null)) || "";
      const report: SyncReport = await runSync(session.currentClient(), workbook, pending, {
        by,
        sendChecked: sendChecked.checked,
        onProgress: (done, total) => {
          syncProgress.max = Math.max(1, total);
          syncProgress.value = done;
          syncStatus.textContent = `Synced ${done} of ${total}…`;
        },
      });
      status(syncStatus, report.stopped || report.counts.rejected + report.counts.invalid + report.counts.check + report.counts.conflict + report.counts.unconfirmed > 0 ? "warn" : "ok", report.summary);
      const problems = report.results.filter((r) => r.outcome !== "applied" && r.outcome !== "already-applied");
      setChildren(previewBox, problems.length ? h("p", {}, "Rows that need you (click to go to the row):") : null,
        rowList(report.tableName, problems.map((r) => ({ row: r.rows[0], id: r.id, kind: r.outcome === "rejected" || r.outcome === "invalid" ? "error" : "warn", text: `${r.outcome}: ${r.message}` }))));
    } catch (error) {
      status(syncStatus, "error", explain(error));
    } finally {
      pending = null;
      previewButton.disabled = false;
      syncProgress.hidden = true;
      changed();
    }
  }
  previewButton.addEventListener("click", () => void showPreview());
  confirmButton.addEventListener("click", () => void confirm());

  function rowList(tableName: string, rows: { row: number; id: string; kind: string; text: string }[], discardable = false): HTMLElement | null {
    if (rows.length === 0) return null;
    const shown = rows.slice(0, 200);
    return h("ul", { className: "rows" }, ...shown.map((r) =>
      h("li", { className: r.kind },
        h("button", { type: "button", className: "link", title: "Go to this row", onclick: () => void goTo(tableName, r.row) }, `Row ${r.row + 2}`),
        ` ${r.id.slice(0, 8)}: ${redactSecrets(r.text)}`,
        discardable && r.id ? h("button", { type: "button", className: "link discard", title: "Put back the values last loaded on this row", onclick: () => void discardRow(tableName, r.id) }, " Discard edit") : null)),
      rows.length > shown.length ? h("li", {}, `… and ${rows.length - shown.length} more.`) : null);
  }

  async function discardRow(tableName: string, id: string): Promise<void> {
    try {
      await discardEdits(workbook, tableName, [id]);
      changed();
      await showPreview();
    } catch (error) {
      status(syncStatus, "error", explain(error));
    }
  }

  async function goTo(tableName: string, row: number): Promise<void> {
    const read = await workbook.readTable(tableName);
    const column = Math.max(0, read?.header.indexOf("Sync status") ?? 0);
    await workbook.select(tableName, row, column);
    changed();
  }

  const cacheMinutes = h("input", { id: "cache-minutes", type: "number", min: 0, step: 1, value: session.cacheMinutes });
  cacheMinutes.addEventListener("change", () => session.setCacheMinutes(Number(cacheMinutes.value)));
  const byName = h("input", { id: "sync-by", value: storage.getItem(NAME_KEY) ?? "", placeholder: "your name", autocomplete: "name" });
  byName.addEventListener("change", () => storage.setItem(NAME_KEY, byName.value.trim()));
  const tablesSection = h("section", { className: "section", "aria-labelledby": "h-sync" },
    h("h2", { id: "h-sync" }, "3. Refresh and sync"),
    field("Table", tables),
    field("Your name", byName, "Written in the journal beside every change you sync; kept on this device."),
    h("div", { className: "row" }, refreshButton, h("label", { className: "check" }, discard, " discard my unsynced edits")), refreshStatus,
    h("div", { className: "row" }, refreshAllButton), refreshAllStatus, refreshAllView.element,
    h("p", { className: "hint" }, "Edit State, Accounted ID, Paid ID and Paid at in the yellow columns, then preview."),
    h("div", { className: "row" }, previewButton, confirmButton), syncProgress, syncStatus, previewBox);
  const settings = h("details", { className: "section" }, h("summary", {}, "Formulas (=SPEND.*)"),
    field("Keep formula results for (minutes)", cacheMinutes, "Refresh data on the ribbon clears them and recalculates."));

  append(root, connection, load, tablesSection, settings, deps.selfTest ? diagnosticsSection(deps.selfTest) : null);
  void renderTables();
  void pickers.refresh();
  return {
    previewSync: async () => { await renderTables(); await showPreview(); },
    refreshAll: runRefreshAll,
  };
}

/** A status line; like every text the taskpane shows from a run, it passes the key's redaction. */
function status(el: HTMLElement, kind: "" | "ok" | "error" | "warn" | "busy", text: string): void {
  el.className = kind;
  el.textContent = redactSecrets(text);
}
