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

/** Takes the notice with this id away, if it is shown. */
export function hideNotice(root: HTMLElement, id: string): void {
  Array.from(root.children).find((el) => el.id === id)?.remove();
}

/**
 * Excel has left a request of Spend Sync unanswered for a while: with delayForCellEdit it waits, silently, for the
 * person to leave a cell they are typing in, and on Windows clicking the taskpane does not end that (office-js #806).
 */
export const EXCEL_WAIT_NOTICE = "Finish editing the cell to continue: Spend Sync is waiting for Excel, which waits while a cell is being edited (press Enter or Esc in the cell).";
