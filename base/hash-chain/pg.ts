// Shared plumbing for the append-only, hash-chained tables on PostgreSQL (the
// evidence store and the API audit log): the append-only triggers, a migration
// serialised across replicas, the chain head read under a transaction-scoped
// advisory lock (so every replica extends one chain), and a keyset-paged walk
// of a table in sequence order.
import pg from 'pg';
import type { ChainHead } from './chain.ts';

/** A pool whose broken idle connections are dropped instead of crashing the process. */
export function openPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its connection emits 'error' on the pool; the
  // pool discards it and the next query reports the failure to its caller.
  pool.on('error', () => undefined);
  return pool;
}

/** Trigger DDL making `table` append-only: UPDATE, DELETE and TRUNCATE raise. */
export function appendOnlyDdl(table: string): string {
  return `
CREATE OR REPLACE FUNCTION ${table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '${table} is append-only'; END $$;
CREATE OR REPLACE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION ${table}_append_only();
CREATE OR REPLACE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION ${table}_append_only();
`;
}

/** Runs `sql` under a session advisory lock, so replicas starting together migrate one at a time. */
export async function migrate(pool: pg.Pool, lockKey: number, sql: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    await client.query(sql);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    client.release();
  }
}

/**
 * One transaction holding the chain's advisory lock: `write` gets the current
 * head (undefined for an empty table) and inserts after it. The lock is held
 * until COMMIT, so no other replica reads the head in between.
 */
export async function appendUnderLock<R>(
  pool: pg.Pool,
  lockKey: number,
  table: string,
  write: (client: pg.PoolClient, head: ChainHead | undefined) => Promise<R>,
): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
    const last = await client.query<{ seq: string; hash: string }>(
      `SELECT seq, hash FROM ${table} ORDER BY seq DESC LIMIT 1`,
    );
    const row = last.rows[0];
    const result = await write(client, row ? { seq: Number(row.seq), hash: row.hash } : undefined);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Every row of `table` in ascending `seq`, read `pageSize` rows at a time. */
export async function* rowsBySeq<Row extends { seq: string }>(
  pool: pg.Pool,
  table: string,
  pageSize = 1000,
): AsyncGenerator<Row> {
  let after = 0;
  for (;;) {
    const page = await pool.query<Row>(`SELECT * FROM ${table} WHERE seq > $1 ORDER BY seq LIMIT $2`, [
      after,
      pageSize,
    ]);
    for (const row of page.rows) yield row;
    if (page.rows.length < pageSize) return;
    after = Number(page.rows.at(-1)!.seq);
  }
}
