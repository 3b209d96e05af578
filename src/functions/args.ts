/**
 * Arguments of the =SPEND.* functions as Excel passes them: text, numbers (Excel dates are serials), booleans,
 * empty cells (null or ""), single-cell references already resolved to their value. A bad argument gives an
 * ArgumentError that names the argument and what is allowed; it becomes #VALUE!.
 */
import { isIsoDate } from "../domain";
import { serialToDate } from "../sheets";

export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
}

type Raw = unknown;

const isEmpty = (v: Raw) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
/** A 1x1 range arrives as [[v]] in some hosts: take the value. */
const scalar = (v: Raw): Raw => (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 ? v[0][0] : v);

export function requiredText(name: string, v: Raw): string {
  const value = scalar(v);
  if (isEmpty(value)) throw new ArgumentError(`${name} is required.`);
  if (typeof value !== "string" && typeof value !== "number") throw new ArgumentError(`${name} must be text; got ${JSON.stringify(value)}.`);
  return String(value).trim();
}

export function optionalChoice<T extends string>(name: string, v: Raw, allowed: readonly T[]): T | undefined {
  const value = scalar(v);
  if (isEmpty(value)) return undefined;
  const text = String(value).trim().toLowerCase();
  const match = allowed.find((a) => a === text);
  if (!match) throw new ArgumentError(`${name} must be one of ${allowed.join(", ")}; got "${String(value)}".`);
  return match;
}

export function optionalBoolean(name: string, v: Raw): boolean | undefined {
  const value = scalar(v);
  if (isEmpty(value)) return undefined;
  if (typeof value === "boolean") return value;
  const text = String(value).trim().toLowerCase();
  if (text === "true" || text === "yes" || text === "1") return true;
  if (text === "false" || text === "no" || text === "0") return false;
  throw new ArgumentError(`${name} must be TRUE or FALSE; got "${String(value)}".`);
}

/** An Excel date (serial number) or text written YYYY-MM-DD, as YYYY-MM-DD. */
export function optionalDate(name: string, v: Raw): string | undefined {
  const value = scalar(v);
  if (isEmpty(value)) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return serialToDate(Math.floor(value));
  const text = String(value).trim();
  if (isIsoDate(text)) return text;
  throw new ArgumentError(`${name} must be an Excel date or text written YYYY-MM-DD; got "${text}".`);
}

/** Comma-separated expand values, or a range of them; each must be allowed. */
export function optionalExpand<T extends string>(name: string, v: Raw, allowed: readonly T[]): T[] {
  const parts = (Array.isArray(v) ? v.flat() : [v]).flatMap((x) => (isEmpty(x) ? [] : String(x).split(",")));
  const out: T[] = [];
  for (const part of parts.map((p) => p.trim().toLowerCase()).filter(Boolean)) {
    const match = allowed.find((a) => a === part);
    if (!match) throw new ArgumentError(`${name} takes ${allowed.join(", ")} (comma-separated); "${part}" is not one of them.`);
    if (!out.includes(match)) out.push(match);
  }
  return out;
}
