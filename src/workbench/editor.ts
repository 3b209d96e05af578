/**
 * The in-cell editor: one text box that lies over the active cell. Idle, it is invisible but keeps the
 * keyboard focus, so typing, arrows, Ctrl+V and Ctrl+C reach the grid the way they reach Excel's; the first
 * character typed opens it (replacing the cell's content, as Excel does). It sits on the grid's canvas,
 * outside the rows, so redrawing rows (on scroll, or when the add-in writes) never takes its focus.
 */
import { h } from "../taskpane/dom";
import type { Box } from "./grid";
import type { EditMode } from "./keyboard";

export type EditSource = "cell" | "bar";

export class CellEditor {
  readonly input: HTMLInputElement;
  mode: EditMode = "idle";
  source: EditSource = "cell";
  /** The cell's text when the edit began (an unchanged edit is not entered again). */
  original = "";

  constructor(canvas: HTMLElement, private readonly bar: HTMLInputElement) {
    this.input = h("input", { id: "cell-editor", className: "cell-editor idle", autocomplete: "off", spellcheck: false, "aria-label": "Cell editor" });
    canvas.appendChild(this.input);
  }

  get editing(): boolean {
    return this.mode !== "idle";
  }

  /** The text being entered, wherever it is typed. */
  text(): string {
    return this.source === "bar" ? this.bar.value : this.input.value;
  }

  place(box: Box): void {
    Object.assign(this.input.style, { top: `${box.top}px`, left: `${box.left}px`, width: `${Math.max(box.width, 60)}px`, height: `${box.height}px` });
  }

  /** Opens the editor; `text` is what it starts with (the cell's content for F2, the first key for typing). */
  open(mode: Exclude<EditMode, "idle">, source: EditSource, original: string, text: string): void {
    this.mode = mode;
    this.source = source;
    this.original = original;
    if (source === "cell") {
      this.input.value = text;
      this.input.classList.remove("idle");
      this.input.setSelectionRange(text.length, text.length);
      this.bar.value = text;
    }
  }

  close(): void {
    this.mode = "idle";
    this.source = "cell";
    this.input.value = "";
    this.input.classList.add("idle");
  }

  focus(): void {
    this.input.focus({ preventScroll: true });
  }
}
