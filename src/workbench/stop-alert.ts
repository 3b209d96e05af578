/**
 * Excel's data-validation Stop alert: a value the cell's rule refuses is never entered and never silently
 * dropped. Excel shows "This value doesn't match the data validation restrictions defined for this cell."
 * with Retry (back to the edit, the typed text kept) and Cancel (the cell's old value back), whether the entry
 * was ended by Enter, Tab, an arrow or a click on another cell; until one is chosen, nothing else in the sheet
 * can be done (the click that ended the edit is not carried out). See docs/excel-checks.md.
 */
import { h } from "../taskpane/dom";

const STOP_MESSAGE = "This value doesn't match the data validation restrictions defined for this cell.";

export type StopChoice = "retry" | "cancel";

export class StopAlert {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private readonly retry: HTMLButtonElement;
  private choose: ((choice: StopChoice) => void) | null = null;

  constructor(host: HTMLElement) {
    this.text = h("p", { id: "stop-alert-text" });
    this.retry = h("button", { type: "button", className: "primary", onclick: () => this.close("retry") }, "Retry");
    const cancel = h("button", { type: "button", onclick: () => this.close("cancel") }, "Cancel");
    this.element = h("div", { className: "stop-alert", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "stop-alert-title", "aria-describedby": "stop-alert-text", hidden: true },
      h("h2", { id: "stop-alert-title" }, "Microsoft Excel"), this.text, h("div", { className: "row" }, this.retry, cancel));
    // Escape is Cancel, as in Excel; Enter presses the focused button (Retry first).
    this.element.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      this.close("cancel");
    });
    host.appendChild(this.element);
  }

  get open(): boolean {
    return this.choose !== null;
  }

  /** Shows the alert over the sheet; `choose` runs once with the person's choice. */
  show(reason: string, choose: (choice: StopChoice) => void): void {
    this.choose = choose;
    // Excel's sentence for a validation refusal; another refusal is said as it is.
    this.text.textContent = reason.startsWith(STOP_MESSAGE) ? STOP_MESSAGE : reason;
    this.element.hidden = false;
    this.focus();
  }

  focus(): void {
    this.retry.focus({ preventScroll: true });
  }

  private close(choice: StopChoice): void {
    const choose = this.choose;
    this.choose = null;
    this.element.hidden = true;
    choose?.(choice);
  }
}
