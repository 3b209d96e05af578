/**
 * Forwarding once. A PATCH that names its batch is matched to the batch's request of that method and path,
 * and must carry the approved body byte for byte. The request's row is then claimed in a transaction that
 * locks it (`FOR UPDATE`): the first claim marks it `sending` and forwards; every later one, on this gateway
 * or another sharing the database, finds it `sending` (in flight) or `answered` (the recorded status and
 * body are the answer). A request that was sent is never sent again, whatever happens to its answer.
 */
import { actorOf } from "./batches";
import { appendAudit } from "./audit";
import { num, type SqlClient } from "./sql";
import type { Person } from "./tokens";

export type Claim =
  | { kind: "forward"; seq: number }
  | { kind: "replay"; status: number; contentType: string; body: string }
  | { kind: "in-flight" }
  | { kind: "refused"; status: 403 | 409; message: string };

interface BatchRow { preparer_id: string; state: string; valid_until_ms: unknown }
interface RequestRow { seq: number; body: string; request_state: string; answer_status: number | null; answer_type: string | null; answer_body: string | null }

/** Decides what happens to one PATCH of a batch, and claims it for sending when it may go. */
export async function claimRequest(db: SqlClient, batchId: string, sender: Person, path: string, body: string, now: number): Promise<Claim> {
  return db.transaction(async (tx) => {
    const batches = await tx.query<BatchRow>("SELECT preparer_id, state, valid_until_ms FROM team_batches WHERE id = $1", [batchId]);
    const batch = batches.rows[0];
    if (batch === undefined) return refused(403, "No such batch: a PATCH is sent only in a batch an approver approved.");
    // The request's row is locked to the end of this transaction: a second claim waits here, then sees the first's mark.
    const requests = await tx.query<RequestRow>("SELECT seq, body, state AS request_state, answer_status, answer_type, answer_body FROM team_requests WHERE batch_id = $1 AND method = 'PATCH' AND path = $2 FOR UPDATE", [batchId, path]);
    const row = { ...batch, ...requests.rows[0] };
    if (row.preparer_id !== sender.id) return refused(403, "Only the batch's preparer sends its PATCHes.");
    if (requests.rows.length === 0) return refused(403, "This PATCH is not in the batch it names: nothing was sent.");
    if (row.body !== body) return refused(409, "This PATCH's body differs from the one approved: nothing was sent. Prepare a new batch.");
    if (row.request_state === "answered") {
      await appendAudit(tx, replayEntry(sender, batchId, path, row.answer_status, now));
      return { kind: "replay", status: row.answer_status ?? 502, contentType: row.answer_type ?? "application/json", body: row.answer_body ?? "" };
    }
    if (row.request_state === "sending") return { kind: "in-flight" };
    if (row.state !== "approved") return refused(403, row.state === "pending" ? "This batch is not approved yet: nothing was sent." : `This batch was ${row.state}: nothing was sent.`);
    if (now >= num(row.valid_until_ms)) return refused(403, "This batch's validity has passed: nothing was sent. Prepare it again.");
    await tx.query("UPDATE team_requests SET state = 'sending', sent_ms = $3, sent_by = $4 WHERE batch_id = $1 AND seq = $2", [batchId, row.seq, now, sender.id]);
    await appendAudit(tx, { at: new Date(now).toISOString(), actor: actorOf(sender), action: "forward", batchId, detail: JSON.stringify({ seq: row.seq, method: "PATCH", path, body }) });
    return { kind: "forward", seq: row.seq };
  });
}

const replayEntry = (sender: Person, batchId: string, path: string, status: number | null, now: number) =>
  ({ at: new Date(now).toISOString(), actor: actorOf(sender), action: "replay" as const, batchId, detail: JSON.stringify({ path, status }) });

const refused = (status: 403 | 409, message: string): Claim => ({ kind: "refused", status, message });

/** Records the answer of a forwarded request (the one later repeats get). */
export async function recordAnswer(db: SqlClient, batchId: string, seq: number, answer: { status: number; contentType: string; body: string }, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      "UPDATE team_requests SET state = 'answered', answer_status = $3, answer_type = $4, answer_body = $5, answered_ms = $6 WHERE batch_id = $1 AND seq = $2 AND state = 'sending'",
      [batchId, seq, answer.status, answer.contentType, answer.body, now],
    );
    await appendAudit(tx, { at: new Date(now).toISOString(), actor: "gateway", action: "answer", batchId, detail: JSON.stringify({ seq, status: answer.status, body: answer.body }) });
  });
}

/** The recorded answer of a request another claim is sending, once there is one (the repeat that gets it is audited). */
export async function recordedAnswer(db: SqlClient, batchId: string, sender: Person, path: string, now: number): Promise<{ status: number; contentType: string; body: string } | undefined> {
  const { rows } = await db.query<{ answer_status: number | null; answer_type: string | null; answer_body: string | null }>(
    "SELECT answer_status, answer_type, answer_body FROM team_requests WHERE batch_id = $1 AND method = 'PATCH' AND path = $2 AND state = 'answered'",
    [batchId, path],
  );
  const row = rows[0];
  if (row !== undefined) await db.transaction((tx) => appendAudit(tx, replayEntry(sender, batchId, path, row.answer_status, now)));
  return row === undefined ? undefined : { status: row.answer_status ?? 502, contentType: row.answer_type ?? "application/json", body: row.answer_body ?? "" };
}
