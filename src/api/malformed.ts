/**
 * A record of a list page that does not match the API (a `created_at` that is not a timestamp, an amount
 * that is text): one bad record must not cost the page, nor the pages after it. A list asked to keep them
 * (`ListOptions.keepMalformed`) hands each over as a MalformedRecord, beside the page's valid records and in
 * its place among them: the record as sent and what is wrong with it. A load shows it as a read-only row
 * with a note naming the field; nothing may treat it as a valid record, so it is never one of `results`.
 * Only a record with an id can be kept (a row is found again by its id); without one the page is refused.
 */
import type { RecordIssue } from "./schema-check";

export class MalformedRecord {
  constructor(
    /** The record's id as the service sent it (a non-empty string). */
    readonly id: string,
    /** Its place on its page (0-based), among valid and malformed records. */
    readonly index: number,
    /** The record as sent, unvalidated: show it, never trust it. */
    readonly raw: Readonly<Record<string, unknown>>,
    /** What is wrong with it: the first few issues, the first one always. */
    readonly issues: readonly RecordIssue[],
  ) {}
}

/** `created_at "2026-13-45T00:00:00Z" (expected an ISO 8601 …)`: what a note says about one issue. */
export function describeIssue(issue: RecordIssue): string {
  return `${issue.path} ${issue.value} (${issue.message})`;
}
