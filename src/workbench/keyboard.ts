/**
 * Excel's keys for the grid, as data: what a key does depends on whether a cell is being edited and how.
 * "enter" mode is editing begun by typing (arrows commit and move, as in Excel's Enter mode); "edit" mode
 * is begun by F2 or a double-click (arrows move the caret; F2 switches between the two, as in Excel).
 */
export type EditMode = "idle" | "enter" | "edit";

export type Command =
  | { kind: "move"; rows: number; columns: number; extend: boolean; jump: boolean }
  /** Enter / Tab and their Shift forms: commit an edit if any, then move the active cell. */
  | { kind: "commit"; rows: number; columns: number; tab: boolean }
  | { kind: "cancel" }
  | { kind: "edit" }
  | { kind: "clear" }
  | { kind: "fill-down" }
  | { kind: "page"; pages: number; extend: boolean }
  | { kind: "home" };

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const ARROWS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The command for a key, or null to let the key do what it does in a text box (type, move the caret). */
export function commandFor(e: KeyLike, mode: EditMode): Command | null {
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.key === "Enter" && !e.altKey) return { kind: "commit", rows: ctrl ? 0 : e.shiftKey ? -1 : 1, columns: 0, tab: false };
  if (e.key === "Tab") return { kind: "commit", rows: 0, columns: e.shiftKey ? -1 : 1, tab: true };
  if (e.key === "Escape") return { kind: "cancel" };
  if (e.key === "F2") return { kind: "edit" };
  const arrow = ARROWS[e.key];
  if (mode === "enter" && arrow && !e.shiftKey && !ctrl) return { kind: "commit", rows: arrow[0], columns: arrow[1], tab: false };
  if (mode !== "idle") return null;
  if (arrow) return { kind: "move", rows: arrow[0], columns: arrow[1], extend: e.shiftKey, jump: ctrl };
  if (e.key === "Delete" || e.key === "Backspace") return { kind: "clear" };
  if (ctrl && !e.altKey && e.key.toLowerCase() === "d") return { kind: "fill-down" };
  if (e.key === "PageDown" || e.key === "PageUp") return { kind: "page", pages: e.key === "PageDown" ? 1 : -1, extend: e.shiftKey };
  if (ctrl && e.key === "Home") return { kind: "home" };
  return null;
}
