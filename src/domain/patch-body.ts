/** Parsing of a state PATCH body (spec 4.5, 4.8): field types, required fields, paid_at format. */
import { messages } from "./messages";
import { isTargetState } from "./states";
import { checkTimestamp, wireFormIssue } from "./timestamps";
import type { StatePatch } from "./transitions";

const PATCH_FIELDS = ["state", "accounted_id", "paid_id", "paid_at"] as const;
/**
 * Longest external identifier the sandbox stores (its own limit; the spec gives none).
 * @internal values.test.ts probes both sides of the limit from it.
 */
export const MAX_ID_LENGTH = 255;

export type ParsedPatch = { ok: true; patch: StatePatch } | { ok: false; message: string };

export interface PatchBodyOptions {
  /**
   * The body as the service receives it (the sandbox): paid_at only in ISO 8601's extended form (wireFormIssue).
   * Without it, paid_at may be any form checkTimestamp reads (the add-in's builder, which sends the UTC form).
   */
  wire?: boolean;
}

/**
 * Checks a decoded JSON body and returns the patch with paid_at normalised to UTC. A null field counts
 * as not sent. Unknown fields are refused so that a typo never passes silently.
 */
export function parsePatchBody(body: unknown, options: PatchBodyOptions = {}): ParsedPatch {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, message: messages.bodyNotObject() };
  }
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(PATCH_FIELDS as readonly string[]).includes(key)) {
      return { ok: false, message: messages.unknownField(key, PATCH_FIELDS) };
    }
  }
  if (record.state === undefined || record.state === null) return { ok: false, message: messages.stateRequired() };
  if (!isTargetState(record.state)) return { ok: false, message: messages.stateNotTarget(record.state) };
  const patch: StatePatch = { state: record.state };
  for (const field of ["accounted_id", "paid_id", "paid_at"] as const) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return { ok: false, message: messages.fieldNotString(field) };
    if (value.length > MAX_ID_LENGTH) return { ok: false, message: messages.fieldTooLong(field, MAX_ID_LENGTH) };
    if (field === "paid_at") {
      const checked = checkTimestamp(value);
      if (!checked.ok) {
        const message = checked.reason === "range" ? messages.timestampOutOfRange(field) : messages.badTimestamp(field);
        return { ok: false, message };
      }
      const issue = options.wire ? wireFormIssue(value) : null;
      if (issue !== null) return { ok: false, message: messages.timestampNotWireForm(field, issue) };
      patch.paid_at = checked.utc;
    } else {
      patch[field] = value;
    }
  }
  return { ok: true, patch };
}
