/**
 * Arguments of the =SPEND.* functions as Excel passes them: text, numbers (Excel dates are serials), booleans,
 * empty cells (null or ""), single-cell references already resolved to their value, a 1x1 range as [[v]], and,
 * because functions.json sets allowCustomDataForDataTypeAny, a cell holding a data type as its cell value
 * object ("custom functions accept data types as both input and output values":
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts): a date or an
 * amount another =SPEND formula spilled is a FormattedNumber or a Double with its numberFormat. Each is read as
 * a plain cell holding its basic value would be. A bad argument gives an ArgumentError that names the argument
 * and what is allowed; it becomes #VALUE!.
 */
import { SpendSyncError, isListed, redactSecrets } from "../api";
import { isIsoDate, isUuid, type IsoDate } from "../domain";
import { serialToDate } from "../sheets/port/values";
import type { ArgSpec } from "../sheets/resources";

export class ArgumentError extends SpendSyncError {
  override readonly name = "ArgumentError";
}

type Raw = unknown;

const isEmpty = (v: Raw) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
/** A 1x1 range arrives as [[v]] in some hosts: take the value. */
const single = (v: Raw): Raw => (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 ? v[0][0] : v);

/** Cell values whose basic value is the cell's whole meaning (Excel.CellValue's `type`): read as that value. */
const BASIC_TYPES: ReadonlySet<unknown> = new Set(["String", "Double", "FormattedNumber", "Boolean", "Empty"]);

interface TypedCell {
  type?: unknown;
  basicValue?: unknown;
  text?: unknown;
}

/**
 * What a cell value object stands for, for argument `name`: a String, Double (with or without its
 * numberFormat: a date stays its serial, read as the date it shows), FormattedNumber, Boolean or Empty is its
 * basic value. An error, or a data type with no value of its own (an entity, a linked data type, an image: their
 * basic value is #VALUE!), is refused naming the argument.
 */
function basicValueOf(name: string, cell: TypedCell): Raw {
  if (BASIC_TYPES.has(cell.type)) return cell.basicValue ?? "";
  if (cell.type === "Error") {
    throw new ArgumentError(`${name} refers to a cell holding the error ${String(cell.basicValue ?? "#VALUE!")}: correct that cell, or refer to another.`);
  }
  const shown = typeof cell.text === "string" ? ` ${quoted(cell.text)}` : "";
  throw new ArgumentError(
    `${name} refers to a cell that holds a data type${shown} (${String(cell.type)}), not a value: ` +
      "refer to a cell holding the value itself (text, a number or a date), or type it.",
  );
}

/** An argument as a plain cell holding the same value would give it: a 1x1 range's value, a cell value object's basic value. */
export function plainArgument(name: string, v: Raw): Raw {
  const value = single(v);
  if (value === null || typeof value !== "object" || Array.isArray(value) || typeof (value as TypedCell).type !== "string") return value;
  return basicValueOf(name, value as TypedCell);
}

/** @internal args.test.ts checks each Excel input form per argument type; argumentOf is the public way in. */
export function requiredText(name: string, v: Raw): string {
  const value = plainArgument(name, v);
  if (isEmpty(value)) throw new ArgumentError(`${name} is required.`);
  if (typeof value !== "string" && typeof value !== "number") throw new ArgumentError(`${name} must be text; got ${JSON.stringify(value)}.`);
  return String(value).trim();
}

/** What an argument's message quotes of a value: the key never (it could be pasted anywhere), and 40 characters at most. */
function quoted(text: string): string {
  const safe = redactSecrets(text);
  return JSON.stringify(safe.length > 40 ? `${safe.slice(0, 39)}…` : safe);
}

/**
 * An id: the service's ids are UUIDs (spec section 1), 8-4-4-4-12 hexadecimal digits in either case, of any
 * version (the spec names none; the nil UUID is shaped like one and the service answers it 404). It is sent as
 * written, only trimmed. Anything else is refused before a request: the likeliest mistake is the 8 characters
 * a table or sheet name shows (SpendExpenses_1a2b3c4d), which the service would answer as a missing record.
 */
export function requiredId(name: string, v: Raw): string {
  const text = requiredText(name, v);
  if (isUuid(text)) return text;
  throw new ArgumentError(
    `${name} ${quoted(text)} is not an id: an id is a UUID of 36 characters, like 3f2504e0-4f89-41d3-9a0c-0305e82c3301. ` +
      "Table and sheet names show only an id's first 8 characters: copy the whole id from an ID column or the taskpane.",
  );
}

/** @internal args.test.ts checks each Excel input form per argument type; argumentOf is the public way in. */
export function optionalChoice<T extends string>(name: string, v: Raw, allowed: readonly T[]): T | undefined {
  const value = plainArgument(name, v);
  if (isEmpty(value)) return undefined;
  const text = String(value).trim().toLowerCase();
  // The one check of a choice (a state, a movement type): the list takes it typed and does not check it again.
  if (!isListed(allowed, text)) throw new ArgumentError(`${name} must be one of ${allowed.join(", ")}; got "${String(value)}".`);
  return text;
}

/** @internal args.test.ts checks each Excel input form per argument type; argumentOf is the public way in. */
export function optionalBoolean(name: string, v: Raw): boolean | undefined {
  const value = plainArgument(name, v);
  if (isEmpty(value)) return undefined;
  // TRUE and FALSE arrive as booleans, and read as the words.
  const text = String(value).trim().toLowerCase();
  if (text === "true" || text === "yes" || text === "1") return true;
  if (text === "false" || text === "no" || text === "0") return false;
  throw new ArgumentError(`${name} must be TRUE or FALSE; got "${String(value)}".`);
}

/** Excel's last date, 9999-12-31: a larger serial is no date (JavaScript's Date would write a year of 5 digits or throw). */
const LAST_SERIAL = 2958465;

/** A timestamp as a spill without data types writes it (functions/plain-values.ts): "2026-10-27 14:05:00". */
const SPILLED_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/**
 * An Excel date (serial number) or text written YYYY-MM-DD, as YYYY-MM-DD. A timestamp another =SPEND spilled
 * as text in an Excel without data types gives its day, as its serial does where it is a number.
 * @internal args.test.ts checks each Excel input form per argument type; argumentOf is the public way in.
 */
export function optionalDate(name: string, v: Raw): IsoDate | undefined {
  const value = plainArgument(name, v);
  if (isEmpty(value)) return undefined;
  const text = typeof value === "number" && Number.isFinite(value) && value > 0 && value <= LAST_SERIAL ? serialToDate(Math.floor(value)) : String(value).trim();
  // The one check of a date argument: the list takes it as an IsoDate and does not check it again.
  if (isIsoDate(text)) return text;
  const day = SPILLED_TIMESTAMP.exec(text)?.[1];
  if (day !== undefined && isIsoDate(day)) return day;
  throw new ArgumentError(`${name} must be an Excel date or text written YYYY-MM-DD; got "${text}".`);
}

/**
 * Comma-separated expand values, or a range of them; each must be allowed.
 * @internal args.test.ts checks each Excel input form per argument type; argumentOf is the public way in.
 */
export function optionalExpand<T extends string>(name: string, v: Raw, allowed: readonly T[]): T[] {
  const parts = (Array.isArray(v) ? v.flat() : [v]).map((x) => plainArgument(name, x)).flatMap((x) => (isEmpty(x) ? [] : String(x).split(",")));
  const out: T[] = [];
  for (const part of parts.map((p) => p.trim().toLowerCase()).filter(Boolean)) {
    // The one check of each value (isListed, as a choice's and as the schema's): the query takes them typed.
    if (!isListed(allowed, part)) throw new ArgumentError(`${name} takes ${allowed.join(", ")} (comma-separated); "${part}" is not one of them.`);
    if (!out.includes(part)) out.push(part);
  }
  return out;
}

/** A list function's argument, checked by the type its resource's module gives it (sheets/resources). */
export function argumentOf(spec: ArgSpec, v: Raw): unknown {
  const checks: Record<ArgSpec["type"], () => unknown> = {
    id: () => requiredId(spec.arg, v),
    choice: () => optionalChoice(spec.arg, v, spec.values ?? []),
    expand: () => optionalExpand(spec.arg, v, spec.values ?? []),
    boolean: () => optionalBoolean(spec.arg, v),
    date: () => optionalDate(spec.arg, v),
  };
  return checks[spec.type]();
}
