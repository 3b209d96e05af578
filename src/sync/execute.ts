/**
 * Sync states, after the user confirmed a preview: check the sheet still matches it, read the current
 * state of the records to send, PATCH with bounded concurrency (read-before-retry in send-row.ts), and
 * write every record's outcome back. Run again after an interruption, it finishes the rest: what was
 * applied reads as "already applied" and is not sent twice.
 */
import { AuthError, CancelledError, type SpendClient } from "../api";
import { TARGET_STATES } from "../domain";
import type { Workbook } from "../sheets";
import { OUTCOMES, type JournalEntry, type Outcome, type RowResult } from "./outcome";
import { planRows, type PlannedRow } from "./plan";
import { pool } from "./pool";
import { previewOf, type SyncPreview } from "./preview";
import { readCurrent, type Current } from "./read-current";
import { sendChange } from "./send-row";
import { compareWithServer } from "./server-check";
import { SyncSetupError, openSyncTable, sheetRows } from "./sync-table";
import { writeOutcomes } from "./write-outcomes";

/** The sheet changed between the preview and the confirmation. Nothing was sent. */
export class PlanChangedError extends Error {
  override readonly name = "PlanChangedError";
}

export interface SyncOptions {
  signal?: AbortSignal;
  /** PATCHes at once (default 6). */
  concurrency?: number;
  /** Records decided so far, of those to send. */
  onProgress?: (done: number, total: number) => void;
  maxAttempts?: number;
  now?: () => Date;
}

export interface SyncReport {
  tableName: string;
  results: RowResult[];
  counts: Record<Outcome, number>;
  /** Why the sync stopped before the end, if it did. */
  stopped: null | "auth" | "cancelled" | "unreachable";
  /** One sentence for the user. */
  summary: string;
  /** HTTP requests sent (reads and PATCHes). */
  requests: number;
}

export const DEFAULT_SYNC_CONCURRENCY = 6;

export async function runSync(client: SpendClient, workbook: Workbook, confirmed: SyncPreview, options: SyncOptions = {}): Promise<SyncReport> {
  const now = options.now ?? (() => new Date());
  const table = await openSyncTable(workbook, confirmed.tableName);
  if (table.params.enterpriseId !== client.enterpriseId) {
    throw new SyncSetupError(`This table belongs to enterprise ${table.params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to sync it.`);
  }
  const plan = planRows(table.resource, table.snapshot, sheetRows(table));
  if (previewOf(table, plan).fingerprint !== confirmed.fingerprint) {
    throw new PlanChangedError("The sheet changed since the preview, so nothing was sent. Preview again, then confirm.");
  }
  const requestsBefore = client.stats.requests;
  const results: RowResult[] = [];
  const decided = (row: PlannedRow, outcome: Outcome, message: string, extra: Partial<RowResult> = {}, journal?: JournalEntry[]) => {
    const at = now();
    const to = row.desired.state;
    const from = row.loaded?.state ?? "";
    results.push({
      id: row.id, rows: row.rows, outcome, message, from, to, patch: row.patch, at,
      journal: journal ?? [{ at, id: row.id, from, to, sent: "", httpStatus: null, outcome, message }], ...extra,
    });
  };
  for (const row of plan.rows) if (row.cls === "invalid") decided(row, "invalid", row.message ?? "");

  const changes = plan.rows.filter((r) => r.cls === "change");
  let stopped: SyncReport["stopped"] = null;
  let stopMessage = "";
  let done = 0;
  const progress = () => options.onProgress?.(done, changes.length);
  progress();

  let current: Current | null = null;
  if (changes.length > 0) {
    const states = [...new Set([...changes.map((r) => r.loaded!.state), ...TARGET_STATES])];
    try {
      current = await readCurrent(client, { resource: table.resource, subsidiaryId: table.subsidiaryId }, changes.map((r) => r.id), states, { signal: options.signal });
    } catch (error) {
      if (error instanceof AuthError) [stopped, stopMessage] = ["auth", error.message];
      else if (error instanceof CancelledError) [stopped, stopMessage] = ["cancelled", "Cancelled before anything was sent."];
      else [stopped, stopMessage] = ["unreachable", `Could not read the records' current state, so nothing was sent: ${(error as Error).message}`];
    }
  }

  const toSend: PlannedRow[] = [];
  if (current) {
    for (const row of changes) {
      const verdict = compareWithServer(row.loaded!, row.patch!, current.get(row.id) ?? null);
      if (verdict.kind === "send") toSend.push(row);
      else {
        done++;
        if (verdict.kind === "already-applied") decided(row, "already-applied", "", { server: current.get(row.id)! });
        else if (verdict.kind === "conflict") decided(row, "conflict", verdict.message);
        else decided(row, "rejected", verdict.message);
      }
    }
    progress();
  }
  const isStopped = () => {
    if (!stopped && options.signal?.aborted) [stopped, stopMessage] = ["cancelled", "Cancelled: the rest was not sent."];
    return stopped !== null;
  };
  const attempted = new Set<string>(results.map((r) => r.id));
  await pool(toSend, options.concurrency ?? DEFAULT_SYNC_CONCURRENCY, async (row) => {
    if (isStopped()) return;
    attempted.add(row.id);
    const sent = await sendChange(client, { resource: table.resource, subsidiaryId: table.subsidiaryId }, row.id, row.loaded!, row.patch!, {
      maxAttempts: options.maxAttempts, now,
    });
    if (sent.authRefused && !stopped) [stopped, stopMessage] = ["auth", sent.message];
    decided(row, sent.outcome, sent.message, { server: sent.server }, sent.journal);
    done++;
    progress();
  }, isStopped);
  isStopped();
  for (const row of changes) {
    if (attempted.has(row.id)) continue;
    decided(row, "not-sent", stopMessage || "Not sent.");
  }

  await writeOutcomes(workbook, table, results);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, results.filter((r) => r.outcome === o).length])) as Record<Outcome, number>;
  return { tableName: table.tableName, results, counts, stopped, summary: summarize(counts, stopMessage), requests: client.stats.requests - requestsBefore };
}

function summarize(c: Record<Outcome, number>, stopMessage: string): string {
  const parts = [
    c.applied && `${c.applied} applied`,
    c["already-applied"] && `${c["already-applied"]} already applied`,
    c.rejected && `${c.rejected} rejected by the service`,
    c.invalid && `${c.invalid} invalid (not sent)`,
    c.conflict && `${c.conflict} in conflict (not sent)`,
    c.unconfirmed && `${c.unconfirmed} unconfirmed (run Sync states again)`,
    c["not-sent"] && `${c["not-sent"]} not sent`,
  ].filter(Boolean);
  const text = parts.length ? `${parts.join(", ")}.` : "Nothing to sync: no edited rows.";
  return stopMessage ? `${text} ${stopMessage}` : text;
}
