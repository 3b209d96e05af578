/**
 * The audit log: one row per sign-in, batch, approval, rejection, forwarded PATCH and answer, each row's hash
 * covering its own fields and the previous row's hash. Appends are serialized by an advisory lock held to
 * the end of the appending transaction, so two gateways sharing a server extend one chain. The check walks
 * the chain: a row edited (its hash no longer matches), removed (a gap in the sequence, or the next row's
 * previous hash no longer found) or inserted is found and named by its sequence number.
 */
import { sha256Hex } from "./hash";
import { AUDIT_LOCK, num, type Sql } from "./sql";

const GENESIS_HASH = "0".repeat(64);

export interface AuditEntry {
  /** ISO time. */
  at: string;
  /** Who: a person's id and name (`oid name`), or `gateway`. */
  actor: string;
  action: "sign-in" | "prepare" | "approve" | "reject" | "forward" | "answer" | "replay" | "resolve";
  batchId: string | null;
  /** JSON text: what the action carried (a request, an answer, a comment). */
  detail: string;
}

export interface AuditRow extends AuditEntry {
  seq: number;
  prevHash: string;
  hash: string;
}

function rowHash(seq: number, entry: AuditEntry, prevHash: string): Promise<string> {
  return sha256Hex(JSON.stringify([seq, entry.at, entry.actor, entry.action, entry.batchId, entry.detail, prevHash]));
}

/** Appends one row inside the caller's transaction. */
export async function appendAudit(tx: Sql, entry: AuditEntry): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [AUDIT_LOCK]);
  const { rows } = await tx.query<{ seq: unknown; hash: string }>("SELECT seq, hash FROM team_audit ORDER BY seq DESC LIMIT 1");
  const seq = rows.length === 0 ? 1 : num(rows[0].seq) + 1;
  const prevHash = rows.length === 0 ? GENESIS_HASH : rows[0].hash;
  await tx.query(
    "INSERT INTO team_audit (seq, at, actor, action, batch_id, detail, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    [seq, entry.at, entry.actor, entry.action, entry.batchId, entry.detail, prevHash, await rowHash(seq, entry, prevHash)],
  );
}

interface RawAuditRow { seq: unknown; at: string; actor: string; action: AuditEntry["action"]; batch_id: string | null; detail: string; prev_hash: string; hash: string }

function rowOf(raw: RawAuditRow): AuditRow {
  return { seq: num(raw.seq), at: raw.at, actor: raw.actor, action: raw.action, batchId: raw.batch_id, detail: raw.detail, prevHash: raw.prev_hash, hash: raw.hash };
}

/** A batch's rows, in order. */
export async function auditOfBatch(sql: Sql, batchId: string): Promise<AuditRow[]> {
  const { rows } = await sql.query<RawAuditRow>("SELECT * FROM team_audit WHERE batch_id = $1 ORDER BY seq", [batchId]);
  return rows.map(rowOf);
}

export interface ChainCheck {
  rows: number;
  /** The last row's sequence number and hash: keep it, and a later check can tell a truncated tail. */
  head: { seq: number; hash: string } | null;
  /** One sentence per broken link, naming the row. */
  problems: string[];
}

/** Walks the whole chain (the check command). */
export async function checkAuditChain(sql: Sql): Promise<ChainCheck> {
  const { rows } = await sql.query<RawAuditRow>("SELECT * FROM team_audit ORDER BY seq");
  const problems: string[] = [];
  let prev = { seq: 0, hash: GENESIS_HASH };
  for (const row of rows.map(rowOf)) {
    if (row.seq !== prev.seq + 1) problems.push(`Row ${row.seq} follows row ${prev.seq}: ${row.seq - prev.seq - 1} row(s) missing.`);
    if (row.prevHash !== prev.hash) problems.push(`Row ${row.seq} does not chain to the row before it (removed, inserted or edited rows).`);
    if ((await rowHash(row.seq, row, row.prevHash)) !== row.hash) problems.push(`Row ${row.seq} was edited: its hash does not match its fields.`);
    prev = { seq: row.seq, hash: row.hash };
  }
  return { rows: rows.length, head: rows.length === 0 ? null : prev, problems };
}
