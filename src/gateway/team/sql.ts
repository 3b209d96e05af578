/**
 * What team mode needs of PostgreSQL, whichever runs it: PGlite embedded (the default) or a server through
 * `pg` (databases.ts opens either). The schema is created once, under an advisory lock, so two gateways
 * starting at once against one server do not race. The audit table refuses UPDATE and DELETE by trigger:
 * append-only for everyone but an owner who drops the trigger, and what such an owner changes the hash chain
 * shows (audit.ts).
 */

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface SqlClient extends Sql {
  /** Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK when it throws) on one connection. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Advisory lock keys: one for the schema, one serializing the audit chain's appends. */
const SCHEMA_LOCK = 4_800_001;
export const AUDIT_LOCK = 4_800_002;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS team_batches (
    id text PRIMARY KEY, preparer_id text NOT NULL, preparer_name text NOT NULL,
    prepared_ms bigint NOT NULL, valid_until_ms bigint NOT NULL, content text NOT NULL, hash text NOT NULL,
    state text NOT NULL, approver_id text, approver_name text, decided_ms bigint, comment text)`,
  `CREATE TABLE IF NOT EXISTS team_requests (
    batch_id text NOT NULL REFERENCES team_batches(id), seq int NOT NULL, method text NOT NULL, path text NOT NULL,
    body text NOT NULL, state text NOT NULL DEFAULT 'ready', sent_ms bigint, sent_by text,
    answer_status int, answer_type text, answer_body text, answered_ms bigint,
    PRIMARY KEY (batch_id, seq), UNIQUE (batch_id, method, path))`,
  `CREATE TABLE IF NOT EXISTS team_audit (
    seq bigint PRIMARY KEY, at text NOT NULL, actor text NOT NULL, action text NOT NULL, batch_id text,
    detail text NOT NULL, prev_hash text NOT NULL, hash text NOT NULL)`,
  `CREATE OR REPLACE FUNCTION team_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'team_audit is append-only'; END $$`,
  `CREATE OR REPLACE TRIGGER team_audit_append_only BEFORE UPDATE OR DELETE ON team_audit
    FOR EACH ROW EXECUTE FUNCTION team_audit_append_only()`,
];

/** Creates the tables if they are missing (idempotent; safe from several gateways at once). */
export async function ensureSchema(client: SqlClient): Promise<void> {
  await client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    for (const statement of SCHEMA) await tx.query(statement);
  });
}

/** A bigint column as a number (pg gives bigint as text; milliseconds and sequence numbers fit a double). */
export function num(value: unknown): number {
  return value === null || value === undefined ? NaN : Number(value);
}
