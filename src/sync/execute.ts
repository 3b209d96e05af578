/**
 * Sync states, after the user confirmed a preview: check the sheet still matches it, then per record, at
 * most `concurrency` at once: the journal's "sending" line is written ahead, the record is read, and the
 * PATCH leaves right after that read only if the record is as loaded (send-row.ts). Outcomes, the values
 * the server holds, the snapshot and the journal are written in batches as the run goes. At the end every
 * record this run changed is read again, and a lost update is reported (confirm.ts). Run again after an
 * interruption, it finishes the rest: what was applied reads as "already applied" and is not sent twice.
 */
import { SpendSyncError, type SpendClient } from "../api";
import type { Workbook } from "../sheets";
import { confirmApplied } from "./confirm";
import { JournalWriter } from "./journal";
import { OUTCOMES, type JournalEntry, type Outcome, type RowResult } from "./outcome";
import { planRows, type PlannedRow } from "./plan";
import { pool } from "./pool";
import { previewOf, type SyncPreview } from "./preview";
import { asSentence } from "./sentences";
import { sendingMessage, syncRecord } from "./send-row";
import { SyncSetupError, openSyncTable } from "./sync-table";
import { OutcomeWriter } from "./write-outcomes";

/** The sheet changed between the preview and the confirmation. Nothing was sent. */
export class PlanChangedError extends SpendSyncError {
  override readonly name = "PlanChangedError";
}

export interface SyncOptions {
  signal?: AbortSignal;
  /** Records in flight at once, each a read then a PATCH (default 6). */
  concurrency?: number;
  /** Records decided so far, of those to send. */
  onProgress?: (done: number, total: number) => void;
  maxAttempts?: number;
  /** The clock of the stamps, the journal and the batches. */
  now?: () => Date;
  /** Outcomes are written when this much time passed since the last batch (default 1000 ms). */
  batchEveryMs?: number;
  /** Who runs the sync, for the journal. */
  by?: string;
  /** The journal's run id (default: a random one). */
  runId?: string;
  /** The user confirmed the rows Preview questioned ("check": questions.ts): they are sent too. Default: they are not. */
  sendChecked?: boolean;
}

export interface SyncReport {
  tableName: string;
  runId: string;
  results: RowResult[];
  counts: Record<Outcome, number>;
  /** Why the sync stopped before the end, if it did. */
  stopped: null | "auth" | "cancelled" | "workbook";
  /** One sentence for the user. */
  summary: string;
  /** HTTP requests sent (reads and PATCHes). */
  requests: number;
}

const DEFAULT_SYNC_CONCURRENCY = 6;

const randomRunId = () => Math.random().toString(36).slice(2, 10);

export async function runSync(client: SpendClient, workbook: Workbook, confirmed: SyncPreview, options: SyncOptions = {}): Promise<SyncReport> {
  const now = options.now ?? (() => new Date());
  const table = await openSyncTable(workbook, confirmed.tableName);
  if (table.params.enterpriseId !== client.enterpriseId) {
    throw new SyncSetupError(`This table belongs to enterprise ${table.params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to sync it.`);
  }
  const plan = planRows(table.resource, table.snapshot.snapshot, table.rows, table.snapshot.readOnly);
  if (previewOf(table, plan).fingerprint !== confirmed.fingerprint) {
    throw new PlanChangedError("The sheet changed since the preview, so nothing was sent. Preview again, then confirm.");
  }
  const runId = options.runId ?? randomRunId();
  const redact = (text: string) => client.redact(text);
  const journal = new JournalWriter(workbook, { runId, by: options.by ?? "", tableName: table.tableName, resource: table.resource, redact });
  const writer = new OutcomeWriter(workbook, table, journal, redact, () => now().getTime(), options.batchEveryMs ?? 1000);
  const scope = { resource: table.resource, subsidiaryId: table.subsidiaryId };
  const requestsBefore = client.stats.requests;
  const results = new Map<PlannedRow, RowResult>();
  const decide = (row: PlannedRow, result: Omit<RowResult, "id" | "rows" | "from" | "to" | "patch" | "at">, journalLine = false) => {
    const at = now();
    const full: RowResult = { id: row.id, rows: row.rows, from: row.loaded?.state ?? "", to: row.desired.state, patch: row.patch, at, ...result };
    if (journalLine) journal.add({ at, id: row.id, from: full.from, to: full.to, request: "none", sent: "", httpStatus: null, outcome: result.outcome, message: result.message });
    results.set(row, full);
    writer.add(full);
  };
  for (const row of plan.rows) if (row.kind === "invalid") decide(row, { outcome: "invalid", message: row.message ?? "" }, true);
  for (const row of plan.rows) {
    if (row.kind === "check" && !options.sendChecked) {
      decide(row, { outcome: "check", message: `${row.message ?? ""} Not confirmed, so not sent: fix the cell, or preview again and confirm it as it is.` }, true);
    }
  }

  const changes = plan.rows.filter((r) => r.kind === "change" || (r.kind === "check" && options.sendChecked));
  let stopped: SyncReport["stopped"] = null;
  let stopMessage = "";
  const isStopped = () => {
    if (!stopped && writer.failure) [stopped, stopMessage] = ["workbook", asSentence(`The workbook could not be written, so the rest was not sent: ${writer.failure.message}`)];
    if (!stopped && options.signal?.aborted) [stopped, stopMessage] = ["cancelled", "Cancelled: the rest was not sent."];
    return stopped !== null;
  };
  let done = 0;
  const progress = () => options.onProgress?.(done, changes.length);
  progress();

  // The write-ahead journal: "sending" lines go in ahead of the senders, a batch at a time, so that a
  // sender rarely waits for Excel and a PATCH never leaves before its line is in the workbook.
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_SYNC_CONCURRENCY);
  const ahead = Math.max(16, concurrency * 8);
  const written: Promise<void>[] = [];
  let frontier = 0;
  const sendingLine = (row: PlannedRow, message = sendingMessage(1)): JournalEntry =>
    ({ at: now(), id: row.id, from: row.loaded!.state, to: row.patch!.state, request: "PATCH", sent: JSON.stringify(row.patch), httpStatus: null, outcome: "sending", message });
  const writtenAhead = (index: number): Promise<void> => {
    if (index + ahead / 2 >= frontier && frontier < changes.length) {
      const end = Math.min(changes.length, Math.max(frontier + ahead, index + 1));
      const lines = journal.ahead(changes.slice(frontier, end).map((row) => sendingLine(row)));
      lines.catch(() => undefined);
      for (let i = frontier; i < end; i++) written[i] = lines;
      frontier = end;
    }
    return written[index];
  };

  const indices = changes.map((_, i) => i);
  await pool(indices, concurrency, async (index) => {
    const row = changes[index];
    if (isStopped()) return;
    const sent = await syncRecord(client, scope, row.id, row.loaded!, row.patch!, {
      log: (entry) => journal.add(entry),
      beforeAttempt: (attempt, line) => (attempt === 1 ? writtenAhead(index) : journal.ahead([line])),
      maySend: () => !isStopped(),
      stopMessage: () => stopMessage,
    }, { maxAttempts: options.maxAttempts, now, signal: options.signal });
    if (sent.authRefused && !stopped) [stopped, stopMessage] = ["auth", sent.message]; // (a sentence: send-row.ts ends it)
    decide(row, { outcome: sent.outcome, message: sent.message, server: sent.server, sent: sent.sent });
    done++;
    progress();
  }, isStopped);
  isStopped();
  for (const row of changes) {
    if (!results.has(row)) decide(row, { outcome: "not-sent", message: stopMessage || "Not sent." }, true);
  }

  // Confirm what this run changed; a lost update becomes "overwritten" on its row and in the journal.
  let confirmFailure = "";
  if (stopped !== "auth" && stopped !== "workbook") {
    const applied = [...results.values()].filter((r) => r.outcome === "applied");
    const confirmed = await confirmApplied(client, scope, applied, (entry) => journal.add(entry), now, options.signal);
    confirmFailure = confirmed.failure;
    const byId = new Map(confirmed.overwritten.map((r) => [r.id, r]));
    for (const [row, r] of results) {
      const replaced = byId.get(r.id);
      if (replaced) {
        results.set(row, replaced);
        writer.add(replaced);
      }
    }
  }
  await writer.flush().catch(() => undefined);
  if (writer.failure) throw writer.failure;

  const list = [...results.values()];
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, list.filter((r) => r.outcome === o).length])) as Record<Outcome, number>;
  const tail = [stopMessage, confirmFailure && `${confirmFailure} Run Sync states again or refresh to check them.`].filter(Boolean).join(" ");
  return { tableName: table.tableName, runId, results: list, counts, stopped, summary: summarize(counts, tail), requests: client.stats.requests - requestsBefore };
}

function summarize(c: Record<Outcome, number>, tail: string): string {
  const parts = [
    c.applied && `${c.applied} applied`,
    c["already-applied"] && `${c["already-applied"]} already applied`,
    c.overwritten && `${c.overwritten} changed by someone else after this sync`,
    c.rejected && `${c.rejected} rejected by the service`,
    c.invalid && `${c.invalid} invalid (not sent)`,
    c.check && `${c.check} to check (not sent: fix or confirm them)`,
    c.conflict && `${c.conflict} in conflict (not sent)`,
    c.unconfirmed && `${c.unconfirmed} unconfirmed (run Sync states again)`,
    c["not-sent"] && `${c["not-sent"]} not sent`,
  ].filter(Boolean);
  const text = parts.length ? `${parts.join(", ")}.` : "Nothing to sync: no edited rows.";
  return tail ? `${text} ${tail}` : text;
}
