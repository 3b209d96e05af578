/** Turns a body into a typed value, or a SchemaError that names the resource, the field path and the value. */
import type { z } from "zod";
import { AnswerTooLargeError, SchemaError } from "./errors";
import { scanJson } from "./json-scan";
import { redactSecrets } from "./redact";

/**
 * Values a record may hold on average (its fields, and those of its nested objects and arrays): the largest
 * record the sandbox sends, an allowance with every expand, holds about 55 (an expense with every expand, 52).
 * An answer that can hold more
 * than this per record asked for is refused before it is parsed, so a hostile answer costs its text, not the
 * objects it would build (a 3 MB text can hold 10^6 of them).
 */
export const MAX_VALUES_PER_RECORD = 2048;

/** Issues kept per malformed record: enough to say what is wrong, never all of a hostile record's. */
export const MAX_ISSUES_PER_RECORD = 3;

/** One way a record does not match the API: where, what was expected, what came. */
export interface RecordIssue {
  /** The field path inside the record, e.g. `created_at` or `amount.currency` (redacted). */
  readonly path: string;
  /** What the API expects there (zod's wording, or the schema's own). */
  readonly message: string;
  /** The value that came, as JSON, redacted then shortened. */
  readonly value: string;
}

function pathText(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || "(the whole body)";
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current = body;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Redacted before it is cut: a key cut in half would no longer match the redaction. */
function shorten(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? "nothing (the field is missing)" : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  text = redactSecrets(text.length > 4096 ? text.slice(0, 4096) : text);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The first issues of a failed parse of `body`, at most `max`, each with its path and value. */
export function issuesOf(error: z.ZodError, body: unknown, max: number): RecordIssue[] {
  return error.issues.slice(0, max).map((issue) => ({
    path: redactSecrets(pathText(issue.path)),
    message: redactSecrets(issue.message),
    value: shorten(valueAt(body, issue.path)),
  }));
}

/** Parses JSON text; a body that is not JSON (an HTML error page, a truncated answer) is a SchemaError too. */
export function parseJson(text: string, resource: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // White space first: an answer may start with kilobytes of it before the page it is.
    const start = redactSecrets(text.trimStart().slice(0, 4096)).trim().slice(0, 60);
    const what = start.startsWith("<") ? "an HTML page, not JSON" : text.trim() === "" ? "empty" : "not valid JSON (cut short?)";
    throw new SchemaError(
      `The service's answer for ${resource} was ${what}: ${JSON.stringify(start)}. Is the base URL the service's?`,
      resource,
      "",
      shorten(start),
    );
  }
}

/** "a record needs" or "12 records need": what `records` records need, in words. */
export function recordsNeed(records: number): string {
  return records === 1 ? "a record needs" : `${records.toLocaleString("en-US")} records need`;
}

/** Refuses, before it is parsed, an answer that can hold more values than `records` records would. */
export function checkValueBudget(text: string, resource: string, records: number): void {
  const budget = records * MAX_VALUES_PER_RECORD + 64;
  const { values } = scanJson(text, null, 0, budget);
  if (values > budget) {
    throw new AnswerTooLargeError(
      `The service's answer for ${resource} holds more than ${budget.toLocaleString("en-US")} values, more than ${recordsNeed(records)}: it was refused without being read.`,
      resource,
    );
  }
}

export function checkSchema<T>(schema: z.ZodType<T>, body: unknown, resource: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw schemaError(resource, issuesOf(result.error, body, 1)[0]);
}

/** The SchemaError of an answer whose first wrong field is `issue` (its path from the answer's root). */
export function schemaError(resource: string, issue: RecordIssue): SchemaError {
  return new SchemaError(
    `The service's answer for ${resource} does not match the API: ${issue.path}: ${issue.message} (got ${issue.value}).`,
    resource,
    issue.path,
    issue.value,
  );
}
