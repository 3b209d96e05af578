/**
 * One record's sync under way (sync-record.ts): what it syncs, what its attempts have shown so far, the states it
 * goes through, its journal lines, and the one way it ends: a verdict on what is known (server-check.ts), the
 * line that says why, and the result.
 */
import type { HttpError, SpendClient } from "../api";
import type { StatePatch } from "../domain";
import type { TrackedValues } from "../sheets";
import type { JournalEntry, JournalRequest, SendOutcome } from "./outcome";
import type { ReadScope } from "./read-current";
import { patchWords, verdict, type Known, type Reading } from "./server-check";

export interface SendResult {
  outcome: SendOutcome;
  message: string;
  server?: TrackedValues & { updated_at?: string };
  /** What the server held right after this run's PATCH (applied). */
  sent?: TrackedValues;
  /** The key was refused: stop sending. */
  authRefused?: boolean;
}

export interface RecordHooks {
  /** A journal line (answers, decisions). */
  log(entry: JournalEntry): void;
  /** Resolves once the "sending" line of this attempt is in the workbook; attempt 1's is written ahead by the caller. */
  beforeAttempt(attempt: number, line: JournalEntry): Promise<void>;
  /** Checked by `send` just before the PATCH leaves, with nothing awaited between them: false once the run stops. */
  maySend(): boolean;
  /** Why the run stopped, for rows it stops. */
  stopMessage(): string;
}

/** The answer of a PATCH: the record as the service says it now is. */
export type Answer = { id: string; state: string; accounted_id: string | null; paid_id: string | null; paid_at: string | null; updated_at?: string };

/** One record's sync: what it sends, where, and what its attempts have shown so far. */
export interface RecordRun {
  readonly client: SpendClient;
  readonly scope: ReadScope;
  readonly id: string;
  readonly loaded: TrackedValues;
  readonly patch: StatePatch;
  /** The record's path (recordPath), for the journal's exact request. */
  readonly path: string;
  readonly hooks: RecordHooks;
  readonly signal: AbortSignal | undefined;
  /** PATCH attempts at most. */
  readonly maxAttempts: number;
  readonly now: () => Date;
  /** The PATCH attempt under way, from 1. */
  attempt: number;
  /** A PATCH of this record left without an answer we could read: it may have landed. */
  answerLost: boolean;
  /** The last refusal's message, kept for when the read shows the record as loaded. */
  refusal: string | null;
}

/**
 * Where a record's sync stands: the state it goes to next, with what that state needs, or its result.
 * write-ahead -> read -> check -> send -> check-answer (-> settle); a lost answer, a refusal or a 429
 * goes back to write-ahead (or, once nothing more is to be sent, straight to read) for the next attempt.
 */
export type State =
  | { step: "write-ahead" }
  | { step: "read" }
  | { step: "check"; server: TrackedValues | null }
  | { step: "send"; server: TrackedValues }
  | { step: "check-answer"; answer: Answer }
  | { step: "settle"; contradiction: string }
  | Done;

export type Done = { step: "done"; result: SendResult };

/** A PATCH may still follow: no refusal yet, and attempts left. */
export function mayResend(run: RecordRun): boolean {
  return run.attempt <= run.maxAttempts && run.refusal === null;
}

/** The state an attempt starts in: its "sending" line first if a PATCH may follow, else the read that settles the record. */
export function beginAttempt(run: RecordRun): State {
  return mayResend(run) ? { step: "write-ahead" } : { step: "read" };
}

/** The next attempt, after a lost answer, a refusal or a 429. */
export function nextAttempt(run: RecordRun): State {
  run.attempt++;
  return beginAttempt(run);
}

/** What this record's attempts so far tell, beside what the server said. */
function soFar(run: RecordRun): Omit<Known, "server"> {
  return { mayHaveLanded: run.answerLost, answered: run.refusal !== null };
}

/** After a 200: the PATCH reached the service, which answered it; nothing is sent again on that answer's strength. */
export const ANSWERED: Omit<Known, "server"> = { mayHaveLanded: true, answered: true };

/** The journal line a record's ending writes: the request it follows, that request's status, and why. */
interface EndLine {
  request: JournalRequest;
  httpStatus: number | null;
  message: string;
}

/** How a record's sync ends, beside its outcome: the row's message, the values shown, and the line that says why. */
interface Ending extends Omit<SendResult, "outcome"> {
  /** None when the journal itself could not be written. */
  line?: EndLine;
}

/** A read's line: it carries no body, and its message says what the read showed and that nothing was sent on it. */
export const readLine = (httpStatus: number | null, message: string): EndLine => ({ request: "read", httpStatus, message });

/** A PATCH's line: it carries the body sent. */
export const patchLine = (httpStatus: number | null, message: string): EndLine => ({ request: "PATCH", httpStatus, message });

/**
 * The one way a record's sync ends: its outcome is the verdict on what the server said (`server`) and what the
 * attempts tell (`known`, by default as the run has them), written in the journal with the ending's line.
 */
export function finish(run: RecordRun, server: Reading | "unread", ending: Ending, known = soFar(run)): Done {
  const outcome = verdict({ server, ...known });
  const { line, ...result } = ending;
  if (line) run.hooks.log(journalLine(run, line.request, line.httpStatus, outcome, line.message));
  return { step: "done", result: { outcome, ...result } };
}

/** A journal line of a step that does not end the record: a retry, a refusal, a lost or doubtful answer. */
export function note(run: RecordRun, request: JournalRequest, httpStatus: number | null, outcome: string, message: string): void {
  run.hooks.log(journalLine(run, request, httpStatus, outcome, message));
}

/**
 * A journal line of this record. A PATCH's lines carry its body; a read's carry none, and their message says what
 * the read showed and that nothing was sent on it; "none" is a decision made without a request (nothing left).
 */
function journalLine(run: LineSource, request: JournalRequest, httpStatus: number | null, outcome: string, message: string): JournalEntry {
  const sent = request === "PATCH" ? patchWords(run.patch) : "";
  const exact = request === "PATCH" ? `PATCH ${run.path} ${JSON.stringify(run.patch)}` : request === "read" ? `GET ${run.path}` : "";
  return { at: run.now(), id: run.id, from: run.loaded.state, to: run.patch.state, request, sent, exact, httpStatus, outcome, message };
}

/** What a journal line of a record is written from. */
type LineSource = Pick<RecordRun, "id" | "loaded" | "patch" | "now" | "path">;

/**
 * A record's path as the journal's exact request shows it (the base URL's path included, never its host, a query
 * or the key): `/proxy/public/v1/enterprises/…/subsidiaries/…/expenses/…/`.
 */
export function recordPath(client: SpendClient, scope: ReadScope, id: string): string {
  return new URL(client.url(`subsidiaries/${encodeURIComponent(scope.subsidiaryId)}/${scope.resource}s/${encodeURIComponent(id)}/`)).pathname;
}

/** The "sending" line of an attempt: in the workbook before the PATCH, which leaves only after a read. */
export function sendingLine(run: LineSource, attempt: number): JournalEntry {
  return journalLine(run, "PATCH", null, "sending", sendingMessage(attempt));
}

/**
 * The "sending" line's message: the line is in the workbook before the PATCH, which leaves only after a read.
 * @internal sync-record-every-ending.test.ts expects the journal's sending line per attempt.
 */
export function sendingMessage(attempt: number): string {
  return `${attempt > 1 ? `Attempt ${attempt}. ` : ""}Written before the PATCH; it leaves only if a read of the record shows it as loaded.`;
}

/** The HTTP status of a failed request, null when there was no answer. */
export const statusOf = (error: unknown): number | null => (error as Partial<HttpError>).status ?? null;
