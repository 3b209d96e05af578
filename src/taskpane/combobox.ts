/**
 * An editable combo box (the WAI-ARIA combobox pattern with a list popup): a text input a person can type
 * an id into, or pick from suggestions with the keyboard (Alt+Down or Down opens, Up/Down move, Enter
 * picks, Escape closes) or the mouse. Chosen over <datalist>, whose popup the browser draws outside the
 * page: it cannot show a card's holder beside its id the same way everywhere, nor be driven by tests.
 * https://www.w3.org/WAI/ARIA/apg/patterns/combobox/examples/combobox-autocomplete-list/
 */
import { setChildren, h } from "./dom";

export interface ComboOption {
  /** What goes into the input (an id). */
  value: string;
  /** Shown beside it ("•••• 4242 — Ana Pérez"); the id alone when empty. */
  label?: string;
  /** Where the suggestion comes from ("recent", "in this workbook"). */
  source?: string;
}

export interface Combobox {
  input: HTMLInputElement;
  /** The input with its popup (goes where the input would). */
  element: HTMLElement;
  /** A line under the input naming the option the input holds ("•••• 4242 — Ana Pérez"). */
  chosen: HTMLElement;
  setOptions(options: readonly ComboOption[]): void;
}

const SHOWN = 50;

/** The combo box's elements: the input, the ▾ button that opens the list, the list, and the line under them. */
function comboElements(id: string, name: string, placeholder: string) {
  const listId = `${id}-list`;
  const input = h("input", {
    id, placeholder, spellcheck: false, autocomplete: "off", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
    "aria-controls": listId, "aria-describedby": `${id}-chosen`,
  });
  const list = h("ul", { id: listId, role: "listbox", "aria-label": name, className: "combo-list", hidden: true });
  const toggle = h("button", { type: "button", className: "combo-toggle", tabIndex: -1, "aria-label": `Show ${name} suggestions`, title: "Suggestions" }, "▾");
  const chosen = h("div", { id: `${id}-chosen`, className: "hint chosen" });
  return { input, list, toggle, chosen, element: h("div", { className: "combo" }, input, toggle, list) };
}

/** The options whose id or label holds `query` (every option for an empty one), at most SHOWN. */
function matching(options: readonly ComboOption[], query: string): ComboOption[] {
  return options.filter((o) => !query || o.value.toLowerCase().includes(query) || (o.label ?? "").toLowerCase().includes(query)).slice(0, SHOWN);
}

/** One suggestion in the list: its label (or id), its id beside a label, and where it comes from. */
function optionItem(id: string, o: ComboOption, i: number, selected: boolean, pick: () => void): HTMLLIElement {
  return h("li", {
    id: `${id}-opt-${i}`, role: "option", "aria-selected": selected ? "true" : "false",
    onmousedown: (e: Event) => { e.preventDefault(); pick(); },
  }, h("span", { className: "opt-label" }, o.label || o.value), o.label ? h("span", { className: "opt-id" }, o.value) : null,
  o.source ? h("span", { className: "opt-source" }, o.source) : null);
}

/** What the keyboard does to the popup. */
interface PopupKeys {
  isOpen(): boolean;
  open(): void;
  close(): void;
  move(by: number): void;
  /** Whether an option was moved to (Enter picks it). */
  hasActive(): boolean;
  pickActive(): void;
}

/** The pattern's keys: Alt+Down opens, Down/Up move (opening), Enter picks, Escape and Tab close. */
function onComboKey(e: KeyboardEvent, popup: PopupKeys): void {
  if (e.key === "ArrowDown") {
    e.preventDefault();
    if (e.altKey) popup.open();
    else popup.move(1);
  } else if (e.key === "ArrowUp") {
    e.preventDefault();
    popup.move(-1);
  } else if (e.key === "Enter" && popup.isOpen() && popup.hasActive()) {
    e.preventDefault(); // picks; the form is not submitted
    popup.pickActive();
  } else if (e.key === "Escape" && popup.isOpen()) {
    e.preventDefault();
    popup.close();
  } else if (e.key === "Tab") {
    popup.close();
  }
}

/** A combo box with the id `id`, its list named `name` (the list's label and the ▾ button's). */
export function combobox(id: string, name: string, placeholder: string): Combobox {
  const { input, list, toggle, chosen, element } = comboElements(id, name, placeholder);
  let options: readonly ComboOption[] = [];
  let shown: ComboOption[] = [];
  let active = -1;
  /** The input's text filters the list only once the person typed in it (a picked id shows every option). */
  let filtering = false;

  const isOpen = () => !list.hidden;
  function render(): void {
    setChildren(list, ...shown.map((o, i) => optionItem(id, o, i, i === active, () => pick(o))));
    if (active >= 0) input.setAttribute("aria-activedescendant", `${id}-opt-${active}`);
    else input.removeAttribute("aria-activedescendant");
    list.children[active]?.scrollIntoView?.({ block: "nearest" });
  }
  function open(): void {
    shown = matching(options, filtering ? input.value.trim().toLowerCase() : "");
    active = -1;
    list.hidden = shown.length === 0;
    input.setAttribute("aria-expanded", String(!list.hidden));
    render();
  }
  function close(): void {
    list.hidden = true;
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }
  function describe(): void {
    const match = options.find((o) => o.value === input.value.trim());
    chosen.textContent = match?.label ?? "";
  }
  function pick(o: ComboOption): void {
    input.value = o.value;
    filtering = false;
    close();
    describe();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function move(by: number): void {
    if (!isOpen()) open();
    if (shown.length === 0) return;
    active = active < 0 ? (by > 0 ? 0 : shown.length - 1) : (active + by + shown.length) % shown.length;
    render();
  }

  input.addEventListener("input", () => {
    filtering = true;
    open();
    describe();
  });
  input.addEventListener("change", describe);
  input.addEventListener("blur", close);
  const keys: PopupKeys = { isOpen, open, close, move, hasActive: () => active >= 0, pickActive: () => pick(shown[active]) };
  input.addEventListener("keydown", (e: KeyboardEvent) => onComboKey(e, keys));
  toggle.addEventListener("mousedown", (e) => {
    e.preventDefault();
    input.focus();
    if (isOpen()) close();
    else {
      filtering = false;
      open();
    }
  });

  return {
    input, element, chosen,
    setOptions(next) {
      options = next;
      describe();
      if (isOpen()) open();
    },
  };
}
