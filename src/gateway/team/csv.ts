/**
 * A batch's audit export as CSV, one line per request: who prepared it and when, who decided it, what was
 * sent and what the service answered. Every field is quoted; a field Excel would read as a formula (`=`,
 * `+`, `-`, `@`, tab, carriage return first) gets a leading apostrophe, so opening the export runs nothing.
 */
import type { AuditRow } from "./audit";
import type { Batch } from "./batches";

const HEADER = [
  "batch_id", "batch_hash", "preparer", "prepared_at", "decision", "decided_by", "decided_at", "comment",
  "request", "method", "path", "request_body", "sent_at", "answer_status", "answer_body", "answered_at",
];

function field(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The CSV text (CRLF line ends, as RFC 4180 writes them). */
export function auditCsv(batch: Batch, audit: AuditRow[]): string {
  const times = new Map<string, string>();
  for (const row of audit) {
    const seq = (JSON.parse(row.detail) as { seq?: number }).seq;
    if (seq !== undefined && (row.action === "forward" || row.action === "answer")) times.set(`${row.action} ${seq}`, row.at);
  }
  const when = (action: "forward" | "answer", seq: number) => times.get(`${action} ${seq}`) ?? null;
  const decided = batch.decision;
  const lines = batch.requests.map((r, seq) => [
    batch.id, batch.hash, `${batch.preparer.name} (${batch.preparer.id})`, batch.preparedAt,
    batch.state === "expired" && decided === null ? "expired" : decided === null ? "pending" : batch.state, decided ? `${decided.by.name} (${decided.by.id})` : null,
    decided?.at ?? null, decided?.comment ?? null,
    seq + 1, r.method, r.path, r.body, when("forward", seq), r.answer?.status ?? null, r.answer?.body ?? null, when("answer", seq),
  ].map(field).join(","));
  return [HEADER.map(field).join(","), ...lines].join("\r\n") + "\r\n";
}
