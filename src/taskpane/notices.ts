/**
 * One-sentence notices above the taskpane: an Excel without the APIs the add-in needs, a blocked storage, a
 * ribbon command that failed. Text only (textContent), announced to screen readers (role="alert").
 */
import { h } from "./dom";

/** Shows `text` at the top of the taskpane, replacing an earlier notice with the same id. */
export function showNotice(root: HTMLElement, id: string, text: string, kind: "warn" | "error" = "warn"): HTMLElement {
  const notice = h("p", { id, role: "alert", className: `notice ${kind}` }, text);
  const earlier = Array.from(root.children).find((el) => el.id === id);
  if (earlier) earlier.replaceWith(notice);
  else root.prepend(notice);
  return notice;
}

/** The taskpane shows only this sentence (the add-in could not set up; nothing else would work). */
export function showOnly(root: HTMLElement, id: string, text: string): HTMLElement {
  root.replaceChildren();
  return showNotice(root, id, text, "error");
}
