/**
 * What a cell holds for a custom function's result in a given Excel: the values, the number formats the
 * result carries, or #VALUE! when that Excel cannot take it. From the reference:
 * - Data types returned by custom functions need CustomFunctionsRuntime 1.4 ("Requirement set 1.4 includes
 *   custom functions integration with data types", custom functions requirement sets). An Excel without it
 *   taking an entity or a formatted number is not documented: #VALUE! for the whole result (strict).
 * - `FormattedNumberCellValue` (ExcelApi 1.16) carries its `numberFormat`.
 * - `DoubleCellValue.numberFormat` is ExcelApi 1.19 (d.ts); before it, what Excel does with the member is not
 *   documented: the number shows without it (strict: a format the add-in relies on is lost, visibly).
 * - A text longer than a cell holds (32,767 characters, Excel specifications and limits) is not cut: Excel's own
 *   functions give #VALUE! for such a result ("If the result of the REPT function is longer than 32,767
 *   characters, REPT returns the #VALUE! error value": https://support.microsoft.com/office/rept-function-04c4d778-e712-43b4-9c15-d656582bb061).
 *   For a custom function's result Microsoft says nothing: strict reading, the whole result is #VALUE!.
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts
 */
import { isSetSupported, type ExcelProfile } from "./profiles";
import { CELL_TEXT_LIMIT } from "./typing";
import type { RichValue, Scalar } from "./model";

/** A value a custom function returned: plain, or a data type. */
type Returned = Scalar | null | {
  type: string; basicValue?: Scalar; numberFormat?: string; text?: string; properties?: Record<string, { type?: string; basicValue?: Scalar; numberFormat?: string }>;
};

export interface ShownResult {
  grid: Scalar[][];
  /** Number formats the result carries, by cell; null where it carries none. */
  formats: (string | null)[][];
  /** For an entity: its fields as its card shows them (header, value, format). */
  card?: { text: string; fields: { name: string; value: Scalar; format: string | null }[] };
  /** Why the result is #VALUE! in this Excel. */
  refused?: string;
  /**
   * The data type each cell holds, as this Excel kept it (null: a plain value): what a formula referring to the
   * cell is handed where its function takes data types (formula-arguments.ts).
   */
  typed: (RichValue | null)[][];
}

/** A number with its format, as this Excel reads the member that carries it. */
function number(profile: ExcelProfile, value: { type?: string; basicValue?: Scalar; numberFormat?: string }): { value: Scalar; format: string | null } | null {
  if (value.type === "FormattedNumber") return { value: value.basicValue ?? "", format: value.numberFormat ?? null };
  if (value.type === "Double") return { value: value.basicValue ?? "", format: isSetSupported(profile, "ExcelApi", "1.19") ? value.numberFormat ?? null : null };
  if (value.type === "String" || value.type === "Boolean") return { value: value.basicValue ?? "", format: null };
  return null;
}

export function shownResult(profile: ExcelProfile, result: unknown): ShownResult {
  const grid = (Array.isArray(result) ? result : [[result]]) as Returned[][];
  const typed = grid.some((row) => row.some((value) => value !== null && typeof value === "object"));
  if (typed && !isSetSupported(profile, "CustomFunctionsRuntime", "1.4")) {
    return { grid: [["#VALUE!"]], formats: [[null]], typed: [[null]], refused: `${profile.name} takes no data types from a custom function (they need CustomFunctionsRuntime 1.4).` };
  }
  // A loop, not Math.max(...): a spill of a whole list is a million cells, beyond a call's arguments.
  let longest = 0;
  for (const row of grid) for (const value of row) for (const text of textsOf(value)) longest = Math.max(longest, text.length);
  if (longest > CELL_TEXT_LIMIT) {
    return { grid: [["#VALUE!"]], formats: [[null]], typed: [[null]], refused: `The result holds a text of ${longest} characters; a cell holds at most ${CELL_TEXT_LIMIT}.` };
  }
  let card: ShownResult["card"];
  const cells = grid.map((row) => row.map((value): { value: Scalar; format: string | null } | null => {
    if (value === null || typeof value !== "object") return { value: value ?? "", format: null };
    if (value.type === "Entity") {
      const fields = Object.entries(value.properties ?? {}).map(([name, field]) => ({ name, ...(number(profile, field) ?? { value: "#VALUE!", format: null }) }));
      card ??= { text: value.text ?? "", fields };
      return { value: value.text ?? "", format: null };
    }
    return number(profile, value);
  }));
  if (cells.some((row) => row.some((cell) => cell === null))) return { grid: [["#VALUE!"]], formats: [[null]], typed: [[null]], refused: "The result holds a value Excel cannot show." };
  const typedCells = grid.map((row, r) => row.map((value, c) => typedCell(value, cells[r][c]!.format)));
  return { grid: cells.map((row) => row.map((c) => c!.value)), formats: cells.map((row) => row.map((c) => c!.format)), card, typed: typedCells };
}

/** The texts a returned value puts in the workbook: a string, a typed string, an entity's text and its text fields. */
function textsOf(value: Returned): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  const own = [value.basicValue, value.text].filter((t): t is string => typeof t === "string");
  return [...own, ...Object.values(value.properties ?? {}).flatMap((p) => (typeof p.basicValue === "string" ? [p.basicValue] : []))];
}

/** The data type a result's cell keeps: an entity whole, a number with the format this Excel kept; else none. */
function typedCell(value: Returned, format: string | null): RichValue | null {
  if (value === null || typeof value !== "object") return null;
  if (value.type === "Entity") return structuredClone(value) as Excel.EntityCellValue;
  if (typeof value.basicValue !== "number" || format === null) return null;
  return value.type === "FormattedNumber"
    ? { type: "FormattedNumber", basicValue: value.basicValue, numberFormat: format }
    : { type: "Double", basicValue: value.basicValue, numberFormat: format };
}
