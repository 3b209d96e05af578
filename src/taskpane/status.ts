/** The taskpane's status lines ("busy", "ok", "warn", "error"), the one way a section says how a run went. */
import { redactSecrets } from "../api";

/** A status line; like every text the taskpane shows from a run, it passes the key's redaction. */
export function status(el: HTMLElement, kind: "" | "ok" | "error" | "warn" | "busy", text: string): void {
  el.className = kind;
  el.textContent = redactSecrets(text);
}
