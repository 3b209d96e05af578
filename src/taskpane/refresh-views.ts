/**
 * What the taskpane shows of a Refresh beyond its progress: the question about values typed over the
 * service's cells (keep or replace: the user decides, issue 24), and Refresh All's line per table.
 */
import { redactSecrets } from "../api";
import type { LoadReport, TableOutcome, TypedCell } from "../sheets";
import { setChildren, h } from "./dom";
import { explain } from "./messages";

/** Cells listed in the question; the rest are counted. */
const LISTED = 20;

const shown = (value: unknown) => (typeof value === "string" ? `"${value}"` : String(value === "" ? "(empty)" : value));

/**
 * Asks, in `where`, whether to keep values typed over the service's cells of records the service changed.
 * Resolves once a button is pressed; the question then goes. Nothing is written while it waits.
 */
export function askTyped(where: HTMLElement, typed: readonly TypedCell[], tableName: string): Promise<"keep" | "replace"> {
  return new Promise((resolve) => {
    const answer = (choice: "keep" | "replace") => () => {
      box.remove();
      resolve(choice);
    };
    const records = new Set(typed.map((t) => t.id)).size;
    const items = typed.slice(0, LISTED).map((t) =>
      h("li", {}, redactSecrets(`Row ${t.row + 2}, ${t.header}: you typed ${shown(t.typed)}; the service now has ${shown(t.service)}.`)));
    const box = h("div", { id: "typed-question", className: "question", role: "alertdialog", "aria-labelledby": "typed-question-text" },
      h("p", { id: "typed-question-text" },
        `The service changed ${records} record${records === 1 ? "" : "s"} of ${tableName} in which you typed over its own cells ` +
        `(${typed.length} value${typed.length === 1 ? "" : "s"}; Sync states never sends these columns). Keep your values, or take the service's? ` +
        "Nothing is written until you choose."),
      h("ul", { className: "rows" }, ...items, typed.length > LISTED ? h("li", {}, `… and ${typed.length - LISTED} more.`) : null),
      h("div", { className: "row" },
        h("button", { id: "keep-typed", className: "primary", type: "button", onclick: answer("keep") }, "Keep mine (marked)"),
        h("button", { id: "replace-typed", type: "button", onclick: answer("replace") }, "Take the service's")));
    where.after(box);
    box.querySelector<HTMLButtonElement>("#keep-typed")?.focus();
  });
}

/** Refresh All's list: one line per table, rewritten as each one goes. */
export class RefreshAllView {
  private readonly lines = new Map<string, HTMLLIElement>();

  constructor(readonly element: HTMLUListElement) {}

  start(names: readonly string[]): void {
    this.lines.clear();
    setChildren(this.element, ...names.map((name) => {
      const line = h("li", { className: "", "data-table": name }, `${name}: waiting`);
      this.lines.set(name, line);
      return line;
    }));
  }

  private set(name: string, kind: string, text: string): void {
    let line = this.lines.get(name);
    if (!line) {
      line = h("li", { "data-table": name });
      this.lines.set(name, line);
      this.element.append(line);
    }
    line.className = kind;
    line.textContent = redactSecrets(`${name}: ${text}`);
  }

  progress(name: string, text: string): void {
    this.set(name, "busy", text);
  }

  outcome(outcome: TableOutcome, sentence: (report: LoadReport) => string, warn: (report: LoadReport) => boolean): void {
    if (outcome.kind === "refreshed") this.set(outcome.tableName, warn(outcome.report) ? "warn" : "ok", sentence(outcome.report));
    else if (outcome.kind === "gone") this.set(outcome.tableName, "warn", "not in this workbook any more (deleted?); load it again to bring it back.");
    else this.set(outcome.tableName, "error", `not refreshed: ${explain(outcome.error)}`);
  }
}
