/**
 * The taskpane's Card close section: a card, its billing period and the subsidiaries whose expenses count,
 * and the statement's total as printed; "Close the period" writes (or refreshes) the Card close sheets and says
 * in one paragraph how the period ties out. Closing the same period again is its refresh: what the person typed
 * beside the rows stays (src/sheets/card-close/sheet.ts).
 */
import { listCards } from "../api";
import { amountText, minorUnits, writeCardClose, type CardCloseReport } from "../sheets";
import { h } from "./dom";
import { explain } from "./messages";
import { cardLabel } from "./pickers";
import type { SectionContext } from "./taskpane-state";

/**
 * The statement total as typed, in a currency of `decimals` minor units: the last "." or "," followed by 1 to
 * `decimals` digits is the decimal point, every other one groups thousands ("1.234.567" CLP, "1,234.50" USD,
 * "10.500" KWD); "" is none.
 * @internal card-close-sentence.test.ts checks each typed total directly.
 */
export function readStatementTotal(text: string, decimals: number): number | null | "invalid" {
  const t = text.replace(/[\s\u00a0]/g, "");
  if (t === "") return null;
  const fraction = decimals > 0 ? `(?:[.,](\\d{1,${decimals}}))?` : "";
  const m = new RegExp(`^([-+]?)(\\d+(?:[.,]\\d{3})*?)${fraction}$`).exec(t);
  if (!m) return "invalid";
  return Number(`${m[1]}${m[2].replace(/[.,]/g, "")}${m[3] ? `.${m[3]}` : ""}`);
}

/**
 * One paragraph on the close just written.
 * @internal card-close-sentence.test.ts checks each report's sentence directly.
 */
export function closeSentence(r: CardCloseReport): string {
  const n = (kind: string) => r.outcomes[kind] ?? 0;
  const ties = r.ties.map((t) => t.statement === null
    ? `period total ${t.currency} ${amountText(t.total, t.currency)} (type the statement total to tie it out)`
    : t.difference === 0 ? `ties out at ${t.currency} ${amountText(t.total, t.currency)}`
      : `differs from the statement by ${t.currency} ${amountText(t.difference ?? 0, t.currency)}`).join("; ");
  const kept = r.keptRows + r.carriedRows > 0 ? ` Your notes were kept on ${r.keptRows + r.carriedRows} row${r.keptRows + r.carriedRows === 1 ? "" : "s"}.` : "";
  return `Card •••• ${r.lastFour} (${r.holder}), ${r.periodStart} to ${r.periodEnd}: ${ties}. ${n("service")} reconciled by the service, `
    + `${n("proposed") + n("split") + n("refund")} matched here, ${n("ambiguous")} ambiguous, ${n("fee") + n("payment")} fees and payments, `
    + `${r.chase} to chase, ${r.uncharged} expense${r.uncharged === 1 ? "" : "s"} with no charge. Sheet "${r.sheets[0]}".${kept}`;
}

/** The section: its fields, its button and its status line. */
export function cardCloseSection(ctx: SectionContext): HTMLElement {
  const card = h("select", { id: "close-card" }, h("option", { value: "" }, "(list the cards first)"));
  const listButton = h("button", { id: "close-list-cards", type: "button" }, "List cards");
  const period = h("input", { id: "close-period", type: "text", placeholder: "billing period UUID" });
  const subsidiaries = h("input", { id: "close-subsidiaries", type: "text", placeholder: "subsidiary UUIDs, comma-separated" });
  const statement = h("input", { id: "close-statement", type: "text", inputMode: "decimal", placeholder: "as printed on the statement" });
  const run = h("button", { id: "close-run", type: "button" }, "Close the period");
  const status = h("p", { id: "close-status", role: "status" });
  const say = (className: string, text: string) => {
    status.className = className;
    status.textContent = text;
  };

  let currencies = new Map<string, string>();
  listButton.addEventListener("click", () => void (async () => {
    try {
      const cards = await listCards(ctx.session.currentClient(), { expand: ["user"] }).all();
      currencies = new Map(cards.map((c) => [c.id, c.national_balance_currency]));
      card.replaceChildren(...cards.map((c) => h("option", { value: c.id }, cardLabel(c))));
    } catch (error) {
      say("error", `The cards could not be listed: ${explain(error)}`);
    }
  })());

  run.addEventListener("click", () => void (async () => {
    const total = readStatementTotal(statement.value, minorUnits(currencies.get(card.value) ?? "") ?? 2);
    const subs = subsidiaries.value.split(/[\s,;]+/).filter(Boolean);
    if (total === "invalid") return say("error", `The statement total "${statement.value}" is not an amount.`);
    if (!card.value || !period.value.trim() || subs.length === 0) return say("error", "Choose a card, its billing period and at least one subsidiary.");
    run.disabled = true;
    say("busy", "Reading the period's movements and expenses…");
    try {
      const report = await writeCardClose(ctx.session.currentClient(), ctx.workbook,
        { cardId: card.value, billingPeriodId: period.value.trim(), subsidiaryIds: subs, statementTotal: total });
      say(report.ties.some((t) => t.difference !== null && t.difference !== 0) ? "warn" : "ok", closeSentence(report));
      ctx.changed();
    } catch (error) {
      say("error", `The close could not be written: ${explain(error)}`);
    } finally {
      run.disabled = false;
    }
  })());

  return h("details", { className: "section", id: "card-close" },
    h("summary", {}, "Card close"),
    h("p", { className: "hint" }, "Ties a card's billing period out, proposes the expense of each movement the service has not reconciled, and lists what to chase. Closing again keeps your notes."),
    field("Card", card, listButton), field("Billing period", period), field("Subsidiaries whose expenses count", subsidiaries),
    field("Total on the bill", statement), h("div", { className: "row" }, run), status);
}

function field(label: string, control: HTMLElement, extra?: HTMLElement): HTMLElement {
  return h("div", { className: "field" }, h("label", { htmlFor: control.id }, label), control, extra);
}
