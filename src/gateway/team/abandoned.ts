/**
 * A PATCH left `sending`: its gateway claimed and forwarded it, then stopped (killed, crashed, its database
 * gone) before recording the answer. Nothing would ever answer a repeat of it (409 "being sent"), and
 * forwarding it again blindly could apply it twice. So once no gateway can still be waiting for its answer
 * (`abandonedAfterMs`: the forwarder's whole-answer deadline and a margin for recording), a repeat has the
 * gateway read the record from the service, as the add-in's read-before-retry does:
 *   - the record holds every value of the PATCH's body: recorded as answered (200, the record read), the
 *     audit saying "applied (confirmed by reading the record)"; the repeat and every later one get that;
 *   - it does not: recorded as not applied (the request `ready` again), so it may be sent once more within the
 *     batch's validity, by a fresh claim (forwarding.ts) that still sends it once;
 *   - the record cannot be read: left as it is (the repeat gets 409), nothing decided.
 */
import { actorOf } from "./batches";
import { appendAudit } from "./audit";
import { num, type SqlClient } from "./sql";
import type { Person } from "./tokens";

/** Reads a record from the service with the enterprise key: GET of the PATCH's own path. */
type RecordReader = (path: string) => Promise<Response>;

/** Between the forwarder's deadline for a whole answer and a request counting as abandoned: the answer's recording. */
export const RECORDING_MARGIN_MS = 5_000;

export interface Recovery {
  read: RecordReader;
  /** A request `sending` for longer than this has no gateway waiting for its answer any more. */
  abandonedAfterMs: number;
}

type Resolution = "applied" | "not-applied" | "unreadable" | "not-abandoned";

interface SendingRow { seq: number; body: string; state: string; sent_ms: unknown }

/** True when `record` (the service's JSON) holds each value `body` (the PATCH's JSON) sets; times compared as instants. */
function holdsValues(bodyText: string, recordText: string): boolean {
  try {
    const body = JSON.parse(bodyText) as Record<string, unknown>;
    const record = JSON.parse(recordText) as Record<string, unknown>;
    return Object.entries(body).every(([key, value]) => {
      const held = record[key];
      if (key.endsWith("_at") && typeof value === "string" && typeof held === "string") return Date.parse(value) === Date.parse(held);
      return held === value;
    });
  } catch {
    return false;
  }
}

/** Resolves the batch's request at `path` if it was abandoned while `sending`; says what it found. */
export async function resolveAbandoned(db: SqlClient, recovery: Recovery, batchId: string, path: string, sender: Person, now: () => number): Promise<Resolution> {
  const select = "SELECT seq, body, state, sent_ms FROM team_requests WHERE batch_id = $1 AND method = 'PATCH' AND path = $2";
  const seen = (await db.query<SendingRow>(select, [batchId, path])).rows[0];
  if (seen === undefined || seen.state !== "sending" || now() - num(seen.sent_ms) < recovery.abandonedAfterMs) return "not-abandoned";
  let read: { ok: boolean; text: string };
  try {
    const answer = await recovery.read(path.split("?")[0]);
    read = { ok: answer.status === 200, text: await answer.text() };
  } catch {
    return "unreadable";
  }
  if (!read.ok) return "unreadable";
  const applied = holdsValues(seen.body, read.text);
  return db.transaction(async (tx) => {
    // Another repeat (on this gateway or another) may have resolved it meanwhile: only the claim seen is resolved.
    const still = (await tx.query<SendingRow>(`${select} FOR UPDATE`, [batchId, path])).rows[0];
    if (still?.state !== "sending" || num(still.sent_ms) !== num(seen.sent_ms)) return "not-abandoned";
    const at = now();
    if (applied) {
      await tx.query("UPDATE team_requests SET state = 'answered', answer_status = 200, answer_type = 'application/json', answer_body = $3, answered_ms = $4 WHERE batch_id = $1 AND seq = $2", [batchId, seen.seq, read.text, at]);
    } else {
      await tx.query("UPDATE team_requests SET state = 'ready', sent_ms = NULL, sent_by = NULL WHERE batch_id = $1 AND seq = $2", [batchId, seen.seq]);
    }
    const outcome = applied ? "applied (confirmed by reading the record)" : "not applied (the record does not hold the PATCH's values): it may be sent again";
    await appendAudit(tx, { at: new Date(at).toISOString(), actor: "gateway", action: "resolve", batchId, detail: JSON.stringify({ seq: seen.seq, path, outcome, record: read.text, repeatedBy: actorOf(sender) }) });
    return applied ? "applied" : "not-applied";
  });
}
