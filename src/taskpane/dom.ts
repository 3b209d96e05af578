/** Building the taskpane's DOM. Text goes in through textContent only: service data never becomes markup. */

type Props = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.replace(/^on/, "").toLowerCase(), value);
    else if (key === "className") el.className = String(value);
    else if (key in el && typeof Reflect.get(el, key) !== "object") Reflect.set(el, key, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's content. */
export function setChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A labelled control; `labelled` is the element the label names when `control` wraps it (a combo box). */
export function field(label: string, control: HTMLElement, hint?: string | Node, labelled: HTMLElement = control): HTMLElement {
  labelled.id ||= `f-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return h("div", { className: "field" }, h("label", { htmlFor: labelled.id }, label), control,
    typeof hint === "string" ? h("div", { className: "hint" }, hint) : hint);
}

export function select(id: string, options: readonly string[], labels: Record<string, string> = {}): HTMLSelectElement {
  return h("select", { id }, ...options.map((o) => h("option", { value: o }, labels[o] ?? (o || "(any)"))));
}

/** The element that scrolls `el` vertically: the nearest ancestor that scrolls, else the page (Excel's taskpane). */
function scrollerOf(el: HTMLElement): HTMLElement {
  for (let up = el.parentElement; up; up = up.parentElement) {
    const overflow = getComputedStyle(up).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && up.scrollHeight > up.clientHeight) return up;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/**
 * Scrolls the pane (only the pane: never the page around it, as scrollIntoView would) so that `el` starts at its
 * top, or as near as the pane goes; with `focus`, `el` also takes the focus (it needs a tabIndex).
 */
export function reveal(el: HTMLElement, focus: boolean): void {
  const scroller = scrollerOf(el);
  const top = scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().top;
  scroller.scrollTop += el.getBoundingClientRect().top - top - 8;
  if (focus) el.focus({ preventScroll: true });
}
