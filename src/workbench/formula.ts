/**
 * The workbench's formulas: `=SPEND.NAME(arg, …)` with text in quotes, numbers, TRUE/FALSE, empty
 * arguments and cell references, calling the functions the bundle registered with CustomFunctions.associate.
 * The workbench calculates nothing else, and says so the way Excel would: a name Excel does not know is
 * #NAME?; an Excel function (DATE, SUM, …) or any other formula is #VALUE! with a sentence saying why.
 */
import { display } from "./display";
import type { RichValue, Scalar } from "./fake-excel/model";
import { shownResult } from "./fake-excel/function-results";
import { handedArgument, type FunctionsMetadata } from "./formula-arguments";
import { currentProfile } from "./office-js/office-host";

interface Registry {
  registry: Record<string, (...args: unknown[]) => Promise<unknown>>;
  Error: new (code: string, message?: string) => { code: string; message?: string };
}

export interface FormulaResult {
  grid: Scalar[][];
  /** Number formats the result's formatted numbers carry, by cell (data types). */
  formats?: (string | null)[][];
  /** The error's message, when the result is an Excel error. */
  error?: string;
  /** For an entity result: what Excel's card would show, as one line for the formula bar. */
  card?: string;
  /** The data type each cell holds (null: a plain value), for the formulas that refer to it. */
  typed?: (RichValue | null)[][];
}

/** A result as the grid takes it in this Excel (see function-results.ts): values, formats, an entity's card line. */
function asResult(result: unknown): FormulaResult {
  const shown = shownResult(currentProfile(), result);
  if (shown.refused) return { grid: shown.grid, error: `#VALUE! ${shown.refused}` };
  const card = shown.card && `${shown.card.text}: ${shown.card.fields.map((f) => `${f.name} ${display(f.value, f.format ?? "General")}`).join(" · ")}`;
  return { grid: shown.grid, formats: shown.formats, card, typed: shown.typed };
}

/** Excel functions a finance user may well type: known names, so #VALUE! (not computed here), not #NAME?. */
const EXCEL_FUNCTIONS = new Set(("ABS AND AVERAGE AVERAGEIF CEILING CHOOSE COLUMN CONCAT CONCATENATE COUNT COUNTA COUNTBLANK COUNTIF " +
  "COUNTIFS DATE DATEDIF DATEVALUE DAY DAYS EDATE EOMONTH EXACT FILTER FIND FLOOR HOUR HLOOKUP HYPERLINK IF IFERROR IFNA IFS " +
  "INDEX INDIRECT INT ISBLANK ISERROR ISNUMBER ISTEXT LAMBDA LEFT LEN LET LOWER MATCH MAX MID MIN MINUTE MOD MONTH " +
  "NETWORKDAYS NOT NOW OFFSET OR PROPER RAND ROUND ROUNDDOWN ROUNDUP ROW SEARCH SECOND SEQUENCE SORT SORTBY SUBSTITUTE " +
  "SUM SUMIF SUMIFS SUMPRODUCT SWITCH TEXT TEXTJOIN TIME TIMEVALUE TODAY TRANSPOSE TRIM UNIQUE UPPER VALUE VLOOKUP " +
  "WEEKDAY WORKDAY XLOOKUP XMATCH YEAR").split(" "));

const ONLY_SPEND = "The workbench calculates only the =SPEND.* functions";

function runtime(): Registry {
  // The workbench's stand-in for Excel's CustomFunctions global (it keeps a registry the real one does not expose).
  return Reflect.get(globalThis, "CustomFunctions" as string) as Registry;
}

const nameError = (message: string): FormulaResult => ({ grid: [["#NAME?"]], error: `#NAME? ${message}` });
const valueError = (message: string): FormulaResult => ({ grid: [["#VALUE!"]], error: `#VALUE! ${message}` });

/** The first function a formula calls that the workbench cannot: an Excel error result, or null. */
function unsupported(text: string, spend: string[]): FormulaResult | null {
  const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, '""');
  for (const m of outsideQuotes.matchAll(/([A-Za-z_][A-Za-z0-9_.]*)\s*\(/g)) {
    const name = m[1].toUpperCase();
    if (name.startsWith("SPEND.")) {
      if (spend.length === 0) return nameError(`Excel has no function ${name}: this Excel did not load the add-in's functions (it lacks a requirement set the manifest asks for).`);
      if (!spend.includes(name.slice(6))) return nameError(`There is no function ${name}; the add-in has ${spend.map((n) => `SPEND.${n}`).join(", ")}.`);
      continue;
    }
    if (EXCEL_FUNCTIONS.has(name)) return valueError(`${ONLY_SPEND}; ${name} is an Excel function it does not compute (Excel itself does).`);
    return nameError(`Excel has no function ${name}.`);
  }
  return null;
}

export interface EvaluateOptions {
  /** False where Excel did not load the add-in's functions: a =SPEND name is unknown to it, #NAME?. */
  functions?: boolean;
  /** functions.json: which parameters are handed a referenced cell's data type whole (formula-arguments.ts). */
  metadata?: FunctionsMetadata | null;
}

/**
 * Calculates a formula; an Excel error comes back as its error value, with a message, never as a throw. A cell
 * reference is handed to the function as Excel hands it (formula-arguments.ts): `cellValue` gives what the cell
 * holds, a data type whole.
 */
export async function evaluate(text: string, cellValue: (ref: string) => Scalar | RichValue | null, { functions = true, metadata = null }: EvaluateOptions = {}): Promise<FormulaResult> {
  const fns = functions ? runtime().registry : {};
  const problem = unsupported(text, Object.keys(fns));
  if (problem) return problem;
  const m = /^=\s*SPEND\.([A-Z]+)\s*\((.*)\)\s*$/is.exec(text.trim());
  if (!m) return valueError(`${ONLY_SPEND}, such as =SPEND.EXPENSES("subsidiary id", "approved").`);
  const id = m[1].toUpperCase();
  const fn = fns[id];
  const values: unknown[] = [];
  for (const arg of splitTopLevel(m[2])) {
    if (/^\$?[A-Z]{1,3}\$?\d+$/i.test(arg)) {
      const ref = arg.replace(/\$/g, "").toUpperCase();
      const handed = handedArgument(currentProfile(), metadata, id, values.length, ref, cellValue(ref));
      if ("error" in handed) return { grid: [[handed.error]], error: handed.message };
      values.push(handed.value);
    } else if (arg === "") values.push(null);
    else if (/^".*"$/s.test(arg)) values.push(arg.slice(1, -1).replace(/""/g, '"'));
    else if (/^(TRUE|FALSE)$/i.test(arg)) values.push(arg.toUpperCase() === "TRUE");
    else if (/^[+-]?\d+(\.\d+)?$/.test(arg)) values.push(Number(arg));
    else if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(arg)) return nameError(`${arg} is not a name Excel knows; put text in double quotes ("${arg}").`);
    else return valueError(`Cannot read the argument ${arg}: use "text", a number, TRUE/FALSE or a cell such as B2.`);
  }
  // Excel passes every parameter functions.json lists, an omitted one as null (a list function takes ...args:
  // its parameters are in the metadata only); unread, the function's own count is all there is to go by.
  const declared = metadata?.functions.find((f) => f.id === id)?.parameters.length ?? fn.length - 1;
  while (values.length < declared) values.push(null);
  try {
    return asResult(await fn(...values, {}));
  } catch (error) {
    if (error instanceof runtime().Error) return { grid: [[error.code]], error: `${error.code} ${error.message ?? ""}`.trim() };
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
