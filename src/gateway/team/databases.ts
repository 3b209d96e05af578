/**
 * Opens team mode's database (Node only): PGlite embedded, in a folder (or in memory), the default for one
 * gateway; or a PostgreSQL server through `pg` when several gateways share it. Both speak the same SQL, so
 * everything above sees one SqlClient.
 */
import { PGlite } from "@electric-sql/pglite";
import { Pool, types } from "pg";
import type { Sql, SqlClient } from "./sql";

/** PGlite in `dataDir` (created if missing), or in memory when none is given. */
export async function openPglite(dataDir?: string): Promise<SqlClient> {
  const db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  const wrap = (q: Pick<PGlite, "query">): Sql => ({ query: async <T>(text: string, params?: unknown[]) => ({ rows: (await q.query<T>(text, params)).rows }) });
  return {
    ...wrap(db),
    // (PGlite runs one query at a time: its transactions follow one another.)
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    close: () => db.close(),
  };
}

/** A pool of connections to a PostgreSQL server (`postgres://user@host:port/db`). */
export async function openPostgres(connectionString: string): Promise<SqlClient> {
  // bigint columns (milliseconds, sequence numbers) as numbers, not text: all of them fit a double.
  types.setTypeParser(types.builtins.INT8, (value) => Number(value));
  const pool = new Pool({ connectionString, max: 10 });
  // An idle connection's error (the server restarted) must not end the gateway; the next query reconnects.
  pool.on("error", () => undefined);
  await pool.query("SELECT 1");
  return {
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await pool.query(text, params)).rows as T[] }),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({ query: async <T>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as T[] }) });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
