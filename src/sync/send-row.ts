/**
 * Syncs one record the way the spec advises, with a race window of one round trip: every PATCH is
 * preceded by a read of the record whose answer is the last thing awaited before the PATCH leaves, and
 * the PATCH is sent only if that read shows the record as loaded. After an answer that leaves the outcome
 * unknown (no answer, a timeout, a 5xx, an unreadable body) the next request for the record is that read;
 * a 400 or 404 is read too ("already in paid state" may be our own lost attempt, or a colleague's change).
 * 429 means "not processed": wait, read, try again. 403 stops the whole sync. A 200 is taken as applied only
 * when its answer is for this record and echoes what was sent (answer-check.ts); otherwise it is unconfirmed
 * until a read settles it, and nothing is sent again on its strength.
 */
import {
  AuthError, CancelledError, InvalidRequestError, NotFoundError, RateLimitError, RejectedError, backoffDelay, updateAllowance, updateExpense,
  type HttpError, type SpendClient,
} from "../api";
import type { StatePatch } from "../domain";
import { trackedOf, type TrackedValues } from "../sheets";
import { answerContradiction } from "./answer-check";
import type { JournalEntry, JournalRequest, Outcome } from "./outcome";
import { getOne, type ReadScope } from "./read-current";
import { MISSING_MESSAGE, conflictMessage, describeTracked, holdsPatch, sameTracked } from "./server-check";
import { asSentence, inParentheses } from "./sentences";

export interface SendResult {
  outcome: Extract<Outcome, "applied" | "already-applied" | "rejected" | "conflict" | "unconfirmed" | "not-sent">;
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
  /** Checked between the read and the PATCH, with nothing awaited in between: false once the run stops. */
  maySend(): boolean;
  /** Why the run stopped, for rows it stops. */
  stopMessage(): string;
}

export interface SendOptions {
  /** PATCH attempts at most (default 4). */
  maxAttempts?: number;
  now?: () => Date;
  signal?: AbortSignal;
}

type Answer = { id: string; state: string; accounted_id: string | null; paid_id: string | null; paid_at: string | null; updated_at?: string };

export async function syncRecord(
  client: SpendClient, scope: ReadScope, id: string, loaded: TrackedValues, patch: StatePatch, hooks: RecordHooks, options: SendOptions = {},
): Promise<SendResult> {
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? 4;
  const sent = JSON.stringify(patch);
  // A PATCH's lines carry its body; a read's carry none, and their message says what the read showed and that
  // nothing was sent on it; "none" is a decision made without a request (nothing left).
  const line = (request: JournalRequest, httpStatus: number | null, outcome: string, message: string): JournalEntry =>
    ({ at: now(), id, from: loaded.state, to: patch.state, request, sent: request === "PATCH" ? sent : "", httpStatus, outcome, message });
  const log = (httpStatus: number | null, outcome: string, message: string) => hooks.log(line("PATCH", httpStatus, outcome, message));
  const read = (httpStatus: number | null, outcome: string, message: string) => hooks.log(line("read", httpStatus, outcome, message));
  /** "Nothing was sent." before any PATCH of this record left; "Not sent again." after one did. */
  const notSent = () => (unknown || refusal ? "Not sent again." : "Nothing was sent.");
  /** A PATCH of this record left without an answer we could read: it may have landed. */
  let unknown = false;
  /** The last refusal, kept for when the read shows the record as loaded. */
  let refusal: { status: number | null; message: string } | null = null;

  for (let attempt = 1; ; attempt++) {
    const resend = attempt <= maxAttempts && refusal === null;
    if (resend) {
      try {
        await hooks.beforeAttempt(attempt, line("PATCH", null, "sending", sendingMessage(attempt)));
      } catch (error) {
        return { outcome: unknown ? "unconfirmed" : "not-sent", message: `The journal could not be written, so nothing more was sent: ${(error as Error).message}` };
      }
    }
    let server: TrackedValues | null;
    try {
      server = await getOne(client, scope, id, options.signal);
    } catch (error) {
      const status = (error as Partial<HttpError>).status ?? null;
      if (error instanceof AuthError) {
        const message = asSentence(error.message);
        read(status, unknown ? "unconfirmed" : "not-sent", `Reading the record was refused: ${message} ${notSent()}`);
        return { outcome: unknown ? "unconfirmed" : "not-sent", message, authRefused: true };
      }
      if (unknown) {
        const message = `Sent, but the service could not be reached to confirm it ${inParentheses((error as Error).message)}. Run Sync states again: it reads the record before sending.`;
        read(status, "unconfirmed", `${message} Not sent again.`);
        return { outcome: "unconfirmed", message };
      }
      const message = error instanceof CancelledError
        ? hooks.stopMessage() || "Cancelled: the rest was not sent."
        : `Not sent: the record could not be read first ${inParentheses((error as Error).message)}. Run Sync states again.`;
      read(status, "not-sent", refusal ? `${message} Not sent again.` : message);
      return { outcome: "not-sent", message };
    }

    const after = unknown ? "Read the record after the lost answer" : refusal ? "Read the record after the refusal" : "Read the record before sending";
    if (server === null) {
      const message = unknown ? "After a lost answer the record no longer exists on the server." : MISSING_MESSAGE;
      read(404, unknown ? "conflict" : "rejected", `${after}: it no longer exists on the server (or moved to another subsidiary). ${notSent()} Refresh the table.`);
      return { outcome: unknown ? "conflict" : "rejected", message };
    }
    const shows = describeTracked(server);
    if (holdsPatch(server, loaded, patch)) {
      if (unknown) {
        read(200, "applied", `${after}: it holds ${shows}, what was sent, so the PATCH was applied. Not sent again.`);
        return { outcome: "applied", message: "Confirmed by reading the record after the answer was lost.", server, sent: server };
      }
      const message = refusal ? `The service said "${refusal.message}", and the record holds exactly what this row asks.` : "";
      read(200, "already-applied", refusal
        ? `${after}: it holds ${shows}, exactly what this row asks (the service said "${refusal.message}"). Not sent again.`
        : `${after}: it already holds ${shows}, exactly what this row asks. Nothing was sent.`);
      return { outcome: "already-applied", message, server };
    }
    if (!sameTracked(server, loaded)) {
      const message = unknown
        ? `After a lost answer the record reads ${describeTracked(server)}, not what was sent: not sent again. Refresh the table.`
        : conflictMessage(loaded, server);
      read(200, "conflict", unknown
        ? `${after}: it is now ${shows}, neither as loaded (${describeTracked(loaded)}) nor what was sent. Not sent again. Refresh the table.`
        : `${after}: it is now ${shows}, not ${describeTracked(loaded)} as loaded: changed on the server since it was loaded. ${notSent()} ` +
          "Refresh the table (the edit is kept where the server did not change it) and edit again if still needed.");
      return { outcome: "conflict", message, server };
    }
    // The record reads as loaded.
    const asLoaded = `${after}: it still reads ${shows}, as loaded.`;
    if (refusal) {
      read(200, "rejected", `${asLoaded} The PATCH was refused: ${refusal.message} Not sent again.`);
      return { outcome: "rejected", message: refusal.message };
    }
    if (!resend) {
      const message = `Not applied: the service failed ${maxAttempts} times in a row. Run Sync states again later.`;
      read(200, "not-sent", `${asLoaded} ${message.replace(/\. Run/, ", so it is not sent again. Run")}`);
      return { outcome: "not-sent", message };
    }
    if (!hooks.maySend()) {
      const message = hooks.stopMessage() || "Not sent.";
      read(200, "not-sent", `${asLoaded} Then the run stopped, so ${unknown ? "it was not sent again" : "nothing was sent"}: ${message}`);
      return { outcome: "not-sent", message };
    }
    // Nothing awaited since the read answered: the PATCH leaves now.
    let answer: Answer;
    try {
      answer = scope.resource === "allowance"
        ? await updateAllowance(client, scope.subsidiaryId, id, patch)
        : await updateExpense(client, scope.subsidiaryId, id, patch);
    } catch (error) {
      const status = (error as Partial<HttpError>).status ?? null;
      if (error instanceof AuthError) {
        const message = asSentence(error.message);
        log(status, unknown ? "unconfirmed" : "not-sent", message);
        return { outcome: unknown ? "unconfirmed" : "not-sent", message, authRefused: true };
      }
      if (error instanceof RateLimitError) {
        // 429: not processed. Wait as asked, but no longer than the client's own limit, and stop on cancel.
        const wait = error.retryAfterMs ?? backoffDelay(client.retry, attempt);
        if (wait > client.retry.maxRetryAfterMs) {
          const message = `The service asks to wait ${Math.ceil(wait / 1000)} s before more changes: not sent. Run Sync states again later.`;
          log(status, unknown ? "unconfirmed" : "not-sent", message);
          return { outcome: unknown ? "unconfirmed" : "not-sent", message };
        }
        log(status, "retry", `${error.message} Waiting, then reading the record again.`);
        await client.sleep(wait, options.signal);
        continue;
      }
      if (error instanceof InvalidRequestError) {
        // Refused here, before it left: nothing reached the service. Only the body is checked, the same at every
        // attempt, so this is the first attempt: no earlier PATCH of this record left.
        hooks.log(line("none", null, "not-sent", `${error.message} Refused before it left: nothing was sent.`));
        return { outcome: "not-sent", message: error.message };
      }
      if (error instanceof RejectedError || error instanceof NotFoundError) {
        const message = error instanceof NotFoundError ? "The record no longer exists on the server. Refresh the table." : error.serverMessage || error.message;
        log(status, "refused", `${message} Reading the record.`);
        refusal = { status, message };
        continue;
      }
      // Network error, timeout, 5xx, an answer that is not the spec's shape: the outcome is unknown.
      log(status, "unknown", `${(error as Error).message} Reading the record before anything else.`);
      unknown = true;
      continue;
    }
    const values = trackedOf(answer);
    // It quotes the answer: redacted, as every text from the service is before it reaches a row or the journal.
    const found = answerContradiction(id, patch, answer.id, values);
    const contradiction = found === null ? null : client.redact(found);
    if (contradiction === null) {
      log(200, "applied", "");
      return { outcome: "applied", message: "", server: { ...values, updated_at: answer.updated_at }, sent: values };
    }
    // The answer proves nothing: unconfirmed until a read of the record says what the server holds. Never sent
    // again from here: a service that answers for the wrong record may have applied it to the wrong one too.
    log(200, "unconfirmed", `The service answered 200, but ${contradiction}: not taken as applied. Reading the record to settle it.`);
    return settleAnswer(client, scope, id, loaded, patch, contradiction, read, options.signal);
  }
}

/** After a 200 whose answer contradicts the request: what a read of the record says happened. Nothing is sent again. */
async function settleAnswer(
  client: SpendClient, scope: ReadScope, id: string, loaded: TrackedValues, patch: StatePatch, contradiction: string,
  read: (httpStatus: number | null, outcome: string, message: string) => void, signal: AbortSignal | undefined,
): Promise<SendResult> {
  let server: TrackedValues | null;
  try {
    server = await getOne(client, scope, id, signal);
  } catch (error) {
    const message = `Sent, and the service answered 200, but ${contradiction}; the record could not be read to settle it ${inParentheses((error as Error).message)}. Run Sync states again: it reads the record before sending.`;
    read((error as Partial<HttpError>).status ?? null, "unconfirmed", `${message} Not sent again.`);
    return { outcome: "unconfirmed", message, authRefused: error instanceof AuthError };
  }
  const settle = "Read the record to settle it";
  if (server === null) {
    const message = `The service answered 200, but ${contradiction}, and the record no longer exists on the server. Refresh the table.`;
    read(404, "conflict", `${settle}: it no longer exists on the server (the service had answered 200, but ${contradiction}). Not sent again. Refresh the table.`);
    return { outcome: "conflict", message };
  }
  const shows = describeTracked(server);
  if (holdsPatch(server, loaded, patch)) {
    const message = `Confirmed by reading the record: the service's answer did not match the request (${contradiction}).`;
    read(200, "applied", `${settle}: it holds ${shows}, what was sent, so the PATCH was applied (its answer did not match the request: ${contradiction}). Not sent again.`);
    return { outcome: "applied", message, server, sent: server };
  }
  if (sameTracked(server, loaded)) {
    const message = client.redact(`Not applied: the service answered 200, but ${contradiction}, and the record still reads ${describeTracked(server)}. Nothing more was sent; run Sync states again, and tell your Spend Sync contact if it happens again.`);
    read(200, "rejected", `${settle}: it still reads ${shows}, as loaded, so the PATCH was not applied (the service answered 200, but ${contradiction}). ` +
      "Not sent again; run Sync states again, and tell your Spend Sync contact if it happens again.");
    return { outcome: "rejected", message };
  }
  const message = client.redact(`The service answered 200, but ${contradiction}, and the record now reads ${describeTracked(server)}, not what this row asks. Refresh the table.`);
  read(200, "conflict", `${settle}: it is now ${shows}, not what this row asks (the service answered 200, but ${contradiction}). Not sent again. Refresh the table.`);
  return { outcome: "conflict", message, server };
}

/** The "sending" line's message: the line is in the workbook before the PATCH, which leaves only after a read. */
export function sendingMessage(attempt: number): string {
  return `${attempt > 1 ? `Attempt ${attempt}. ` : ""}Written before the PATCH; it leaves only if a read of the record shows it as loaded.`;
}
