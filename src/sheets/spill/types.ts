/**
 * A spill as Excel data types, for the custom functions where Excel takes them: dates, timestamps and amounts
 * as numbers that carry their number format (a date looks like a date in the spill), and a record as an
 * entity value (a card of every field, shown by the record's number or id).
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts
 * Which form an Excel takes (functions/runtime.ts decides): data types from a custom function need
 * CustomFunctionsRuntime 1.4; a number's format inside a `Double` is ExcelApi 1.19 (d.ts, DoubleCellValue
 * .numberFormat); before it the form was `FormattedNumber` (ExcelApi 1.16, deprecated in 1.19).
 * Text stays a plain string: a custom function's result is a value, never parsed as a formula.
 */
import { NUMBER_FORMATS, type ColumnKind } from "../columns";
import type { CellValue } from "../port/workbook";
import { rowFormatter } from "../money-formats";
import { recordSpecOf, type RecordKind } from "../resources";
import type { Spill } from "./spill";

/** How a number carries its format: `Double` with `numberFormat` (ExcelApi 1.19) or `FormattedNumber` (1.16). */
export type NumberForm = "double" | "formatted-number";

/** What a custom function hands to Excel with data types. */
export type TypedValue = string | boolean | Excel.DoubleCellValue | Excel.FormattedNumberCellValue | Excel.EntityCellValue;

const FORMATTED: ReadonlySet<ColumnKind> = new Set(["integer", "number", "amount", "percent", "date", "timestamp"]);

/** A number with the format it shows with, in the form this Excel takes. */
function withFormat(value: number, numberFormat: string, form: NumberForm): Excel.DoubleCellValue | Excel.FormattedNumberCellValue {
  return form === "double" ? { type: "Double", basicValue: value, numberFormat } : { type: "FormattedNumber", basicValue: value, numberFormat };
}

/** A number of a formatted kind with its format (an amount's follows its currency: `format`); the rest as it is. */
export function typedValue(kind: ColumnKind, value: CellValue, form: NumberForm, format?: string | null): TypedValue | number {
  if (typeof value === "number" && FORMATTED.has(kind)) return withFormat(value, format ?? NUMBER_FORMATS[kind], form);
  return value;
}

/** A list with data types: the header row stays text, each cell typed by its column. */
export function typedGrid(spill: Spill, form: NumberForm): (TypedValue | number)[][] {
  const formatsOf = rowFormatter(spill.columns);
  return [spill.columns.map((c) => c.header), ...spill.rows.map((row) => {
    const formats = formatsOf?.(row);
    return row.map((value, i) => typedValue(spill.columns[i].kind, value, form, formats?.[i]));
  })];
}

/** A property of an entity: always a typed cell value (an entity's properties are not plain JSON values). */
function property(kind: ColumnKind, value: CellValue, form: NumberForm, format?: string | null): Excel.EntityPropertyType {
  if (typeof value === "number") return FORMATTED.has(kind) ? withFormat(value, format ?? NUMBER_FORMATS[kind], form) : { type: "Double", basicValue: value };
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  return { type: "String", basicValue: value };
}

/**
 * One record as an entity value: every field a property (by its header), the cell showing the record's
 * number where it has one (expense #, allowance #), else the card's last four digits, else its id.
 */
export function recordEntity(kind: RecordKind, spill: Spill, form: NumberForm): Excel.EntityCellValue {
  const row = spill.rows[0];
  const at = (key: string) => spill.columns.findIndex((c) => c.key === key);
  const { numberKey, label: name } = recordSpecOf(kind);
  const shown = row[at(numberKey)] ?? row[at("id")];
  const label = `${name} ${shown}`;
  const formats = rowFormatter(spill.columns)?.(row);
  const properties: Record<string, Excel.EntityPropertyType> = {};
  spill.columns.forEach((c, i) => {
    if (row[i] !== "") properties[c.header] = property(c.kind, row[i], form, formats?.[i]);
  });
  return { type: "Entity", text: label, properties };
}
