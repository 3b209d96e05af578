/**
 * Syncs one record the way the spec advises, with a race window of one round trip: every PATCH is
 * preceded by a read of the record whose answer is the last thing awaited before the PATCH leaves, and
 * the PATCH is sent only if that read shows the record as loaded. After an answer that leaves the outcome
 * unknown (no answer, a timeout, a 5xx, an unreadable body) the next request for the record is that read;
 * a 400 or 404 is read too ("already in paid state" may be our own lost attempt, or a colleague's change).
 * 429 means "not processed": wait, read, try again. 403 stops the whole sync. A 200 is taken as applied only
 * when its answer is for this record and echoes what was sent (answer-check.ts); otherwise it is unconfirmed
 * until a read settles it, and nothing is sent again on its strength.
 *
 * The record goes through explicit states (record-run.ts lists them): before-patch.ts has those up to the
 * PATCH, patch-states.ts those from it on. Each ends the record the one way (record-run.ts finish).
 */
import type { SpendClient } from "../api";
import type { StatePatch } from "../domain";
import type { TrackedValues } from "../sheets";
import { check, readRecord, writeAhead } from "./before-patch";
import { checkAnswer, send, settle } from "./patch-states";
import type { ReadScope } from "./read-current";
import { beginAttempt, recordPath, type RecordHooks, type RecordRun, type SendResult, type State } from "./record-run";

export type { RecordHooks } from "./record-run";
export { recordPath, sendingLine } from "./record-run";

export interface SendOptions {
  /** PATCH attempts at most (default 4). */
  maxAttempts?: number;
  now?: () => Date;
  signal?: AbortSignal;
}

/** Syncs one record: its states, one after the other, until one of them ends it. */
export async function syncRecord(
  client: SpendClient, scope: ReadScope, id: string, loaded: TrackedValues, patch: StatePatch, hooks: RecordHooks, options: SendOptions = {},
): Promise<SendResult> {
  const run: RecordRun = {
    client, scope, id, loaded, patch, path: recordPath(client, scope, id), hooks, signal: options.signal, maxAttempts: options.maxAttempts ?? 4, now: options.now ?? (() => new Date()),
    attempt: 1, answerLost: false, refusal: null,
  };
  let state = beginAttempt(run);
  while (state.step !== "done") {
    // Only a state that waits on a request is awaited: check goes on to send with nothing awaited in between.
    const next = enter(run, state);
    state = next instanceof Promise ? await next : next;
  }
  return state.result;
}

/** Runs one state: what it does, and the state it leads to. */
function enter(run: RecordRun, state: Exclude<State, { step: "done" }>): State | Promise<State> {
  switch (state.step) {
    case "write-ahead": return writeAhead(run);
    case "read": return readRecord(run);
    case "check": return check(run, state.server);
    case "send": return send(run, state.server);
    case "check-answer": return checkAnswer(run, state.answer);
    case "settle": return settle(run, state.contradiction);
  }
}
