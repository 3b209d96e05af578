/** Query-string parsing with 400s that say what to send instead. */
import { isIsoDate, normalizeState } from "../domain";
import { badRequest } from "./http-errors";

/**
 * Parses a comma-separated `expand`. `aliases` maps accepted spellings to the canonical value
 * (e.g. `reconciliation` -> `renconciliation`, the spec's spelling).
 */
export function parseExpand(
  raw: string | undefined,
  allowed: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): Set<string> {
  const result = new Set<string>();
  if (raw === undefined) return result;
  for (const part of raw.split(",")) {
    const value = part.trim();
    if (value === "") continue;
    const canonical = aliases[value] ?? value;
    if (!allowed.includes(canonical)) {
      throw badRequest(`expand accepts ${allowed.join(", ")}; got '${value}'.`);
    }
    result.add(canonical);
  }
  return result;
}

export function parseEnum<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw badRequest(`${name} must be one of ${allowed.join(", ")}; got '${raw}'.`);
  }
  return raw as T;
}

/**
 * `?state=`: compared as every part of the product compares a state (normalizeState: trimmed, any case), so
 * `?state=Paid` lists the paid records (docs/sandbox.md, "Leniencies decided"). An unknown one is a 400
 * quoting what was sent.
 */
export function parseState<T extends string>(raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  const state = normalizeState(raw);
  if (!(allowed as readonly string[]).includes(state)) throw badRequest(`state must be one of ${allowed.join(", ")}; got '${raw}'.`);
  return state as T;
}

export function parseBoolean(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badRequest(`${name} must be true or false; got '${raw}'.`);
}

export function parseDate(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!isIsoDate(raw)) throw badRequest(`${name} must be a date written YYYY-MM-DD; got '${raw}'.`);
  return raw;
}
