/**
 * Sync states, after the user confirmed a preview: check the sheet still matches it, then per record, at
 * most `concurrency` at once: the journal's "sending" line is written ahead, the record is read, and the
 * PATCH leaves right after that read only if the record is as loaded (sync-record.ts). Outcomes, the values
 * the server holds, the snapshot and the journal are written in batches as the run goes. At the end every
 * record this run changed is read again, and a lost update is reported (confirm.ts). Run again after an
 * interruption, it finishes the rest: what was applied reads as "already applied" and is not sent twice.
 */
import { SpendSyncError, type SpendClient } from "../api";
import type { Workbook } from "../sheets";
import { confirmApplied } from "./confirm";
import { JournalWriter } from "./journal";
import { OUTCOMES, type Outcome, type RowResult } from "./outcome";
import { planRows, type Plan, type PlannedRow } from "./plan";
import { pool } from "./pool";
import { previewOf, type SyncPreview } from "./preview";
import { asSentence } from "./sentences";
import type { ReadScope } from "./read-current";
import { recordPath, sendingLine, syncRecord } from "./sync-record";
import { SyncSetupError, openSyncTable, type SyncTable } from "./sync-table";
import { OutcomeWriter } from "./write-outcomes";

/**
 * The sheet changed between the preview and the confirmation. Nothing was sent.
 * @internal sync and error-table tests name the class a changed sheet throws.
 */
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
  /** Why the records this run applied could not all be read again to confirm them ("" when they were): a warning, not a success. */
  confirmFailure: string;
  /** HTTP requests sent (reads and PATCHes). */
  requests: number;
}

const DEFAULT_SYNC_CONCURRENCY = 6;

const randomRunId = () => Math.random().toString(36).slice(2, 10);

/** Sends the rows of a confirmed preview, writes each outcome back, and says what happened (see the header). */
export async function runSync(client: SpendClient, workbook: Workbook, confirmed: SyncPreview, options: SyncOptions = {}): Promise<SyncReport> {
  const now = options.now ?? (() => new Date());
  const { table, plan } = await openConfirmed(client, workbook, confirmed);
  const runId = options.runId ?? randomRunId();
  const redact = (text: string) => client.redact(text);
  const journal = new JournalWriter(workbook, { runId, by: options.by ?? "", tableName: table.tableName, resource: table.resource, redact });
  const writer = new OutcomeWriter(workbook, table, journal, redact, () => now().getTime(), options.batchEveryMs ?? 1000);
  const scope = { resource: table.resource, subsidiaryId: table.subsidiaryId };
  const requestsBefore = client.stats.requests;
  const results = new RowResults(journal, writer, now);
  for (const row of plan.rows) if (row.kind === "invalid") results.decide(row, { outcome: "invalid", message: row.message ?? "" }, true);
  for (const row of plan.rows) {
    if (row.kind === "check" && !options.sendChecked) {
      results.decide(row, { outcome: "check", message: `${row.message ?? ""} Not confirmed, so not sent: fix the cell, or preview again and confirm it as it is.` }, true);
    }
  }

  const changes = plan.rows.filter((r) => r.kind === "change" || (r.kind === "check" && options.sendChecked));
  const stop = new RunStop(writer, options.signal);
  let done = 0;
  const progress = () => options.onProgress?.(done, changes.length);
  progress();
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_SYNC_CONCURRENCY);
  const writtenAhead = sendingLinesAhead(changes, journal, concurrency, now, (id) => recordPath(client, scope, id));
  await pool(changes.map((_, i) => i), concurrency, async (index) => {
    const row = changes[index];
    if (stop.check()) return;
    const sent = await syncRecord(client, scope, row.id, row.loaded!, row.patch!, {
      log: (entry) => journal.add(entry),
      beforeAttempt: (attempt, line) => (attempt === 1 ? writtenAhead(index) : journal.ahead([line])),
      maySend: () => !stop.check(),
      stopMessage: () => stop.message,
    }, { maxAttempts: options.maxAttempts, now, signal: options.signal });
    if (sent.authRefused) stop.keyRefused(sent.message); // (a sentence: sync-record.ts ends it)
    results.decide(row, { outcome: sent.outcome, message: sent.message, server: sent.server, sent: sent.sent });
    done++;
    progress();
  }, () => stop.check());
  stop.check();
  for (const row of changes) if (!results.has(row)) results.decide(row, { outcome: "not-sent", message: stop.message || "Not sent." }, true);

  // Confirm what this run changed (not once the key or the workbook failed): a lost update becomes "overwritten".
  const confirmFailure = stop.reason === "auth" || stop.reason === "workbook" ? "" : await confirmRun(client, scope, results, journal, now, options.signal);
  await writer.flush().catch(() => undefined);
  if (writer.failure) throw writer.failure;

  const list = results.list();
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, list.filter((r) => r.outcome === o).length])) as Record<Outcome, number>;
  const tail = [stop.message, confirmFailure && `${confirmFailure} Run Sync states again or refresh to check them.`].filter(Boolean).join(" ");
  return { tableName: table.tableName, runId, results: list, counts, stopped: stop.reason, summary: summarize(counts, tail), confirmFailure, requests: client.stats.requests - requestsBefore };
}

/** The table the preview was of, and its plan: refused when it is of another enterprise or changed since the preview. */
async function openConfirmed(client: SpendClient, workbook: Workbook, confirmed: SyncPreview): Promise<{ table: SyncTable; plan: Plan }> {
  const table = await openSyncTable(workbook, confirmed.tableName);
  if (table.params.enterpriseId !== client.enterpriseId) {
    throw new SyncSetupError(`This table belongs to enterprise ${table.params.enterpriseId}; you are connected to ${client.enterpriseId}. Connect to that enterprise to sync it.`);
  }
  const plan = planRows(table.resource, table.snapshot.snapshot, table.rows, table.snapshot.readOnly);
  if (previewOf(table, plan).fingerprint !== confirmed.fingerprint) {
    throw new PlanChangedError("The sheet changed since the preview, so nothing was sent. Preview again, then confirm.");
  }
  return { table, plan };
}

/** Each planned row's result as the run decides it, in the order decided; each goes to the outcome writer at once. */
class RowResults {
  private readonly byRow = new Map<PlannedRow, RowResult>();

  constructor(private readonly journal: JournalWriter, private readonly writer: OutcomeWriter, private readonly now: () => Date) {}

  /** A row's result; `journalLine` for a decision made without a request (invalid, not confirmed, not reached). */
  decide(row: PlannedRow, result: Omit<RowResult, "id" | "rows" | "from" | "to" | "patch" | "at">, journalLine = false): void {
    const at = this.now();
    const full: RowResult = { id: row.id, rows: row.rows, from: row.loaded?.state ?? "", to: row.desired.state, patch: row.patch, at, ...result };
    if (journalLine) this.journal.add({ at, id: row.id, from: full.from, to: full.to, request: "none", sent: "", httpStatus: null, outcome: result.outcome, message: result.message });
    this.byRow.set(row, full);
    this.writer.add(full);
  }

  has(row: PlannedRow): boolean {
    return this.byRow.has(row);
  }

  /** Replaces the results of the same records (a lost update found by the confirmation), in place. */
  replace(replacements: readonly RowResult[]): void {
    const byId = new Map(replacements.map((r) => [r.id, r]));
    for (const [row, r] of this.byRow) {
      const replaced = byId.get(r.id);
      if (replaced) {
        this.byRow.set(row, replaced);
        this.writer.add(replaced);
      }
    }
  }

  list(): RowResult[] {
    return [...this.byRow.values()];
  }
}

/** Why the run stopped, once it has: a refused key, a workbook that could not be written, or a cancel, whichever came first. */
class RunStop {
  reason: SyncReport["stopped"] = null;
  message = "";

  constructor(private readonly writer: OutcomeWriter, private readonly signal: AbortSignal | undefined) {}

  /** True once the run stops; notes a failed workbook write or a cancel as the reason if none came before. */
  check(): boolean {
    if (!this.reason && this.writer.failure) [this.reason, this.message] = ["workbook", asSentence(`The workbook could not be written, so the rest was not sent: ${this.writer.failure.message}`)];
    if (!this.reason && this.signal?.aborted) [this.reason, this.message] = ["cancelled", "Cancelled: the rest was not sent."];
    return this.reason !== null;
  }

  /** The key was refused: the run stops for that reason, unless it already stopped. */
  keyRefused(message: string): void {
    if (!this.reason) [this.reason, this.message] = ["auth", message];
  }
}

/**
 * The write-ahead journal: "sending" lines go in ahead of the senders, a batch at a time, so that a
 * sender rarely waits for Excel and a PATCH never leaves before its line is in the workbook. Returns, for the
 * index of a change, the promise that its first attempt's line is written.
 */
function sendingLinesAhead(
  changes: readonly PlannedRow[], journal: JournalWriter, concurrency: number, now: () => Date, path: (id: string) => string,
): (index: number) => Promise<void> {
  const ahead = Math.max(16, concurrency * 8);
  const written: Promise<void>[] = [];
  let frontier = 0;
  return (index) => {
    if (index + ahead / 2 >= frontier && frontier < changes.length) {
      const end = Math.min(changes.length, Math.max(frontier + ahead, index + 1));
      const lines = journal.ahead(changes.slice(frontier, end).map((row) => sendingLine({ id: row.id, loaded: row.loaded!, patch: row.patch!, now, path: path(row.id) }, 1)));
      lines.catch(() => undefined);
      for (let i = frontier; i < end; i++) written[i] = lines;
      frontier = end;
    }
    return written[index];
  };
}

/** Reads again every record this run applied; a lost update becomes "overwritten" on its row and in the journal. Returns why it could not confirm, if so. */
async function confirmRun(
  client: SpendClient, scope: ReadScope, results: RowResults, journal: JournalWriter, now: () => Date, signal: AbortSignal | undefined,
): Promise<string> {
  const applied = results.list().filter((r) => r.outcome === "applied");
  const confirmed = await confirmApplied(client, scope, applied, (entry) => journal.add(entry), now, signal);
  results.replace([...confirmed.overwritten, ...confirmed.notConfirmed]);
  return confirmed.failure;
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
