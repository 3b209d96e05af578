/** The workbench grid's logic without a page: keys, selection moves, the clipboard's text, formula errors. */
import { formatTsv, parseTsv } from "../../src/workbench/clipboard";
import { fitNumber } from "../../src/workbench/display";
import { asFormula } from "../../src/workbench/entry";
import { evaluate } from "../../src/workbench/formula";
import { commandFor, type KeyLike } from "../../src/workbench/keyboard";
import { areaOf, extendTo, jump, move, single } from "../../src/workbench/selection";

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe("keys, as in Excel", () => {
  it("Enter, Tab and their Shift forms commit and move, in every mode", () => {
    for (const mode of ["idle", "enter", "edit"] as const) {
      expect(commandFor(key("Enter"), mode)).toEqual({ kind: "commit", rows: 1, columns: 0, tab: false });
      expect(commandFor(key("Enter", { shiftKey: true }), mode)).toEqual({ kind: "commit", rows: -1, columns: 0, tab: false });
      expect(commandFor(key("Tab", { shiftKey: true }), mode)).toEqual({ kind: "commit", rows: 0, columns: -1, tab: true });
    }
  });

  it("arrows move the selection when idle, commit and move after typing, and move the caret after F2", () => {
    expect(commandFor(key("ArrowDown", { shiftKey: true }), "idle")).toEqual({ kind: "move", rows: 1, columns: 0, extend: true, jump: false });
    expect(commandFor(key("ArrowRight"), "enter")).toEqual({ kind: "commit", rows: 0, columns: 1, tab: false });
    expect(commandFor(key("ArrowRight"), "edit")).toBeNull();
    expect(commandFor(key("x"), "idle")).toBeNull();
  });

  it("Delete, Backspace and Ctrl+D act on the selection only when no cell is edited", () => {
    expect(commandFor(key("Delete"), "idle")).toEqual({ kind: "clear" });
    expect(commandFor(key("Backspace"), "idle")).toEqual({ kind: "clear" });
    expect(commandFor(key("Backspace"), "enter")).toBeNull();
    expect(commandFor(key("d", { ctrlKey: true }), "idle")).toEqual({ kind: "fill-down" });
  });
});

describe("the selection", () => {
  it("Shift+arrows grow a range from the active cell, which stays put; a plain arrow collapses it", () => {
    let s = single({ row: 1, column: 3 });
    for (let i = 0; i < 19; i++) s = move(s, 1, 0, true);
    expect(areaOf(s)).toEqual({ row: 1, column: 3, rowCount: 20, columnCount: 1 });
    expect(s.anchor).toEqual({ row: 1, column: 3 });
    expect(move(s, 0, -1, false)).toEqual(single({ row: 1, column: 2 }));
    expect(move(single({ row: 0, column: 0 }), -1, -1, false)).toEqual(single({ row: 0, column: 0 }));
    expect(areaOf(extendTo(s, { row: 0, column: 1 }))).toEqual({ row: 0, column: 1, rowCount: 2, columnCount: 3 });
  });

  it("Ctrl+arrows jump to the end of a run of filled cells, or to the next filled one", () => {
    const filled = (p: { row: number }) => (p.row >= 0 && p.row <= 9) || p.row === 20;
    const last = { row: 20, column: 0 };
    expect(jump({ row: 0, column: 0 }, 1, 0, filled, last)).toEqual({ row: 9, column: 0 });
    expect(jump({ row: 9, column: 0 }, 1, 0, filled, last)).toEqual({ row: 20, column: 0 });
    expect(jump({ row: 20, column: 0 }, 1, 0, filled, last)).toEqual({ row: 20, column: 0 });
  });
});

describe("clipboard text and typed formulas", () => {
  it("reads tab-separated rows as Excel writes them (CRLF, a final line break, quoted cells)", () => {
    expect(parseTsv("PAY-1\r\nPAY-2\r\n")).toEqual([["PAY-1"], ["PAY-2"]]);
    expect(parseTsv('a\t"b\tc"\n"say ""hi"""\t')).toEqual([["a", "b\tc"], ['say "hi"', ""]]);
    expect(parseTsv(formatTsv([["x\ny", "1"]]))).toEqual([["x\ny", "1"]]);
  });

  it("= starts a formula; + and - do unless the text is a number", () => {
    expect(asFormula("=SPEND.CARDS()")).toBe("=SPEND.CARDS()");
    expect([asFormula("-5"), asFormula("+1,000.5"), asFormula("paid")]).toEqual([null, null, null]);
    expect(asFormula("+A1")).toBe("=+A1");
  });

  it("unknown functions are #NAME?, Excel's own are #VALUE! with a reason, never a thrown error", async () => {
    Reflect.set(globalThis, "CustomFunctions", { registry: { CARDS: async () => [["x"]] }, Error: class {} });
    try {
      expect(await evaluate("=FOO(1)", () => null)).toEqual({ grid: [["#NAME?"]], error: "#NAME? Excel has no function FOO." });
      expect((await evaluate("=SPEND.NOPE()", () => null)).error).toBe("#NAME? There is no function SPEND.NOPE; the add-in has SPEND.CARDS.");
      expect((await evaluate("=DATE(2026,1,1)", () => null)).error).toMatch(/^#VALUE! The workbench calculates only the =SPEND\.\* functions; DATE is an Excel function/);
      expect((await evaluate('=SPEND.CARDS("DATE(")', () => null)).grid).toEqual([["x"]]);
    } finally {
      Reflect.deleteProperty(globalThis, "CustomFunctions");
    }
  });
});

describe("a number or date too wide for its column (Excel's ####)", () => {
  // A monospace stand-in for the grid's font: 7 px a character.
  const measure = (text: string) => text.length * 7;

  it("shows the figure where it fits, and # across the column where it does not, never a cut figure", () => {
    expect(fitNumber("2026-06-12", 70, measure)).toBe("2026-06-12");
    expect(fitNumber("2026-06-12", 69, measure)).toBe("#########");
    expect(fitNumber("1,250,000.50", 40, measure)).toBe("#####");
    expect(fitNumber("1,250,000.50", 3, measure)).toBe("#");
  });
});
