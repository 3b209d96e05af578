/**
 * The taskpane's Load section: what to load (the resource, the scope fields it shows, the expand boxes), then
 * the load itself with its progress bar and Cancel. Its run (withLoad) also carries section 3's Refresh.
 */
import { ALLOWANCE_EXPAND, CARD_EXPAND, EXPENSE_EXPAND, InvalidRequestError, MOVEMENT_TYPES, type Session } from "../api";
import { ALLOWANCE_STATES, EXPENSE_STATES } from "../domain";
import { amountNotesText, loadTable, writeReconciliationSummary, LoadParams, type LoadProgress, type LoadReport, type SummaryReport, type Workbook } from "../sheets";
import { field, setChildren, h, select } from "./dom";
import { explain } from "./messages";
import { loadNeedsAttention, loadSentence } from "./load-sentence";
import { mountPickers, type Pickers } from "./pickers";
import type { RecentValues } from "./recent-values";
import { status } from "./status";
import { summarySentence } from "./summary-sentence";
import type { SectionContext } from "./taskpane-state";

const RESOURCES = ["expenses", "allowances", "cards", "movements"] as const;
const LABELS: Record<string, string> = { expenses: "Expenses", allowances: "Allowances", cards: "Corporate cards", movements: "Card movements (billing period)" };

/** The Load form's controls: the resource, and the scope fields each resource shows or hides. */
interface LoadFormControls {
  resource: HTMLSelectElement;
  subsidiary: HTMLInputElement;
  cardId: HTMLInputElement;
  period: HTMLInputElement;
  state: HTMLSelectElement;
  movementType: HTMLSelectElement;
  reconciled: HTMLSelectElement;
  createdFrom: HTMLInputElement;
  createdTo: HTMLInputElement;
  expandBox: HTMLFieldSetElement;
  /** Each scope control in its labelled field, the element renderScope shows or hides. */
  scopeFields: Record<"subsidiary" | "card" | "period" | "state" | "type" | "reconciled" | "from" | "to", HTMLElement>;
}

/** The Load form's controls, the id pickers' inputs among them, each scope control in its labelled field. */
function loadForm(pickers: Pickers): LoadFormControls {
  const resource = select("resource", RESOURCES, LABELS);
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
  return { resource, subsidiary, cardId, period, state, movementType, reconciled, createdFrom, createdTo, expandBox, scopeFields };
}

/** Shows the scope fields of the chosen resource, its states and its expand boxes (on every change of resource). */
function renderScope(controls: LoadFormControls, session: Session, pickers: Pickers): void {
  const { resource, scopeFields, state, expandBox } = controls;
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

/** The form's values as a load's parameters; a required id left empty is refused in the form's words. */
function loadParams(controls: LoadFormControls, session: Session): LoadParams {
  const { resource, subsidiary, cardId, period, state, movementType, reconciled, createdFrom, createdTo, expandBox } = controls;
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
    summary = await writeReconciliationSummary(workbook, report.tableName);
  } catch (error) {
    summaryError = ` The reconciliation summary could not be written: ${explain(error)}`;
  }
  // Amounts shown wider than their currency, or in a code ISO 4217 does not list: said, never only in a format.
  const amounts = amountNotesText(report.amounts);
  status(where, loadNeedsAttention(report) || summaryError || amounts ? "warn" : "ok", loadSentence(report) +
    (amounts ? ` ${amounts}` : "") + (summary ? ` ${summarySentence(summary)}` : summaryError));
}

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
  /** A load or a refresh run, its outcome said in `where`; `after` runs once the table is written. */
  withLoad(where: HTMLElement, work: LoadWork, after?: (report: LoadReport) => void): Promise<void>;
  /** This section's part of `running`: Load disabled and Cancel shown while a run goes. */
  running(on: boolean): void;
}

/** Builds the Load section; `links` are the other sections' actions a load calls. */
export function loadSection(ctx: SectionContext, recent: RecentValues, links: LoadLinks): LoadSection {
  const { session, workbook } = ctx;
  const pickers = mountPickers(session, workbook, recent);
  const controls = loadForm(pickers);
  const progress = h("progress", { id: "load-progress", max: 1, value: 0, hidden: true, "aria-label": "Rows loaded" });
  const loadStatus = h("div", { id: "load-status", role: "status", "aria-live": "polite" });
  const loadButton = h("button", { id: "load", className: "primary", type: "submit" }, "Load into a table");
  const cancelButton = h("button", { id: "cancel-load", type: "button", hidden: true }, "Cancel");
  cancelButton.addEventListener("click", () => ctx.state.loading?.abort());
  controls.cardId.addEventListener("focus", () => void pickers.loadCards());
  controls.resource.addEventListener("change", () => renderScope(controls, session, pickers));
  renderScope(controls, session, pickers);

  /** A load or a refresh: the table is written, then its reconciliation summary when it holds movements. */
  async function withLoad(where: HTMLElement, work: LoadWork, after?: (report: LoadReport) => void): Promise<void> {
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
      // the summary sheet too; a person who pressed Load from the Summary sheet reads the table next).
      if (where === loadStatus) await workbook.select(report.tableName, 0, 0).catch(() => undefined);
      await links.showTables(report.tableName);
    } catch (error) {
      status(where, "error", explain(error));
    } finally {
      ctx.state.loading = null;
      links.running(false);
      progress.hidden = true;
      ctx.changed();
    }
  }

  function submitLoad(): void {
    let params: LoadParams | null = null;
    void withLoad(loadStatus, (signal, onProgress) => {
      params = loadParams(controls, session);
      return loadTable(session.currentClient(), workbook, params, { signal, onProgress });
    }, () => {
      if (params) pickers.remember(params);
      void pickers.refresh();
    });
  }

  const { resource, scopeFields, expandBox } = controls;
  const element = h("form", { className: "section", "aria-labelledby": "h-load", onsubmit: (e: Event) => { e.preventDefault(); submitLoad(); } },
    h("h2", { id: "h-load" }, "2. Load"),
    field("What", resource), scopeFields.subsidiary, scopeFields.card, scopeFields.period, scopeFields.state, scopeFields.type, scopeFields.reconciled,
    scopeFields.from, scopeFields.to, expandBox,
    h("div", { className: "row" }, loadButton, cancelButton), progress, loadStatus);
  return {
    element, withLoad,
    connected: async () => {
      await pickers.refresh();
      if (resource.value === "movements") void pickers.loadCards();
    },
    refreshSuggestions: () => pickers.refresh(),
    running: (on) => {
      loadButton.disabled = on;
      cancelButton.hidden = !on;
    },
  };
}
