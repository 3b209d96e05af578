/**
 * Every answer the sync acts on is checked against what was asked before anything is decided from it.
 * A PATCH answer before it is taken as "applied": a service (or something in front of it) may answer for
 * another record, or echo values other than those sent (issue 25: an answer naming another id was taken as
 * applied; one echoing another accounted_id gave a false "changed by someone else" at the confirmation). Such
 * an answer proves nothing; a read of the record settles it. A read's answer before its values are compared
 * with the row (issue 49: a GET answered with another record that happened to hold what the rows asked made
 * the sync write "Already applied" on rows the server never changed): an answer naming another id is a
 * WrongRecordError, and nothing is decided from it. Pure.
 */
import { WrongRecordError, type StatePatch } from "../api";
import { TRACKED_WORDS, canonical, trackedOf, type TrackedRecord, type TrackedValues } from "../sheets";

/** An id the service sent, as words quote it: cut to 64 characters, in JSON quotes (redacted by whoever shows it). */
const quotedId = (id: string) => JSON.stringify(id.slice(0, 64));

/** What the answer says that contradicts the request, as words for the journal; null when it agrees. */
export function answerContradiction(id: string, patch: StatePatch, answerId: string, answer: TrackedValues): string | null {
  if (answerId !== id) return `the answer is for record ${quotedId(answerId)}, not this one`;
  const wrong: string[] = [];
  // patch.state is a TargetState, written in lower case as the service writes it.
  if (answer.state !== patch.state) wrong.push(`State ${answer.state || "(none)"}`);
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) {
    const sent = patch[key];
    if (sent !== undefined && answer[key] !== canonical(key, sent)) wrong.push(`${TRACKED_WORDS[key]} ${answer[key] || "(empty)"}`);
  }
  return wrong.length ? `the answer says ${wrong.join(", ")}, not what was sent` : null;
}

/**
 * The tracked values of a read's answer for record `id`. Throws a WrongRecordError when the answer is about
 * another record. The ids are the only scope an answer carries: the spec's allowances and expenses name no
 * subsidiary, and an answer of the other resource does not pass this one's schema (a SchemaError, before here).
 */
export function readAnswerOf(id: string, record: TrackedRecord): TrackedValues {
  if (record.id !== id) {
    const answered = quotedId(record.id);
    throw new WrongRecordError(`The service answered for another record (${answered}) when asked for record ${quotedId(id)}.`, id, answered);
  }
  return trackedOf(record);
}

/** The words a row and a journal line use for such an answer. */
export const anotherRecord = (error: WrongRecordError) => `the service answered for another record (${error.answered}), not this one`;

/** What to do after such an answer: it may not happen again, and if it does, the service is at fault. */
export const AGAIN_AND_TELL = "Run Sync states again, and tell your Spend Sync contact if it happens again.";
