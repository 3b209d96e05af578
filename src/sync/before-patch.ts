/**
 * The states of a record's sync before its PATCH (sync-record.ts): write-ahead (the attempt's "sending" line),
 * read (what the server holds), and check (that reading against the row: end the record, or send).
 */
import { AuthError, CancelledError, WrongRecordError } from "../api";
import type { TrackedValues } from "../sheets";
import { AGAIN_AND_TELL, anotherRecord } from "./answer-check";
import { getOne } from "./read-current";
import {
  finish, readLine, sendingLine, statusOf, mayResend, type Done, type RecordRun, type State,
} from "./record-run";
import { MISSING_MESSAGE, conflictMessage, describeTracked, editWords, readingOf, serverMoves } from "./server-check";
import { asSentence, inParentheses } from "./sentences";
import { messageOf } from "../domain";

/** write-ahead: this attempt's "sending" line is in the workbook before anything else of the attempt happens. */
export async function writeAhead(run: RecordRun): Promise<State> {
  try {
    await run.hooks.beforeAttempt(run.attempt, sendingLine(run, run.attempt));
  } catch (error) {
    return finish(run, "unread", { message: `The journal could not be written, so nothing more was sent: ${messageOf(error)}` });
  }
  return { step: "read" };
}

/** read: what the server holds now. A read that fails ends the record: nothing is sent blind. */
export async function readRecord(run: RecordRun): Promise<State> {
  let server: TrackedValues | null;
  try {
    server = await getOne(run.client, run.scope, run.id, run.signal);
  } catch (error) {
    return readFailed(run, error);
  }
  return { step: "check", server };
}

/** "Nothing was sent." before any PATCH of this record left; "Not sent again." after one did. */
const notSent = (run: RecordRun) => (run.answerLost || run.refusal !== null ? "Not sent again." : "Nothing was sent.");

function readFailed(run: RecordRun, error: unknown): Done {
  if (error instanceof WrongRecordError) return answeredForAnother(run, error);
  const status = statusOf(error);
  if (error instanceof AuthError) {
    const message = asSentence(error.message);
    return finish(run, "unread", { message, authRefused: true, line: readLine(status, `Reading the record was refused: ${message} ${notSent(run)}`) });
  }
  if (run.answerLost) {
    const message = `Sent, but the service could not be reached to confirm it ${inParentheses(messageOf(error))}. Run Sync states again: it reads the record before sending.`;
    return finish(run, "unread", { message, line: readLine(status, `${message} Not sent again.`) });
  }
  const message = error instanceof CancelledError
    ? run.hooks.stopMessage() || "Cancelled: the rest was not sent."
    : `Not sent: the record could not be read first ${inParentheses(messageOf(error))}. Run Sync states again.`;
  return finish(run, "unread", { message, line: readLine(status, run.refusal !== null ? `${message} Not sent again.` : message) });
}

/**
 * The read was answered for another record: nothing is decided from it (no "Already applied", no conflict, no
 * PATCH). The record ends unread: not sent, or unconfirmed once a PATCH of it may have landed.
 */
function answeredForAnother(run: RecordRun, error: WrongRecordError): Done {
  const about = anotherRecord(error);
  const message = run.answerLost
    ? `Sent, but its answer was lost, and when the record was read to confirm it, ${about}: nothing was decided from that answer. ${AGAIN_AND_TELL} It reads the record before sending.`
    : run.refusal !== null
      ? `The service said "${run.refusal}", and when the record was read to check it, ${about}: nothing was decided from that answer. Not sent again. ${AGAIN_AND_TELL}`
      : `When the record was read before sending, ${about}: nothing was decided from that answer, and nothing was sent. ${AGAIN_AND_TELL}`;
  const line = `${readAfter(run)}: ${about}. Nothing was decided from that answer. ${notSent(run)} ${AGAIN_AND_TELL}`;
  return finish(run, "unread", { message: run.client.redact(message), line: readLine(200, run.client.redact(line)) });
}

/** What the read followed, as its line says. */
const readAfter = (run: RecordRun) =>
  run.answerLost ? "Read the record after the lost answer" : run.refusal !== null ? "Read the record after the refusal" : "Read the record before sending";

/** How a line about a read that shows the record as loaded starts. */
export const stillAsLoaded = (run: RecordRun, server: TrackedValues) => `${readAfter(run)}: it still reads ${describeTracked(server)}, as loaded.`;

/** check: the reading (server-check.ts) ends the record, unless it still reads as loaded and a PATCH may follow. */
export function check(run: RecordRun, server: TrackedValues | null): State {
  if (server === null) {
    const message = run.answerLost ? "After a lost answer the record no longer exists on the server." : MISSING_MESSAGE;
    return finish(run, "missing", {
      message, line: readLine(404, `${readAfter(run)}: it no longer exists on the server (or moved to another subsidiary). ${notSent(run)} Refresh the table.`),
    });
  }
  const reading = readingOf(server, run.loaded, run.patch);
  if (reading === "holds-patch") return alreadyHeld(run, server);
  if (reading === "changed") return changedSinceLoaded(run, server);
  if (run.refusal !== null) {
    return finish(run, "as-loaded", { message: run.refusal, line: readLine(200, `${stillAsLoaded(run, server)} The PATCH was refused: ${run.refusal} Not sent again.`) });
  }
  if (!mayResend(run)) {
    const message = `Not applied: the service failed ${run.maxAttempts} times in a row. Run Sync states again later.`;
    return finish(run, "as-loaded", { message, line: readLine(200, `${stillAsLoaded(run, server)} ${message.replace(/\. Run/, ", so it is not sent again. Run")}`) });
  }
  return { step: "send", server };
}

/** The record already holds what the row asks: this run's lost PATCH landed, or someone (or an earlier sync) did it. */
function alreadyHeld(run: RecordRun, server: TrackedValues): Done {
  const [after, shows, refusal] = [readAfter(run), describeTracked(server), run.refusal];
  if (run.answerLost) {
    const line = readLine(200, `${after}: it holds ${shows}, what was sent, so the PATCH was applied. Not sent again.`);
    return finish(run, "holds-patch", { message: "Confirmed by reading the record after the answer was lost.", server, sent: server, line });
  }
  const message = refusal !== null ? `The service said "${refusal}", and the record holds exactly what this row asks.` : "";
  return finish(run, "holds-patch", {
    message, server, line: readLine(200, refusal !== null
      ? `${after}: it holds ${shows}, exactly what this row asks (the service said "${refusal}"). Not sent again.`
      : `${after}: it already holds ${shows}, exactly what this row asks. Nothing was sent.`),
  });
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The record moved some other way since it was loaded: a conflict, the server's values shown. */
function changedSinceLoaded(run: RecordRun, server: TrackedValues): Done {
  const [after, shows, loaded] = [readAfter(run), describeTracked(server), describeTracked(run.loaded)];
  const message = run.answerLost
    ? `After a lost answer the record reads ${shows}, not what was sent: not sent again. Refresh the table.`
    : conflictMessage(run.loaded, server, run.patch);
  return finish(run, "changed", {
    message, server, line: readLine(200, run.answerLost
      ? `${after}: it is now ${shows}, neither as loaded (${loaded}) nor what was sent. Not sent again. Refresh the table.`
      : `${after}: someone else changed it on the server since it was loaded. ${upperFirst(serverMoves(run.loaded, server))}. ` +
        `${notSent(run)} The edit was ${editWords(run.loaded, run.patch)}: refresh the table (the edit is kept) and edit again if still needed.`),
  });
}
