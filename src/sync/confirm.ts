/**
 * After a run: every record this run changed is read again (lists by state where they cost fewer requests
 * than GETs) and compared with what its PATCH left. The service has no conditional update, so another
 * client may have changed a record right after us; such a lost update is reported on the row and in the
 * journal with what the server holds now. A read answered for another record (read-current.ts) says nothing
 * of this one: no "changed by someone else" from it; the row stays applied, and says it was not confirmed.
 */
import { AuthError, CancelledError, WrongRecordError, type SpendClient } from "../api";
import { describeTracked, sameTracked } from "../sheets";
import { anotherRecord } from "./answer-check";
import type { JournalEntry, RowResult } from "./outcome";
import { readCurrent, type ReadScope } from "./read-current";
import { asSentence } from "./sentences";
import { messageOf } from "../domain";

export interface Confirmed {
  /** Results whose record no longer holds what this run sent, now "overwritten". */
  overwritten: RowResult[];
  /** Results still applied whose read again was answered for another record: their message says so. */
  notConfirmed: RowResult[];
  /** Why the confirmation could not be done, if it could not ("" when done). */
  failure: string;
}

export async function confirmApplied(
  client: SpendClient, scope: ReadScope, applied: RowResult[], log: (entry: JournalEntry) => void, now: () => Date, signal?: AbortSignal,
): Promise<Confirmed> {
  const checked = applied.filter((r) => r.sent);
  let current: Awaited<ReturnType<typeof readCurrent>>;
  try {
    const states = [...new Set(checked.map((r) => r.sent!.state))];
    current = await readCurrent(client, scope, checked.map((r) => r.id), states, { signal });
  } catch (error) {
    if (error instanceof CancelledError) return { overwritten: [], notConfirmed: [], failure: "Cancelled before the rows applied were read again to confirm them." };
    if (error instanceof AuthError) return { overwritten: [], notConfirmed: [], failure: asSentence(error.message) };
    return { overwritten: [], notConfirmed: [], failure: asSentence(`The records this sync changed could not be read again to confirm them: ${messageOf(error)}`) };
  }
  const overwritten: RowResult[] = [];
  const notConfirmed: RowResult[] = [];
  for (const r of checked) {
    const server = current.get(r.id) ?? null;
    if (server instanceof WrongRecordError) {
      notConfirmed.push(answeredForAnother(client, r, server, log, now()));
      continue;
    }
    if (server && sameTracked(server, r.sent!)) continue;
    const at = now();
    const message = server
      ? `Applied ${r.from} → ${r.to}, then changed by someone else after this sync: now ${describeTracked(server)}. The row shows the server's values.`
      : `Applied ${r.from} → ${r.to}, then the record disappeared from the server (deleted or moved to another subsidiary).`;
    // A read (lists by state, or one GET each): its status is the read's, and the line says nothing was sent.
    const journalMessage = server
      ? `Read again after the run: it is now ${describeTracked(server)}, not what this sync left (${describeTracked(r.sent!)}): changed by someone else. Nothing more was sent.`
      : `Read again after the run: the record is gone from the server (deleted or moved to another subsidiary) since this sync applied ${r.from} → ${r.to}. Nothing more was sent.`;
    log({ at, id: r.id, from: r.from, to: r.to, request: "read", sent: "", httpStatus: server ? 200 : null, outcome: "overwritten", message: journalMessage });
    overwritten.push({ ...r, outcome: "overwritten", message, server: server ?? undefined, at });
  }
  // Said once for the run too: the rows it concerns read "Applied", and the summary should not read as all confirmed.
  const failure = notConfirmed.length === 0 ? "" : `${notConfirmed.length} of the records this sync changed could not be confirmed: the service answered for another record.`;
  return { overwritten, notConfirmed, failure };
}

/** An applied row whose read again was answered for another record: still applied (its PATCH's answer said so), not confirmed. */
function answeredForAnother(client: SpendClient, r: RowResult, error: WrongRecordError, log: (entry: JournalEntry) => void, at: Date): RowResult {
  const about = anotherRecord(error);
  const then = "Refresh the table to see what the server holds, and tell your Spend Sync contact if it happens again.";
  const message = client.redact(`Not confirmed after the run: when the record was read again, ${about}, so whether it still holds this change is not known. ${then}`);
  const journalMessage = client.redact(`Read again after the run: ${about}. Nothing was decided from that answer: this sync's change (${describeTracked(r.sent!)}) is not confirmed. Nothing more was sent. ${then}`);
  log({ at, id: r.id, from: r.from, to: r.to, request: "read", sent: "", httpStatus: 200, outcome: "unconfirmed", message: journalMessage });
  return { ...r, message: r.message ? `${r.message} ${message}` : message, at };
}
