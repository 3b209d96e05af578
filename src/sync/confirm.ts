/**
 * After a run: every record this run changed is read again (lists by state where they cost fewer requests
 * than GETs) and compared with what its PATCH left. The service has no conditional update, so another
 * client may have changed a record right after us; such a lost update is reported on the row and in the
 * journal with what the server holds now.
 */
import { AuthError, CancelledError, type SpendClient } from "../api";
import { describeTracked, sameTracked } from "../sheets";
import type { JournalEntry, RowResult } from "./outcome";
import { readCurrent, type ReadScope } from "./read-current";
import { asSentence } from "./sentences";

export interface Confirmed {
  /** Results whose record no longer holds what this run sent, now "overwritten". */
  overwritten: RowResult[];
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
    if (error instanceof CancelledError) return { overwritten: [], failure: "Cancelled before the rows applied were read again to confirm them." };
    if (error instanceof AuthError) return { overwritten: [], failure: asSentence(error.message) };
    return { overwritten: [], failure: asSentence(`The records this sync changed could not be read again to confirm them: ${(error as Error).message}`) };
  }
  const overwritten: RowResult[] = [];
  for (const r of checked) {
    const server = current.get(r.id) ?? null;
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
  return { overwritten, failure: "" };
}
