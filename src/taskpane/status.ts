/** The taskpane's status lines ("busy", "ok", "warn", "error"), the one way a section says how a run went. */
import { redactSecrets, shown } from "../api";
import { h } from "./dom";

/**
 * A status line; like every text the taskpane shows from a run, it passes the key's redaction. `details` (a
 * request's method and URL) goes on a second, muted line that wraps anywhere, so no address runs out of the pane.
 */
export function status(el: HTMLElement, kind: "" | "ok" | "error" | "warn" | "busy", text: string, details?: string): void {
  el.className = kind;
  el.textContent = redactSecrets(text);
  // The space keeps the two apart in the element's text (what is copied, what a test or a reader gets as one string).
  if (details) el.append(" ", h("span", { className: "details" }, redactSecrets(details)));
}

/** A failed run's status line: the error's sentence (its request in words), `after` it, and the request as details. */
export function failed(el: HTMLElement, error: unknown, after = ""): void {
  const { taskpane, details } = shown(error);
  // A sentence that ends in the service's quoted words gets its full stop before the next one (unless they end in one).
  const text = !after ? taskpane : /[.!?]["”]?$/.test(taskpane) ? `${taskpane} ${after}` : `${taskpane}. ${after}`;
  status(el, "error", text, details);
}
