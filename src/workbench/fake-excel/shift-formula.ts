/**
 * A formula copied down (fill, Ctrl+D) has its relative references moved by the same number of rows, as
 * Excel does: `=SPEND.EXPENSE($B$1, A2)` one row down is `=SPEND.EXPENSE($B$1, A3)`. Text in quotes is
 * left alone; a reference moved above row 1 becomes #REF!.
 */
const REFERENCE = /(?<![A-Za-z0-9_.])(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![A-Za-z0-9_(])/g;

export function shiftFormula(formula: string, rows: number): string {
  // Split on string literals ("" inside a literal is an escaped quote, which the split keeps together).
  return formula.split(/("(?:[^"]|"")*")/).map((part, i) => (i % 2 === 1 ? part : part.replace(REFERENCE, (ref, colAbs: string, col: string, rowAbs: string, row: string) => {
    if (rowAbs) return ref;
    const moved = Number(row) + rows;
    return moved < 1 ? "#REF!" : `${colAbs}${col}${rowAbs}${moved}`;
  }))).join("");
}
