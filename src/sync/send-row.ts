/**
 * Sends one change the way the spec advises: a PATCH is never blindly repeated. After an answer that leaves
 * the outcome unknown (no answer, a timeout, a 5xx, an unreadable body), the record is read first, and the
 * PATCH is sent again only when the server shows it was not applied. 429 means "not processed": wait and
 * try again. 400 and 404 give the row the service's message. 403 stops the whole sync.
 */
import {
  AuthError, CancelledError, NotFoundError, RateLimitError, RejectedError, backoffDelay, sleep, updateAllowance, updateExpense,
  type HttpError, type SpendClient,
} from "../api";
import type { StatePatch } from "../domain";
import { trackedOf, type TrackedValues } from "../sheets";
import type { JournalEntry, Outcome } from "./outcome";
import { getOne, type ReadScope } from "./read-current";
import { describeTracked, holdsPatch, sameTracked } from "./server-check";

export interface SendResult {
  outcome: Extract<Outcome, "applied" | "rejected" | "conflict" | "unconfirmed" | "not-sent">;
  message: string;
  server?: TrackedValues & { updated_at?: string };
  journal: JournalEntry[];
  /** The key was refused: stop sending. */
  authRefused?: boolean;
}

export interface SendOptions {
  /** PATCH attempts at most (default 4). */
  maxAttempts?: number;
  now?: () => Date;
}

type Answer = { id: string; state: string; accounted_id: string | null; paid_id: string | null; paid_at: string | null; updated_at?: string };

export async function sendChange(client: SpendClient, scope: ReadScope, id: string, loaded: TrackedValues, patch: StatePatch,
  options: SendOptions = {}): Promise<SendResult> {
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? 4;
  const journal: JournalEntry[] = [];
  const sent = JSON.stringify(patch);
  const log = (httpStatus: number | null, outcome: string, message: string) =>
    journal.push({ at: now(), id, from: loaded.state, to: patch.state, sent, httpStatus, outcome, message });
  let unknownBefore = false;

  /** After an unknown outcome: did it land? */
  const check = async (): Promise<SendResult | "retry"> => {
    let server: TrackedValues | null;
    try {
      server = await getOne(client, scope, id);
    } catch (error) {
      const message = `Sent, but the service could not be reached to confirm it (${(error as Error).message}). Run Sync states again: it checks the server before sending.`;
      log(null, "unconfirmed", message);
      return { outcome: "unconfirmed", message, journal };
    }
    if (server && holdsPatch(server, patch)) {
      log(200, "applied", "Confirmed applied by reading the record after the answer was lost.");
      return { outcome: "applied", message: "Applied (confirmed by reading the record after the answer was lost).", server, journal };
    }
    if (server && sameTracked(server, loaded)) return "retry";
    const message = server
      ? `After a lost answer the record reads ${describeTracked(server)}, not what was sent: not sent again. Refresh the table.`
      : "After a lost answer the record no longer exists on the server.";
    log(200, "conflict", message);
    return { outcome: "conflict", message, server: server ?? undefined, journal };
  };

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const answer: Answer = scope.resource === "allowance"
        ? await updateAllowance(client, scope.subsidiaryId, id, patch)
        : await updateExpense(client, scope.subsidiaryId, id, patch);
      log(200, "applied", "");
      return { outcome: "applied", message: "", server: { ...trackedOf(answer), updated_at: answer.updated_at }, journal };
    } catch (error) {
      const status = (error as Partial<HttpError>).status ?? null;
      if (error instanceof AuthError) {
        log(status, "not-sent", error.message);
        return { outcome: "not-sent", message: error.message, journal, authRefused: true };
      }
      if (error instanceof RateLimitError) {
        log(status, "retry", error.message);
        await sleep(error.retryAfterMs ?? backoffDelay(client.retry, attempt));
        continue;
      }
      if (error instanceof RejectedError || error instanceof NotFoundError) {
        // A refusal after a lost answer may be our own earlier attempt that landed ("already in paid state").
        if (unknownBefore) {
          const checked = await check();
          if (checked !== "retry") return checked;
        }
        const message = error instanceof NotFoundError ? "The record no longer exists on the server. Refresh the table." : error.serverMessage || error.message;
        log(status, "rejected", message);
        return { outcome: "rejected", message, journal };
      }
      if (error instanceof CancelledError) throw error;
      // Network error, timeout, 5xx, an answer that is not the spec's shape: the outcome is unknown.
      log(status, "unknown", `${(error as Error).message} Reading the record before anything else.`);
      unknownBefore = true;
      const checked = await check();
      if (checked !== "retry") return checked;
    }
  }
  // The last read showed the record as loaded: it was not applied.
  const message = `Not applied: the service failed ${maxAttempts} times in a row. Run Sync states again later.`;
  log(null, "not-sent", message);
  return { outcome: "not-sent", message, journal };
}
