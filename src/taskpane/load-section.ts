/**
 * The taskpane's Load section: what to load (the resource, the scope fields it shows, the expand boxes), then
 * the load itself with its progress bar and Cancel. Its run (withLoad) also carries section 3's Refresh.
 */
import { InvalidRequestError, MOVEMENT_TYPES, type Session } from "../api";
import {
  RESOURCE_KINDS, amountNotesText, formOf, loadTable, tableNameOf, writeReconciliationSummary, LoadParams,
  type FormField, type LoadProgress, type LoadReport, type ResourceKind, type SummaryReport, type Workbook,
} from "../sheets";
import { field, setChildren, h, select } from "./dom";
import { explain } from "./messages";
import { loadNeedsAttention, loadSentence } from "./load-sentence";
import { mountPickers, type Pickers } from "./pickers";
import type { RecentValues } from "./recent-values";
import { failed, status } from "./status";
import { summarySentence } from "./summary-sentence";
import type { SectionContext } from "./taskpane-state";

/** Each resource's name in the list, from its module (sheets/resources). */
const LABELS: Record<string, string> = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, formOf(kind).label]));

/** The scope fields in the order the form shows them, each named for the parameter it fills. */
const FORM_FIELDS: readonly FormField[] = ["subsidiaryId", "cardId", "billingPeriodId", "state", "type", "reconciled", "createdFrom", "createdTo"];

/** The ids a query is scoped by: required, and refused in the form's words when left empty. */
const REQUIRED: Partial<Record<FormField, string>> = { subsidiaryId: "Subsidiary ID", cardId: "Card ID", billingPeriodId: "Billing period ID" };

/** The chosen resource (the list holds only the registry's kinds). */
const kindOf = (resource: HTMLSelectElement): ResourceKind => RESOURCE_KINDS.find((kind) => kind === resource.value) ?? RESOURCE_KINDS[0];

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
  scopeFields: Record<FormField, HTMLElement>;
}

/** The Load form's controls, the id pickers' inputs among them, each scope control in its labelled field. */
function loadForm(pickers: Pickers): LoadFormControls {
  const resource = select("resource", RESOURCE_KINDS, LABELS);
  const subsidiary = pickers.subsidiary.input;
  const cardId = pickers.card.input;
  const period = pickers.period.input;
  const state = select("state", [""]);
  const movementType = select("movement-type", ["", ...MOVEMENT_TYPES]);
  const reconciled = select("reconciled", ["", "true", "false"], { "": "(any)", true: "reconciled", false: "not reconciled" });
  const createdFrom = h("input", { id: "created-from", type: "date" });
  const createdTo = h("input", { id: "created-to", type: "date" });
  const expandBox = h("fieldset", { className: "expand" });
  const scopeFields: Record<FormField, HTMLElement> = {
    subsidiaryId: field("Subsidiary ID", pickers.subsidiary.element, pickers.subsidiary.chosen, subsidiary),
    cardId: field("Card ID", pickers.card.element, h("div", {}, pickers.card.chosen, pickers.cardNote), cardId),
    billingPeriodId: field("Billing period ID", pickers.period.element, h("div", {}, pickers.period.chosen,
      h("div", { className: "hint" }, "The billing periods of the card used before on this device or in this workbook are offered.")), period),
    state: field("State", state), type: field("Movement type", movementType), reconciled: field("Reconciled", reconciled),
    createdFrom: field("Created from", createdFrom), createdTo: field("Created to", createdTo),
  };
  return { resource, subsidiary, cardId, period, state, movementType, reconciled, createdFrom, createdTo, expandBox, scopeFields };
}

/** Shows the scope fields of the chosen resource, its states and its expand boxes (on every change of resource). */
function renderScope(controls: LoadFormControls, session: Session, pickers: Pickers): void {
  const { resource, scopeFields, state, expandBox } = controls;
  const form = formOf(kindOf(resource));
  for (const name of FORM_FIELDS) scopeFields[name].hidden = !form.fields.includes(name);
  if (form.fields.includes("cardId") && session.connection()) void pickers.loadCards();
  setChildren(state, ...["", ...(form.states ?? [])].map((s) => h("option", { value: s }, s || "(any)")));
  // Ticked by default: people, cost centers, categories and card holders show their names (their ids stay in columns of their own).
  setChildren(expandBox, h("legend", {}, form.expand.length ? "Expand (names beside the ids)" : (form.noExpand ?? "")),
    ...form.expand.map((v) => h("label", { className: "check" }, h("input", { type: "checkbox", value: v, name: "expand", checked: true }), ` ${v}`)));
}

/** A field's text as its parameter: empty is absent; Reconciled is a yes or no. */
function fieldValue(name: FormField, text: string): unknown {
  if (text === "") return undefined;
  return name === "reconciled" ? text === "true" : text;
}

/** The form's values as a load's parameters; a required id left empty is refused in the form's words. */
function loadParams(controls: LoadFormControls, session: Session): LoadParams {
  const kind = kindOf(controls.resource);
  const form = formOf(kind);
  const inputs: Record<FormField, HTMLInputElement | HTMLSelectElement> = {
    subsidiaryId: controls.subsidiary, cardId: controls.cardId, billingPeriodId: controls.period, state: controls.state,
    type: controls.movementType, reconciled: controls.reconciled, createdFrom: controls.createdFrom, createdTo: controls.createdTo,
  };
  const values: Record<string, unknown> = { resource: kind, enterpriseId: session.currentClient().enterpriseId };
  for (const name of form.fields) {
    const text = REQUIRED[name] ? inputs[name].value.trim() : inputs[name].value;
    if (!text && REQUIRED[name]) throw new InvalidRequestError(`${REQUIRED[name]} is required for ${form.label.toLowerCase()}.`);
    values[name] = fieldValue(name, text);
  }
  if (form.expand.length) values.expand = Array.from(controls.expandBox.querySelectorAll<HTMLInputElement>("input:checked")).map((i) => i.value);
  // The form's values are strings; the schema makes them the parameters' types (they come from its own lists).
  return LoadParams.parse(values);
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

/** After a first load failed or was cancelled: its table, written as pages came, was deleted (sheets/load-first.ts). */
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
  controls.cardId.addEventListener("focus", () => void pickers.loadCards());
  controls.resource.addEventListener("change", () => renderScope(controls, session, pickers));
  renderScope(controls, session, pickers);

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
    let params: LoadParams | null = null;
    // Whether the table is new, read beside the load (not before: its first page is asked for at once). A first
    // load that fails or is cancelled takes back everything it wrote (sheets/load-first.ts): the status says so.
    let fresh: Promise<boolean> = Promise.resolve(false);
    void withLoad(loadStatus, (signal, onProgress) => {
      params = loadParams(controls, session);
      fresh = workbook.readColumns(tableNameOf(params), []).then((table) => table === null, () => false);
      return loadTable(session.currentClient(), workbook, params, { signal, onProgress });
    }, () => {
      if (params) pickers.remember(params);
      void pickers.refresh();
    }, async () => ((await fresh) ? FIRST_LOAD_UNDONE : ""));
  }

  const { resource, scopeFields, expandBox } = controls;
  const element = h("form", { className: "section", "aria-labelledby": "h-load", onsubmit: (e: Event) => { e.preventDefault(); submitLoad(); } },
    h("h2", { id: "h-load" }, "2. Load"),
    field("What", resource), ...FORM_FIELDS.map((name) => scopeFields[name]), expandBox,
    h("div", { className: "row" }, loadButton, cancelButton), progress, loadStatus);
  return {
    element, withLoad,
    connected: async () => {
      await pickers.refresh();
      if (formOf(kindOf(resource)).fields.includes("cardId")) void pickers.loadCards();
    },
    refreshSuggestions: () => pickers.refresh(),
    running: (on) => {
      loadButton.disabled = on;
      cancelButton.hidden = !on;
    },
  };
}
