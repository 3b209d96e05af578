/**
 * The workbench's formula bar: `=SPEND.NAME(arg, …)` with text in quotes, numbers, TRUE/FALSE, empty
 * arguments and cell references, calling the functions the bundle registered with CustomFunctions.associate.
 */
import type { Scalar } from "./fake-excel";

interface Registry {
  registry: Record<string, (...args: unknown[]) => Promise<unknown>>;
  Error: new (code: string, message?: string) => { code: string; message?: string };
}

export interface FormulaResult {
  grid: Scalar[][];
  /** The error's message, when the function gave an Excel error. */
  error?: string;
}

export async function callFormula(text: string, cellValue: (ref: string) => Scalar | null): Promise<FormulaResult> {
  const m = /^=\s*SPEND\.([A-Z]+)\s*\((.*)\)\s*$/is.exec(text.trim());
  if (!m) throw new Error('Write a formula like =SPEND.EXPENSES("subsidiary id", "approved").');
  // The workbench's stand-in for Excel's CustomFunctions global (it keeps a registry the real one does not expose).
  const runtime: Registry = Reflect.get(globalThis, "CustomFunctions" as string);
  const fn = runtime.registry[m[1].toUpperCase()];
  if (!fn) throw new Error(`#NAME? There is no function SPEND.${m[1].toUpperCase()}; try ${Object.keys(runtime.registry).join(", ")}.`);
  const raw = splitTopLevel(m[2]);
  const values = raw.map((arg): unknown => {
    if (arg === "") return null;
    if (/^".*"$/s.test(arg)) return arg.slice(1, -1).replace(/""/g, '"');
    if (/^(TRUE|FALSE)$/i.test(arg)) return arg.toUpperCase() === "TRUE";
    if (/^[+-]?\d+(\.\d+)?$/.test(arg)) return Number(arg);
    if (/^\$?[A-Z]{1,3}\$?\d+$/i.test(arg)) return cellValue(arg.replace(/\$/g, ""));
    throw new Error(`Cannot read the argument ${arg}: use "text", a number, TRUE/FALSE or a cell such as B2.`);
  });
  while (values.length < fn.length - 1) values.push(null);
  try {
    const result = await fn(...values, {});
    return { grid: Array.isArray(result) ? (result as Scalar[][]) : [[result as Scalar]] };
  } catch (error) {
    if (error instanceof runtime.Error) return { grid: [[error.code]], error: `${error.code} ${error.message ?? ""}`.trim() };
    throw error;
  }
}

/** Splits on commas outside quotes, keeping the quotes (so "a,b" stays one text argument). */
function splitTopLevel(text: string): string[] {
  if (text.trim() === "") return [];
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  out.push(current.trim());
  return out;
}
