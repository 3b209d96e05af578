/**
 * The order Refresh data recalculates the workbench's formulas in: Excel calculates a cell after the cells it
 * refers to (its dependency tree: https://learn.microsoft.com/office/client-developer/excel/excel-recalculation).
 * A =SPEND formula referring to a
 * cell another formula spilled into waits for that formula, else it would read the cell while its spill is gone
 * (#BUSY!) and ask with an empty argument.
 */
import { inArea } from "./fake-excel/spills";
import { parseArea, type Area } from "./fake-excel/address";

export interface Placed {
  sheet: string;
  address: string;
  formula: string;
  /** The area its result covers now ("B2:D9"). */
  area: string;
}

/** The cells a formula refers to (outside its quoted texts), as A1 addresses. */
const referencesOf = (formula: string): string[] =>
  [...formula.replace(/"(?:[^"]|"")*"/g, '""').matchAll(/(?<![A-Za-z0-9_.])\$?([A-Za-z]{1,3})\$?(\d+)(?![A-Za-z0-9_(])/g)].map((m) => `${m[1]}${m[2]}`);

/**
 * Runs `calculate` for each formula, each after the formulas whose results it refers to; formulas that refer
 * to one another in a circle run without waiting for each other (Excel would show a circular reference).
 */
export async function inDependencyOrder(formulas: readonly Placed[], calculate: (f: Placed) => Promise<void>): Promise<void> {
  const areas: Area[] = formulas.map((f) => parseArea(f.area));
  const dependsOn = formulas.map((f, i) => formulas.flatMap((other, j) => {
    if (j === i || other.sheet !== f.sheet) return [];
    return referencesOf(f.formula).some((ref) => { const at = parseArea(ref); return inArea(areas[j], at.row, at.column); }) ? [j] : [];
  }));
  const runs = new Map<number, Promise<void>>();
  const run = (i: number, path: ReadonlySet<number>): Promise<void> => {
    let started = runs.get(i);
    if (!started) {
      const waits = dependsOn[i].filter((j) => !path.has(j)).map((j) => run(j, new Set([...path, i])));
      started = Promise.all(waits).then(() => calculate(formulas[i]));
      runs.set(i, started);
    }
    return started;
  };
  await Promise.all(formulas.map((_, i) => run(i, new Set([i]))));
}
