/**
 * The states of a record's sync from its PATCH on (sync-record.ts): send (the PATCH, and what each failure means),
 * check-answer (a 200 is applied only if it echoes the request), and settle (a read after a 200 that does not).
 */
import {
  AuthError, InvalidRequestError, NotFoundError, RateLimitError, RejectedError, WrongRecordError, backoffDelay,
  type SpendClient,
} from "../api";
import type { StatePatch } from "../domain";
import { trackedOf, trackedSpecOf, type TrackedValues } from "../sheets";
import { AGAIN_AND_TELL, answerContradiction, anotherRecord } from "./answer-check";
import { stillAsLoaded } from "./before-patch";
import { getOne, type ReadScope } from "./read-current";
import {
  ANSWERED, finish, nextAttempt, note, patchLine, readLine, statusOf, type Answer, type Done, type RecordRun, type State,
} from "./record-run";
import { describeTracked, readingOf } from "./server-check";
import { asSentence, inParentheses } from "./sentences";
import { messageOf } from "../domain";

/** The PATCH of a record, by the resource it is of (its module in the registry). */
function patchRecord(client: SpendClient, scope: ReadScope, id: string, patch: StatePatch): Promise<Answer> {
  return trackedSpecOf(scope.resource).update(client, scope.subsidiaryId, id, patch);
}

/** send: unless the run stopped (asked with nothing awaited since the read answered), the PATCH leaves now. */
export async function send(run: RecordRun, server: TrackedValues): Promise<State> {
  if (!run.hooks.maySend()) {
    const message = run.hooks.stopMessage() || "Not sent.";
    const line = readLine(200, `${stillAsLoaded(run, server)} Then the run stopped, so ${run.answerLost ? "it was not sent again" : "nothing was sent"}: ${message}`);
    return finish(run, "as-loaded", { message, line });
  }
  let answer: Answer;
  try {
    answer = await patchRecord(run.client, run.scope, run.id, run.patch);
  } catch (error) {
    return patchFailed(run, error);
  }
  return { step: "check-answer", answer };
}

/** A PATCH that did not come back 200: the record ends, or the next attempt starts with a read of it. */
async function patchFailed(run: RecordRun, error: unknown): Promise<State> {
  const status = statusOf(error);
  if (error instanceof AuthError) {
    const message = asSentence(error.message);
    return finish(run, "unread", { message, authRefused: true, line: patchLine(status, message) });
  }
  if (error instanceof RateLimitError) return waitAfter429(run, error, status);
  if (error instanceof InvalidRequestError) {
    // Refused here, before it left: nothing reached the service. Only the body is checked, the same at every
    // attempt, so this is the first attempt: no earlier PATCH of this record left (said, not left to soFar).
    const line = { request: "none" as const, httpStatus: null, message: `${error.message} Refused before it left: nothing was sent.` };
    return finish(run, "unread", { message: error.message, line }, { mayHaveLanded: false, answered: false });
  }
  if (error instanceof RejectedError || error instanceof NotFoundError) {
    const message = error instanceof NotFoundError ? "The record no longer exists on the server. Refresh the table." : error.serverMessage || error.message;
    note(run, "PATCH", status, "refused", `${message} Reading the record.`);
    run.refusal = message;
    return nextAttempt(run);
  }
  // Network error, timeout, 5xx, an answer that is not the spec's shape: the outcome is unknown.
  note(run, "PATCH", status, "unknown", `${messageOf(error)} Reading the record before anything else.`);
  run.answerLost = true;
  return nextAttempt(run);
}

/** 429: not processed. Wait as asked, but no longer than the client's own limit, and stop on cancel. */
async function waitAfter429(run: RecordRun, error: RateLimitError, status: number | null): Promise<State> {
  const wait = error.retryAfterMs ?? backoffDelay(run.client.retry, run.attempt);
  if (wait > run.client.retry.maxRetryAfterMs) {
    const message = `The service asks to wait ${Math.ceil(wait / 1000)} s before more changes: not sent. Run Sync states again later.`;
    return finish(run, "unread", { message, line: patchLine(status, message) });
  }
  note(run, "PATCH", status, "retry", `${error.message} Waiting, then reading the record again.`);
  await run.client.sleep(wait, run.signal);
  return nextAttempt(run);
}

/** check-answer: a 200 is taken as applied only when its answer is for this record and echoes what was sent. */
export function checkAnswer(run: RecordRun, answer: Answer): State {
  const values = trackedOf(answer);
  // It quotes the answer: redacted, as every text from the service is before it reaches a row or the journal.
  const found = answerContradiction(run.id, run.patch, answer.id, values);
  if (found === null) {
    return finish(run, "holds-patch", { message: "", server: { ...values, updated_at: answer.updated_at }, sent: values, line: patchLine(200, "") }, ANSWERED);
  }
  const contradiction = run.client.redact(found);
  // The answer proves nothing: unconfirmed until a read of the record says what the server holds. Never sent
  // again from here: a service that answers for the wrong record may have applied it to the wrong one too.
  note(run, "PATCH", 200, "unconfirmed", `The service answered 200, but ${contradiction}: not taken as applied. Reading the record to settle it.`);
  return { step: "settle", contradiction };
}

/** settle: after a 200 whose answer contradicts the request, what a read of the record says happened. Nothing is sent again. */
export async function settle(run: RecordRun, contradiction: string): Promise<State> {
  let server: TrackedValues | null;
  try {
    server = await getOne(run.client, run.scope, run.id, run.signal);
  } catch (error) {
    if (error instanceof WrongRecordError) return settledByAnother(run, error, contradiction);
    const message = `Sent, and the service answered 200, but ${contradiction}; the record could not be read to settle it ${inParentheses(messageOf(error))}. Run Sync states again: it reads the record before sending.`;
    return finish(run, "unread", { message, authRefused: error instanceof AuthError, line: readLine(statusOf(error), `${message} Not sent again.`) }, ANSWERED);
  }
  return settledBy(run, server, contradiction);
}

/** The settling read was answered for another record: neither answer says what happened, so the record stays unconfirmed. */
function settledByAnother(run: RecordRun, error: WrongRecordError, contradiction: string): Done {
  const about = anotherRecord(error);
  const message = `Sent, and the service answered 200, but ${contradiction}; when the record was read to settle it, ${about}: nothing was decided from either answer. ${AGAIN_AND_TELL} It reads the record before sending.`;
  const line = `Read the record to settle it: ${about} (the service had answered 200, but ${contradiction}). Nothing was decided from either answer. Not sent again. ${AGAIN_AND_TELL}`;
  return finish(run, "unread", { message: run.client.redact(message), line: readLine(200, run.client.redact(line)) }, ANSWERED);
}

/** What the settling read shows, as the record's ending. */
function settledBy(run: RecordRun, server: TrackedValues | null, contradiction: string): Done {
  const settling = "Read the record to settle it";
  if (server === null) {
    const message = `The service answered 200, but ${contradiction}, and the record no longer exists on the server. Refresh the table.`;
    const line = readLine(404, `${settling}: it no longer exists on the server (the service had answered 200, but ${contradiction}). Not sent again. Refresh the table.`);
    return finish(run, "missing", { message, line }, ANSWERED);
  }
  const shows = describeTracked(server);
  const reading = readingOf(server, run.loaded, run.patch);
  if (reading === "holds-patch") {
    const message = `Confirmed by reading the record: the service's answer did not match the request (${contradiction}).`;
    const line = readLine(200, `${settling}: it holds ${shows}, what was sent, so the PATCH was applied (its answer did not match the request: ${contradiction}). Not sent again.`);
    return finish(run, reading, { message, server, sent: server, line }, ANSWERED);
  }
  if (reading === "as-loaded") {
    const message = run.client.redact(`Not applied: the service answered 200, but ${contradiction}, and the record still reads ${shows}. Nothing more was sent; run Sync states again, and tell your Spend Sync contact if it happens again.`);
    const line = readLine(200, `${settling}: it still reads ${shows}, as loaded, so the PATCH was not applied (the service answered 200, but ${contradiction}). ` +
      "Not sent again; run Sync states again, and tell your Spend Sync contact if it happens again.");
    return finish(run, reading, { message, line }, ANSWERED);
  }
  const message = run.client.redact(`The service answered 200, but ${contradiction}, and the record now reads ${shows}, not what this row asks. Refresh the table.`);
  const line = readLine(200, `${settling}: it is now ${shows}, not what this row asks (the service answered 200, but ${contradiction}). Not sent again. Refresh the table.`);
  return finish(run, reading, { message, server, line }, ANSWERED);
}
