/**
 * The page's inputs around the grid, wired to a WorkbookView as Excel's behave: the cell editor's keys,
 * typing, clipboard and blur; the formula bar's focus, Enter, Tab and Escape; the name box's Enter.
 */
import { parseArea } from "./fake-excel/address";
import type { CellEditor } from "./editor";
import { commandFor, type Command, type EditMode } from "./keyboard";
import { move, type Selection } from "./selection";

/** What the inputs drive of the view: the view wires them, so they name its members here rather than import it (a circle). */
export interface InputTarget {
  readonly selection: Selection;
  run(command: Command): void;
  beginEdit(mode: Exclude<EditMode, "idle">, source: "cell" | "bar", typed?: string): void;
  paste(text: string): void;
  copyText(): string;
  commit(): boolean;
  cancel(): void;
  focus(): void;
  select(selection: Selection): void;
  render(): void;
}

/** The page's inputs around the grid that the view hands over. */
export interface InputElements {
  nameBox: HTMLInputElement;
  bar: HTMLInputElement;
}

/** Listens to the cell editor, the formula bar and the name box on the view's behalf. */
export function wireInputs(view: InputTarget, editor: CellEditor, el: InputElements): void {
  wireCellEditor(view, editor, el.bar);
  wireFormulaBar(view, editor, el.bar);
  wireNameBox(view, el.nameBox);
}

function wireCellEditor(view: InputTarget, editor: CellEditor, bar: HTMLInputElement): void {
  const input = editor.input;
  input.addEventListener("keydown", (e) => {
    if (e.isComposing) return;
    const command = commandFor(e, editor.mode);
    if (!command) return;
    e.preventDefault();
    view.run(command);
  });
  input.addEventListener("input", () => {
    if (!editor.editing) view.beginEdit("enter", "cell", input.value);
    bar.value = input.value;
  });
  input.addEventListener("paste", (e) => {
    if (editor.editing) return; // while editing, the text goes into the cell's text, as in Excel
    e.preventDefault();
    view.paste(e.clipboardData?.getData("text/plain") ?? "");
  });
  input.addEventListener("copy", (e) => {
    if (editor.editing) return;
    e.preventDefault();
    e.clipboardData?.setData("text/plain", view.copyText());
  });
  input.addEventListener("blur", (e) => {
    if (!editor.editing || editor.source !== "cell") return;
    // Into the formula bar: the same edit goes on there, as in Excel. Anywhere else: it is entered, or refused
    // with the Stop alert (which takes the focus); never put back in silence.
    if (e.relatedTarget === bar) editor.source = "bar";
    else view.commit();
  });
}

function wireFormulaBar(view: InputTarget, editor: CellEditor, bar: HTMLInputElement): void {
  bar.addEventListener("focus", () => {
    if (!editor.editing) view.beginEdit("edit", "bar");
  });
  bar.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      // Enter in the formula bar enters and stays on the cell, so its result and message stay in view.
      if (!view.commit()) return;
      if (e.key === "Tab") view.select(move(view.selection, 0, e.shiftKey ? -1 : 1, false));
      view.focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      view.cancel();
      view.focus();
    }
  });
  bar.addEventListener("blur", (e) => {
    if (!editor.editing || editor.source !== "bar" || e.relatedTarget === editor.input) return;
    view.commit();
  });
}

/** Enter in the name box selects the address typed there; an address it cannot read leaves the selection. */
function wireNameBox(view: InputTarget, nameBox: HTMLInputElement): void {
  nameBox.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    try {
      const a = parseArea(nameBox.value);
      nameBox.blur();
      view.select({ anchor: { row: a.row, column: a.column }, focus: { row: a.row + a.rowCount - 1, column: a.column + a.columnCount - 1 } });
    } catch {
      view.render();
    }
    view.focus();
  });
}
