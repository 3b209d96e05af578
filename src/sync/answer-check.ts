/**
 * A PATCH answer is checked against the request before it is taken as "applied": a service (or something in
 * front of it) may answer for another record, or echo values other than those sent (issue 25: an answer
 * naming another id was taken as applied; one echoing another accounted_id gave a false "changed by someone
 * else" at the confirmation). Such an answer proves nothing; a read of the record settles it. Pure.
 */
import type { StatePatch } from "../domain";
import { canonical, type TrackedValues } from "../sheets";

/** What the answer says that contradicts the request, as words for the journal; null when it agrees. */
export function answerContradiction(id: string, patch: StatePatch, answerId: string, answer: TrackedValues): string | null {
  if (answerId !== id) return `the answer is for record ${JSON.stringify(answerId.slice(0, 64))}, not this one`;
  const wrong: string[] = [];
  // patch.state is a TargetState, written in lower case as the service writes it.
  if (answer.state !== patch.state) wrong.push(`state ${answer.state || "(none)"}`);
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) {
    const sent = patch[key];
    if (sent !== undefined && answer[key] !== canonical(key, sent)) wrong.push(`${key} ${answer[key] || "(empty)"}`);
  }
  return wrong.length ? `the answer says ${wrong.join(", ")}, not what was sent` : null;
}
