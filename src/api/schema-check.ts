/** Turns a body into a typed value, or a SchemaError that names the resource, the field path and the value. */
import type { z } from "zod";
import { SchemaError } from "./errors";
import { redactSecrets } from "./redact";

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
  const text = redactSecrets(value === undefined ? "nothing (the field is missing)" : JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Parses JSON text; a body that is not JSON (an HTML error page, a truncated answer) is a SchemaError too. */
export function parseJson(text: string, resource: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const start = redactSecrets(text).trim().slice(0, 60);
    const what = start.startsWith("<") ? "an HTML page, not JSON" : text.trim() === "" ? "empty" : "not valid JSON (cut short?)";
    throw new SchemaError(
      `The service's answer for ${resource} was ${what}: ${JSON.stringify(start)}. Is the base URL the service's?`,
      resource,
      "",
      shorten(start),
    );
  }
}

export function checkSchema<T>(schema: z.ZodType<T>, body: unknown, resource: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = pathText(issue.path);
  const value = shorten(valueAt(body, issue.path));
  throw new SchemaError(
    `The service's answer for ${resource} does not match the API: ${path}: ${issue.message} (got ${value}).`,
    resource,
    path,
    value,
  );
}
