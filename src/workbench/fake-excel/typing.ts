/**
 * Excel's typing rules: what a value written through `values`, `formulas` or `valuesAsJson`, or typed by a
 * person, becomes in a cell, and what each read gives back. A string written naively becomes a formula, a
 * number or a date exactly where Excel would make it one; a typed String stays that text; a table's header
 * is always text.
 */
import { FakeExcelError } from "./errors";
import type { Cell, RichValue, Scalar, TableModel } from "./model";

/** The most characters a cell holds: https://support.microsoft.com/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3 */
export const CELL_TEXT_LIMIT = 32_767;

/**
 * Prefixes that make a string written through `values` a formula. The d.ts of Range.values names + - =
 * ("Excel interprets this value as a formula"). Undocumented, so taken the strict way here: "@" (Excel's
 * implicit-intersection operator, which it turns into a formula when typed), the full-width forms
 * (＝ ＋ － ＠, which an IME produces and Excel's parser accepts in East Asian locales), and any of them
 * after leading white space (space, tab, CR, LF), which Excel's entry parser skips.
 */
const FORMULA_START = /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
const NUMBER = /^\s*[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?\s*%?\s*$/;

/** A digit is needed before any exponent: "E-1001" is text (an expense reference), not a number. */
const isNumberLike = (text: string) => NUMBER.test(text) && /\d/.test(text.split(/[eE]/)[0]);

/** The error a write through the API gets for text over the cell limit (strict: Excel's own wording is undocumented). */
function checkLength(text: string): void {
  if (text.length > CELL_TEXT_LIMIT) {
    throw new FakeExcelError("InvalidArgument", `A cell can hold at most ${CELL_TEXT_LIMIT} characters; this text has ${text.length}.`);
  }
}

/**
 * A value written through `Range.values` (or `formulas`, for a non-formula string). Rules:
 * - `null` leaves the cell as it is; "" clears it.
 *   https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-blank-null-values
 * - a string starting with a formula prefix (see FORMULA_START) becomes a formula. Whether a cell formatted
 *   Text ("@") keeps such a string as text when it comes through the API is not documented, so here it
 *   does not: the strict reading. The only documented way to write exact text is a typed `String` value
 *   through `valuesAsJson` (see writeTyped).
 * - a number-like string becomes a number (leading zeros, exponent forms and thousands separators read as
 *   Excel reads them), TRUE / FALSE become booleans, and date-like text becomes a date serial: Excel
 *   converts text typed or written as values (the d.ts of Range.values on dates), whatever the format.
 */
export function writeValue(cell: Cell, value: unknown): void {
  if (value === null) return;
  if (value === undefined) throw new FakeExcelError("InvalidArgument", "undefined is not a cell value; use null to leave a cell unchanged.");
  cell.formula = undefined;
  cell.rich = undefined;
  cell.emptyText = undefined;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new FakeExcelError("InvalidArgument", `${value} is not a number Excel can hold.`);
    cell.value = value;
    return;
  }
  if (typeof value === "boolean") {
    cell.value = value;
    return;
  }
  if (typeof value !== "string") throw new FakeExcelError("InvalidArgument", `A cell value is a string, number or boolean, not ${typeof value}.`);
  checkLength(value);
  if (FORMULA_START.test(value) && !isNumberLike(value)) {
    const formula = value.trimStart().replace(/^[@\uFF20]/, "").replace(/^[\uFF1D\uFF0B\uFF0D]/, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
    cell.formula = formula.startsWith("=") ? formula : `=${formula}`;
    cell.value = ""; // calculated once the request or the edit is done (formula-engine.ts)
    return;
  }
  cell.value = convertText(cell, value);
}

/** What Excel makes of a constant string: a number, a boolean, a date, or the text with leading tabs/CRs dropped. */
function convertText(cell: Cell, value: string): Scalar {
  if (isNumberLike(value)) {
    const n = Number(value.replace(/[,%\s]/g, ""));
    return value.trim().endsWith("%") ? n / 100 : n;
  }
  if (/^\s*(true|false)\s*$/i.test(value)) return value.trim().toLowerCase() === "true";
  const serial = dateSerial(value.trim());
  if (serial !== null) {
    if (!/[yd]/i.test(cell.numberFormat)) cell.numberFormat = Number.isInteger(serial) ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm";
    return serial;
  }
  return value.replace(/^[\t\r\n]+/, "");
}

/** A formula written through `Range.formulas`: a string starting with "=" is a formula; anything else is a value. */
export function writeFormula(cell: Cell, value: unknown): void {
  if (typeof value === "string" && value.startsWith("=")) {
    checkLength(value);
    cell.formula = value;
    cell.rich = undefined;
    cell.emptyText = undefined;
    cell.value = "";
    return;
  }
  writeValue(cell, value);
}

/** A typed cell value as it arrives on the wire (checked field by field below). */
type Incoming = { type?: unknown; basicValue?: unknown; numberFormat?: unknown; errorType?: unknown; text?: unknown; properties?: unknown };

/** Excel.ErrorCellValue.errorType values with the text `values` reads for each (d.ts, ErrorCellValueType). */
const ERROR_TEXT: Readonly<Record<string, string>> = {
  Blocked: "#BLOCKED!", Busy: "#BUSY!", Calc: "#CALC!", Connect: "#CONNECT!", Div0: "#DIV/0!", External: "#EXTERNAL!",
  Field: "#FIELD!", GettingData: "#GETTING_DATA", NotAvailable: "#N/A", Name: "#NAME?", Null: "#NULL!", Num: "#NUM!",
  Placeholder: "#N/A", Ref: "#REF!", Spill: "#SPILL!", Value: "#VALUE!",
};

/** The errorType of an error's text (#N/A: NotAvailable), or undefined when the text is no Excel error. */
export const errorTypeOf = (text: string): string | undefined => Object.keys(ERROR_TEXT).find((type) => type !== "Placeholder" && ERROR_TEXT[type] === text);

/**
 * A malformed cell value: "The data types APIs return GeneralException errors with dynamic error messages ... such
 * as: Cell A1 is missing the required property type." (application-specific-api-error-handling article).
 */
const invalid = (message: string) => new FakeExcelError("GeneralException", message);

/** An entity's properties are cell values themselves (d.ts, EntityPropertyType): a bare string or number is refused. */
function checkProperties(properties: unknown): void {
  if (properties === undefined) return;
  if (typeof properties !== "object" || properties === null) throw invalid("An Entity's properties are an object of cell values.");
  for (const [name, value] of Object.entries(properties)) {
    if (value === null || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string") {
      throw invalid(`The Entity's property "${name}" is missing the required property type: every property is a cell value.`);
    }
  }
}

/**
 * A typed value written through `Range.valuesAsJson` (ExcelApi 1.16). A `String` cell value is "the value of
 * a cell containing a string" (Excel.StringCellValue): that Excel stores it without parsing is our reading,
 * not a documented sentence, and the self-test ("Check this Excel") confirms it in the user's Excel.
 * https://learn.microsoft.com/javascript/api/excel/excel.stringcellvalue
 * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member
 * Rich values (an error, an entity, a linked data type, a number with its format) are kept whole; `values`
 * reads their basic value, as each type's `basicValue` comment in the d.ts says.
 * Whether `null` leaves a cell unchanged here, as it does for `values`, is not documented: refused (strict).
 */
export function writeTyped(cell: Cell, value: unknown): void {
  if (value === null || typeof value !== "object") {
    throw new FakeExcelError("InvalidArgument", "valuesAsJson takes a typed cell value for every cell (null is not documented to leave a cell unchanged).");
  }
  const typed = value as Incoming & { writable?: unknown };
  // "When false, APIs which would use this CellValue to overwrite a cell will instead ignore this value without
  // throwing an error" (d.ts, CellValueExtraProperties.writable).
  if (typed.writable === false) return;
  cell.formula = undefined;
  cell.rich = undefined;
  cell.emptyText = undefined;
  switch (typed.type) {
    case "String":
      if (typeof typed.basicValue !== "string") throw invalid("A String cell value needs a string basicValue.");
      checkLength(typed.basicValue);
      cell.value = typed.basicValue;
      // A string of no characters is still a string (strict: undocumented); only Empty leaves a blank cell.
      cell.emptyText = typed.basicValue === "" || undefined;
      return;
    case "Double":
      if (typeof typed.basicValue !== "number" || !Number.isFinite(typed.basicValue)) throw invalid("A Double cell value needs a finite number.");
      cell.value = typed.basicValue;
      if (typed.numberFormat !== undefined) {
        if (typeof typed.numberFormat !== "string") throw invalid("A Double cell value's numberFormat is a string.");
        cell.rich = { type: "Double", basicValue: typed.basicValue, numberFormat: typed.numberFormat };
      }
      return;
    case "FormattedNumber":
      if (typeof typed.basicValue !== "number" || !Number.isFinite(typed.basicValue) || typeof typed.numberFormat !== "string") {
        throw invalid("A FormattedNumber cell value needs a finite number and a numberFormat.");
      }
      cell.value = typed.basicValue;
      cell.rich = { type: "FormattedNumber", basicValue: typed.basicValue, numberFormat: typed.numberFormat };
      return;
    case "Boolean":
      if (typeof typed.basicValue !== "boolean") throw invalid("A Boolean cell value needs a boolean.");
      cell.value = typed.basicValue;
      return;
    case "Empty":
      cell.value = "";
      return;
    case "Error": {
      const text = typeof typed.errorType === "string" ? ERROR_TEXT[typed.errorType] : undefined;
      if (!text) throw invalid(`An Error cell value needs an errorType Excel knows (${Object.keys(ERROR_TEXT).join(", ")}).`);
      cell.value = text;
      cell.rich = { type: "Error", basicValue: text, errorType: typed.errorType } as Excel.ErrorCellValue;
      return;
    }
    case "Entity":
      if (typeof typed.text !== "string") throw invalid("An Entity cell value needs the text its cell shows.");
      checkProperties(typed.properties);
      cell.value = "#VALUE!";
      cell.rich = structuredClone(value) as Excel.EntityCellValue;
      return;
    case undefined:
      throw invalid("The cell value is missing the required property type.");
    default:
      throw invalid(`The in-memory Excel writes String, Double, FormattedNumber, Boolean, Empty, Error and Entity cell values, not ${String(typed.type)}.`);
  }
}

/**
 * A rich value a person (or a data type provider) put in a cell: a linked data type such as Stocks has no
 * API to write it (it comes from a provider), so the workbench's UserActions places it through here.
 */
export function placeRich(cell: Cell, value: RichValue): void {
  cell.formula = undefined;
  cell.emptyText = undefined;
  cell.rich = structuredClone(value);
  cell.value = value.type === "FormattedNumber" || value.type === "Double" ? value.basicValue : (value.basicValue as string | undefined) ?? "#VALUE!";
}

/**
 * A cell as `valuesAsJson` reads it: a rich value whole; a formula as its result's type (a number a Double, a
 * text a String, "" from `=""` a String too: a formula's cell is never Empty), its error as an Error value.
 */
export function typedOf(cell: Cell | undefined): Excel.CellValue {
  if (cell?.rich && (cell.formula === undefined || cell.rich.type === "Error")) return structuredClone(cell.rich);
  const value = cell?.value ?? "";
  if (value === "" && !cell?.emptyText && cell?.formula === undefined) return { type: "Empty", basicValue: "" };
  if (typeof value === "number") return { type: "Double", basicValue: value };
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  return { type: "String", basicValue: value };
}

/** A cell as `valueTypes` reads it (Excel.RangeValueType): errors (a formula's too) and entities are "Error". */
export function valueTypeOf(cell: Cell | undefined): "Empty" | "String" | "Double" | "Boolean" | "Error" {
  if (cell?.rich && (cell.formula === undefined || cell.rich.type === "Error")) {
    return cell.rich.type === "FormattedNumber" || cell.rich.type === "Double" ? "Double" : "Error";
  }
  const value = cell?.value ?? "";
  if (value === "" && cell?.formula === undefined && !cell?.emptyText) return "Empty";
  if (typeof value === "number") return "Double";
  if (typeof value === "boolean") return "Boolean";
  return "String";
}

/**
 * What a person typing into the grid gets: as `values`, except that a cell formatted Text ("@") keeps what
 * is typed as text, and a leading apostrophe marks text and is not stored (both documented for the UI:
 * https://support.microsoft.com/office/format-numbers-as-text-583160db-8e6b-4c15-8c83-1ae5d4e1a6b3).
 */
export function typeIntoCell(cell: Cell, input: Scalar): void {
  if (typeof input === "string" && (cell.numberFormat === "@" || input.startsWith("'"))) {
    cell.formula = undefined;
    cell.rich = undefined;
    cell.emptyText = undefined;
    cell.value = input.startsWith("'") ? input.slice(1) : input;
    return;
  }
  writeValue(cell, input);
}

/**
 * Table headers are unique, non-empty text: Excel names a blank header ColumnN and adds a number to a
 * repeated one, and a header holds no formula. https://support.microsoft.com/office/overview-of-excel-tables-7ab0bb7d-3a9e-4b56-a3c9-6c94334e492c
 */
export function normaliseTableHeaders(tables: readonly TableModel[]): void {
  for (const table of tables) {
    const seen = new Set<string>();
    for (let c = 0; c < table.area.columnCount; c++) {
      const cell = table.sheet.ensure(table.area.row, table.area.column + c);
      cell.formula = undefined;
      let name = String(cell.value ?? "");
      if (name === "") name = `Column${c + 1}`;
      const base = name;
      for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base}${n}`;
      seen.add(name.toLowerCase());
      cell.value = name;
    }
  }
}

/** Excel's reading of date-like text ("2026-11-01", "2026-11-01 14:30", "11/1/2026"): a serial number of days since 1899-12-30. */
function dateSerial(text: string): number | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  const m = iso ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]] : us ? [us[3], us[1], us[2], us[4], us[5], us[6]] : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[0]), Number(m[1]), Number(m[2])];
  const ms = Date.UTC(y, mo - 1, d, Number(m[3] ?? 0), Number(m[4] ?? 0), Number(m[5] ?? 0));
  const back = new Date(ms);
  if (Number.isNaN(ms) || back.getUTCDate() !== d || back.getUTCMonth() !== mo - 1 || y < 1900) return null;
  return ms / 86_400_000 + 25569;
}

/** How a sort orders two cells' values, ascending: numbers by value, anything else by its text (a person's and an add-in's sort alike). */
export function cellOrder(a: unknown, b: unknown): number {
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}
