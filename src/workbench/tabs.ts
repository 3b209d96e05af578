/**
 * The sheet tabs, as Excel's: one line under the grid that scrolls sideways when the tabs do not fit (never a
 * second line), with Excel's two arrows at its left to scroll it, and the active sheet's tab kept in view.
 */
import { h } from "../taskpane/dom";

/** Draws one tab per sheet in `bar`; when the current sheet changed, scrolls the least needed to show its tab whole. */
export function renderTabs(bar: HTMLElement, names: readonly string[], current: string, show: (name: string) => void): void {
  const strip = stripOf(bar);
  strip.replaceChildren(...names.map((name) => h("button", { type: "button", "data-sheet": name, "aria-current": name === current ? "true" : "false", onclick: () => show(name) }, name)));
  // Only when another sheet is shown: the page redraws often, and the arrows' scrolling must stay where it is.
  if (strip.dataset.shown === current) return;
  const tab = Array.from(strip.children).find((el): el is HTMLElement => el instanceof HTMLElement && el.dataset.sheet === current);
  if (!tab) return;
  strip.dataset.shown = current;
  // Not scrollIntoView: it would also scroll the page and the grid around the bar. The strip is positioned
  // (workbench.css), so offsetLeft is from its own left edge, whatever it is scrolled to.
  const left = tab.offsetLeft;
  if (left < strip.scrollLeft) strip.scrollLeft = left;
  else if (left + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = left + tab.offsetWidth - strip.clientWidth;
}

/** The bar's strip of tabs, made with its two arrows the first time; an arrow scrolls by most of the strip's width. */
function stripOf(bar: HTMLElement): HTMLElement {
  const made = bar.querySelector<HTMLElement>(".tab-strip");
  if (made) return made;
  const strip = h("div", { className: "tab-strip" });
  const arrow = (label: string, glyph: string, direction: number) =>
    h("button", { type: "button", className: "tab-scroll", "aria-label": label, title: label, onclick: () => strip.scrollBy({ left: direction * Math.max(40, strip.clientWidth * 0.8) }) }, glyph);
  bar.replaceChildren(arrow("Scroll the sheet tabs left", "◀", -1), arrow("Scroll the sheet tabs right", "▶", 1), strip);
  return strip;
}
