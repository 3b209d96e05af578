/**
 * The taskpane: connect -> load -> edit -> preview -> sync. The same app runs in Excel (over Office.js) and in
 * the workbench (over the in-memory Excel); it only calls sheets/ and sync/, through the Workbook port.
 */
import { ALLOWANCE_EXPAND, CARD_EXPAND, EXPENSE_EXPAND, MOVEMENT_TYPES, listCards, type Session } from "../api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../domain";
import { discardEdits, listLoadedTables, loadTable, refreshTable, type LoadParams, type LoadProgress, type SelfTestReport, type Workbook } from "../sheets";
import { previewSync, runSync, type SyncPreview, type SyncReport } from "../sync";
import { diagnosticsSection } from "./diagnostics";
import { append, field, fill, h, select } from "./dom";
import { explain } from "./messages";

export interface TaskpaneDeps {
  session: Session;
  workbook: Workbook;
  /** Pre-filled connection fields (the workbench's demo); never the key in Excel. */
  defaults?: { baseUrl?: string; enterpriseId?: string };
  /** After a load, a refresh or a sync wrote to the workbook. */
  onWorkbookChanged?: () => void;
  /** The Office identity of the person, where the host has one (the journal's "By" when no name is set). */
  identity?: () => Promise<string | null>;
  /** "Check this Excel" (Diagnostics): the self-test of src/sheets/self-test.ts in this Excel. */
  selfTest?: () => Promise<SelfTestReport>;
}

export interface Taskpane {
  /** The ribbon's Sync states: show the preview of the chosen table. */
  previewSync(): Promise<void>;
}

const NAME_KEY = "spendsync.by";
/** The name for the journal, kept on this device (never the key). */
function storedName(): string {
  try {
    return globalThis.localStorage?.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}
function storeName(name: string): void {
  try {
    globalThis.localStorage?.setItem(NAME_KEY, name);
  } catch {
    // Storage refused (private mode): the name lasts for this session only.
  }
}

const RESOURCES = ["expenses", "allowances", "cards", "movements"] as const;
const LABELS: Record<string, string> = { expenses: "Expenses", allowances: "Allowances", cards: "Corporate cards", movements: "Card movements (billing period)" };

export function mountTaskpane(root: HTMLElement, deps: TaskpaneDeps): Taskpane {
  const { session, workbook } = deps;
  const changed = () => deps.onWorkbookChanged?.();
  const saved = session.connection();

  // ---- Connection
  const baseUrl = h("input", { id: "base-url", type: "url", value: saved?.baseUrl ?? deps.defaults?.baseUrl ?? "", placeholder: "https://api.example.com", autocomplete: "url" });
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
    } catch (error) {
      session.disconnect();
      status(connectStatus, "error", explain(error));
    } finally {
      connectButton.disabled = false;
    }
  }

  // ---- Load
  const resource = select("resource", RESOURCES, LABELS);
  const subsidiary = h("input", { id: "subsidiary-id", placeholder: "subsidiary UUID", spellcheck: false });
  const cardId = h("input", { id: "card-id", placeholder: "card UUID", spellcheck: false });
  const period = h("input", { id: "billing-period-id", placeholder: "billing period UUID", spellcheck: false });
  const state = select("state", ["", ...EXPENSE_STATES]);
  const movementType = select("movement-type", ["", ...MOVEMENT_TYPES]);
  const createdFrom = h("input", { id: "created-from", type: "date" });
  const createdTo = h("input", { id: "created-to", type: "date" });
  const expandBox = h("fieldset", { className: "expand" });
  const scopeFields = {
    subsidiary: field("Subsidiary ID", subsidiary), card: field("Card ID", cardId), period: field("Billing period ID", period),
    state: field("State", state), type: field("Movement type", movementType), from: field("Created from", createdFrom), to: field("Created to", createdTo),
  };
  const progress = h("progress", { id: "load-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows loaded" });
  const loadStatus = h("div", { id: "load-status", role: "status", "aria-live": "polite" });
  const loadButton = h("button", { id: "load", className: "primary", type: "submit" }, "Load into a table");
  const cancelButton = h("button", { id: "cancel-load", type: "button", hidden: true }, "Cancel");
  const discard = h("input", { id: "discard-edits", type: "checkbox" });
  const refreshButton = h("button", { id: "refresh", type: "button" }, "Refresh selected table");
  let loading: AbortController | null = null;
  cancelButton.addEventListener("click", () => loading?.abort());

  function renderScope(): void {
    const r = resource.value;
    scopeFields.subsidiary.hidden = r !== "expenses" && r !== "allowances";
    scopeFields.card.hidden = scopeFields.period.hidden = scopeFields.type.hidden = r !== "movements";
    scopeFields.state.hidden = r !== "expenses" && r !== "allowances";
    scopeFields.from.hidden = scopeFields.to.hidden = r !== "expenses";
    const states = r === "allowances" ? ALLOWANCE_STATES : EXPENSE_STATES;
    fill(state, ...["", ...states].map((s) => h("option", { value: s }, s || "(any)")));
    const values = r === "expenses" ? EXPENSE_EXPAND : r === "allowances" ? ALLOWANCE_EXPAND : r === "cards" ? CARD_EXPAND : [];
    fill(expandBox, h("legend", {}, values.length ? "Expand (readable names instead of ids)" : "Reconciliation is always shown for movements"),
      ...values.map((v) => h("label", { className: "check" }, h("input", { type: "checkbox", value: v, name: "expand" }), ` ${v}`)));
  }
  resource.addEventListener("change", renderScope);
  renderScope();

  function loadParams(): LoadParams {
    const enterpriseId = session.currentClient().enterpriseId;
    const expand = Array.from(expandBox.querySelectorAll<HTMLInputElement>("input:checked")).map((i) => i.value);
    const required = (input: HTMLInputElement, name: string) => {
      const v = input.value.trim();
      if (!v) throw new Error(`${name} is required for ${LABELS[resource.value].toLowerCase()}.`);
      return v;
    };
    switch (resource.value) {
      case "cards": return { resource: "cards", enterpriseId, expand: expand as never };
      case "movements": return { resource: "movements", enterpriseId, cardId: required(cardId, "Card ID"), billingPeriodId: required(period, "Billing period ID"), type: (movementType.value || undefined) as never };
      case "allowances": return { resource: "allowances", enterpriseId, subsidiaryId: required(subsidiary, "Subsidiary ID"), state: (state.value || undefined) as never, expand: expand as never };
      default: return {
        resource: "expenses", enterpriseId, subsidiaryId: required(subsidiary, "Subsidiary ID"), state: (state.value || undefined) as never,
        createdFrom: createdFrom.value || undefined, createdTo: createdTo.value || undefined, expand: expand as never,
      };
    }
  }

  function onProgress(p: LoadProgress): void {
    progress.hidden = false;
    progress.max = Math.max(1, p.total ?? p.done);
    progress.value = p.done;
    loadStatus.textContent = `${p.phase === "fetch" ? "Loading" : "Writing"} ${p.done.toLocaleString()} of ${p.total === null ? "?" : p.total.toLocaleString()} rows…`;
  }

  async function withLoad(work: (signal: AbortSignal) => Promise<{ tableName: string; count: number; added: number; updated: number; removed: number; keptEdits: number; conflicts: number }>): Promise<void> {
    loading = new AbortController();
    loadButton.disabled = refreshButton.disabled = true;
    cancelButton.hidden = false;
    status(loadStatus, "busy", "Starting…");
    try {
      const report = await work(loading.signal);
      const edits = report.keptEdits + report.conflicts ? ` Your unsynced edits: ${report.keptEdits} kept, ${report.conflicts} also changed on the server (flagged in Sync status).` : "";
      status(loadStatus, report.conflicts ? "warn" : "ok", `Loaded ${report.count.toLocaleString()} rows into ${report.tableName} (${report.added} new, ${report.updated} updated, ${report.removed} no longer returned by this query).${edits}`);
      await renderTables(report.tableName);
    } catch (error) {
      status(loadStatus, "error", explain(error));
    } finally {
      loading = null;
      loadButton.disabled = refreshButton.disabled = false;
      cancelButton.hidden = true;
      progress.hidden = true;
      changed();
    }
  }

  const load = h("form", { className: "section", "aria-labelledby": "h-load", onsubmit: (e: Event) => { e.preventDefault(); void withLoad((signal) => loadTable(session.currentClient(), workbook, loadParams(), { signal, onProgress })); } },
    h("h2", { id: "h-load" }, "2. Load"),
    field("What", resource), scopeFields.subsidiary, scopeFields.card, scopeFields.period, scopeFields.state, scopeFields.type, scopeFields.from, scopeFields.to, expandBox,
    h("div", { className: "row" }, loadButton, cancelButton), progress, loadStatus);

  // ---- Tables, refresh and sync
  const tables = h("select", { id: "table" });
  async function renderTables(selected?: string): Promise<void> {
    const names = await listLoadedTables(workbook);
    const keep = selected ?? tables.value;
    fill(tables, ...(names.length ? names.map((n) => h("option", { value: n }, n)) : [h("option", { value: "" }, "(no table loaded yet)")]));
    if (names.includes(keep)) tables.value = keep;
  }
  refreshButton.addEventListener("click", () => {
    if (!tables.value) return void status(loadStatus, "error", "Load a table first.");
    void withLoad((signal) => refreshTable(session.currentClient(), workbook, tables.value, { signal, onProgress, discardEdits: discard.checked }));
  });

  const previewBox = h("div", { id: "preview", "aria-live": "polite" });
  const syncStatus = h("div", { id: "sync-status", role: "status", "aria-live": "polite" });
  const syncProgress = h("progress", { id: "sync-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows synced" });
  const previewButton = h("button", { id: "preview-sync", type: "button" }, "Preview sync");
  const confirmButton = h("button", { id: "confirm-sync", className: "primary", type: "button", disabled: true }, "Confirm and sync");
  let pending: SyncPreview | null = null;

  async function showPreview(): Promise<void> {
    confirmButton.disabled = true;
    pending = null;
    if (!tables.value) return void status(syncStatus, "error", "Load an allowances or expenses table first.");
    try {
      const p = await previewSync(workbook, tables.value);
      const c = p.counts;
      fill(previewBox,
        h("p", { id: "preview-counts" }, `${c.change} to send, ${c.invalid} invalid (will not be sent), ${c.unchanged} unchanged` +
          `${c.deleted ? `, ${c.deleted} loaded rows deleted from the sheet (nothing is sent for them)` : ""}.`),
        rowList(p.tableName, p.rows.map((r) => ({
          row: r.rows[0], id: r.id, kind: r.cls === "change" ? "ok" : "error",
          text: r.cls === "change" ? `will send ${JSON.stringify(r.patch)}` : (r.message ?? ""),
        })), true));
      pending = p;
      confirmButton.disabled = c.change + c.invalid === 0;
      status(syncStatus, "", c.change + c.invalid === 0 ? "Nothing to sync: no edited rows." : "Check the rows above, then confirm. Nothing has been sent yet.");
    } catch (error) {
      status(syncStatus, "error", explain(error));
    }
  }

  async function confirm(): Promise<void> {
    if (!pending) return;
    confirmButton.disabled = previewButton.disabled = true;
    syncProgress.hidden = false;
    status(syncStatus, "busy", "Reading the records' current state…");
    try {
      const by = byName.value.trim() || (await deps.identity?.().catch(() => null)) || "";
      const report: SyncReport = await runSync(session.currentClient(), workbook, pending, {
        by,
        onProgress: (done, total) => {
          syncProgress.max = Math.max(1, total);
          syncProgress.value = done;
          syncStatus.textContent = `Synced ${done} of ${total}…`;
        },
      });
      status(syncStatus, report.stopped || report.counts.rejected + report.counts.invalid + report.counts.conflict + report.counts.unconfirmed > 0 ? "warn" : "ok", report.summary);
      const problems = report.results.filter((r) => r.outcome !== "applied" && r.outcome !== "already-applied");
      fill(previewBox, problems.length ? h("p", {}, "Rows that need you (click to go to the row):") : null,
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
        ` ${r.id.slice(0, 8)}: ${r.text}`,
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
  const byName = h("input", { id: "sync-by", value: storedName(), placeholder: "your name", autocomplete: "name" });
  byName.addEventListener("change", () => storeName(byName.value.trim()));
  const tablesSection = h("section", { className: "section", "aria-labelledby": "h-sync" },
    h("h2", { id: "h-sync" }, "3. Refresh and sync"),
    field("Table", tables),
    field("Your name", byName, "Written in the journal beside every change you sync; kept on this device."),
    h("div", { className: "row" }, refreshButton, h("label", { className: "check" }, discard, " discard my unsynced edits")),
    h("p", { className: "hint" }, "Edit State, Accounted ID, Paid ID and Paid at in the yellow columns, then preview."),
    h("div", { className: "row" }, previewButton, confirmButton), syncProgress, syncStatus, previewBox);
  const settings = h("details", { className: "section" }, h("summary", {}, "Formulas (=SPEND.*)"),
    field("Keep formula results for (minutes)", cacheMinutes, "Refresh data on the ribbon clears them and recalculates."));

  append(root, connection, load, tablesSection, settings, deps.selfTest ? diagnosticsSection(deps.selfTest) : null);
  void renderTables();
  return { previewSync: async () => { await renderTables(); await showPreview(); } };
}

function status(el: HTMLElement, kind: "" | "ok" | "error" | "warn" | "busy", text: string): void {
  el.className = kind;
  el.textContent = text;
}
