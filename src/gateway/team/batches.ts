/**
 * Batches in the database: prepared (frozen, with its hash), decided once (approved or rejected by an
 * approver who is not its preparer, the approval naming the hash the approver saw), and read back whole with
 * each request's outcome. Every change and its audit row are one transaction.
 */
import { appendAudit } from "./audit";
import type { BatchInput, BatchRequest, BatchRow, BatchTotal } from "./batch-input";
import { sha256Hex } from "./hash";
import { num, type Sql, type SqlClient } from "./sql";
import type { Person } from "./tokens";

export type BatchState = "pending" | "approved" | "rejected" | "expired";

interface RequestOutcome extends BatchRequest {
  /** ready: not sent yet; sending: forwarded, answer not recorded yet; answered. */
  state: "ready" | "sending" | "answered";
  answer: { status: number; body: string } | null;
}

export interface Batch {
  id: string;
  preparer: { id: string; name: string };
  preparedAt: string;
  validUntil: string;
  source: string;
  hash: string;
  state: BatchState;
  decision: { by: { id: string; name: string }; at: string; comment: string } | null;
  rows: BatchRow[];
  totals: BatchTotal[];
  requests: RequestOutcome[];
}

/** The text the hash covers: everything the approver approves, in a fixed order. */
function frozenText(id: string, preparer: Person, preparedAt: string, validUntil: string, input: BatchInput): string {
  return JSON.stringify({ id, preparer: { id: preparer.id, name: preparer.name }, preparedAt, validUntil, source: input.source, requests: input.requests, rows: input.rows, totals: input.totals });
}

export const actorOf = (person: { id: string; name: string }): string => `${person.id} ${person.name}`;

/** Stores a prepared batch, pending; answers its id. */
export async function prepareBatch(db: SqlClient, preparer: Person, input: BatchInput, now: number, validityMs: number): Promise<string> {
  const id = crypto.randomUUID();
  const preparedAt = new Date(now).toISOString();
  const validUntil = new Date(now + validityMs).toISOString();
  const frozen = frozenText(id, preparer, preparedAt, validUntil, input);
  const hash = await sha256Hex(frozen);
  await db.transaction(async (tx) => {
    await tx.query(
      "INSERT INTO team_batches (id, preparer_id, preparer_name, prepared_ms, valid_until_ms, content, hash, state) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending')",
      [id, preparer.id, preparer.name, now, now + validityMs, frozen, hash],
    );
    // One statement for the whole batch (5,000 requests are one round trip, not 5,000).
    await tx.query(
      "INSERT INTO team_requests (batch_id, seq, method, path, body) SELECT $1, t.seq, 'PATCH', t.path, t.body FROM unnest($2::int[], $3::text[], $4::text[]) AS t(seq, path, body)",
      [id, input.requests.map((_r, seq) => seq), input.requests.map((r) => r.path), input.requests.map((r) => r.body)],
    );
    await appendAudit(tx, { at: preparedAt, actor: actorOf(preparer), action: "prepare", batchId: id, detail: JSON.stringify({ hash, requests: input.requests.length, totals: input.totals, validUntil }) });
  });
  return id;
}

interface BatchRecord {
  id: string; preparer_id: string; preparer_name: string; prepared_ms: unknown; valid_until_ms: unknown; content: string; hash: string;
  state: string; approver_id: string | null; approver_name: string | null; decided_ms: unknown; comment: string | null;
}
interface RequestRecord { seq: number; method: string; path: string; body: string; state: RequestOutcome["state"]; answer_status: number | null; answer_body: string | null }

function batchOf(record: BatchRecord, requests: RequestRecord[], now: number): Batch {
  const content = JSON.parse(record.content) as { source: string; rows: BatchRow[]; totals: BatchTotal[]; preparedAt: string; validUntil: string };
  const open = record.state === "pending" || record.state === "approved";
  return {
    id: record.id, preparer: { id: record.preparer_id, name: record.preparer_name }, preparedAt: content.preparedAt, validUntil: content.validUntil,
    source: content.source, hash: record.hash,
    state: open && now >= num(record.valid_until_ms) ? "expired" : (record.state as BatchState),
    decision: record.approver_id === null ? null : { by: { id: record.approver_id, name: record.approver_name ?? "" }, at: new Date(num(record.decided_ms)).toISOString(), comment: record.comment ?? "" },
    rows: content.rows, totals: content.totals,
    requests: requests.map((r) => ({
      method: "PATCH", path: r.path, body: r.body, state: r.state, answer: r.answer_status === null ? null : { status: r.answer_status, body: r.answer_body ?? "" },
    })),
  };
}

/** One batch with its requests' outcomes, or undefined. */
export async function readBatch(sql: Sql, id: string, now: number): Promise<Batch | undefined> {
  const { rows } = await sql.query<BatchRecord>("SELECT * FROM team_batches WHERE id = $1", [id]);
  if (rows.length === 0) return undefined;
  const requests = await sql.query<RequestRecord>("SELECT * FROM team_requests WHERE batch_id = $1 ORDER BY seq", [id]);
  return batchOf(rows[0], requests.rows, now);
}

/** The batches in a state (newest first, at most 200), without their requests' bodies. */
export async function listBatches(sql: Sql, state: BatchState | undefined, now: number): Promise<Omit<Batch, "requests" | "rows">[]> {
  // (Expiry is a matter of the clock, not a stored state: each filter says it in SQL, so the 200 are the right 200.)
  const where: Record<BatchState, string> = {
    pending: "state = 'pending' AND valid_until_ms > $1",
    approved: "state = 'approved' AND valid_until_ms > $1",
    rejected: "state = 'rejected' AND $1::bigint IS NOT NULL",
    expired: "state IN ('pending', 'approved') AND valid_until_ms <= $1",
  };
  const { rows } = await sql.query<BatchRecord>(`SELECT * FROM team_batches WHERE ${state ? where[state] : "$1::bigint IS NOT NULL"} ORDER BY prepared_ms DESC, id LIMIT 200`, [now]);
  return rows.map((r) => batchOf(r, [], now)).map(({ requests: _r, rows: _rows, ...summary }) => summary);
}

export type Decision = { ok: true } | { ok: false; status: 403 | 404 | 409; message: string };

/** Approves or rejects a pending batch, once; never by its preparer; an approval names the hash it saw. */
export async function decideBatch(db: SqlClient, id: string, approver: Person, verdict: "approve" | "reject", said: { comment: string; hash?: string }, now: number): Promise<Decision> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<BatchRecord>("SELECT * FROM team_batches WHERE id = $1 FOR UPDATE", [id]);
    if (rows.length === 0) return { ok: false, status: 404, message: "No such batch." };
    const batch = rows[0];
    if (batch.preparer_id === approver.id) return { ok: false, status: 403, message: "You prepared this batch: another approver must decide it." };
    if (batch.state !== "pending") return { ok: false, status: 409, message: `This batch is already ${batch.state}.` };
    if (now >= num(batch.valid_until_ms)) return { ok: false, status: 409, message: "This batch has expired: the preparer must prepare it again." };
    if (verdict === "approve" && said.hash !== batch.hash) return { ok: false, status: 409, message: "The batch is not the one you reviewed (its hash differs): open it again." };
    const state = verdict === "approve" ? "approved" : "rejected";
    await tx.query("UPDATE team_batches SET state = $2, approver_id = $3, approver_name = $4, decided_ms = $5, comment = $6 WHERE id = $1", [id, state, approver.id, approver.name, now, said.comment]);
    await appendAudit(tx, { at: new Date(now).toISOString(), actor: actorOf(approver), action: verdict, batchId: id, detail: JSON.stringify({ hash: batch.hash, comment: said.comment }) });
    return { ok: true };
  });
}
