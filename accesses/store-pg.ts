// The data-access log on PostgreSQL (DATABASE_URL): the evidence store's
// pattern (base/hash-chain/pg.ts). Appends are chained under a
// transaction-scoped advisory lock, so replicas extend one chain; queued
// batches share one transaction; a trigger makes the table append-only.
import type pg from 'pg';
import { Batcher } from '../base/hash-chain/batcher.ts';
import type { ChainCheck } from '../base/hash-chain/chain.ts';
import { appendOnlyDdl, appendUnderLock, migrate, openPool, rowsBySeq } from '../base/hash-chain/pg.ts';
import type { AccessWire } from './record.ts';
import {
  checkAccessChainStream,
  DEFAULT_PAGE,
  linkBatch,
  type AccessPage,
  type AccessStore,
  type StoredAccess,
} from './store.ts';

const TABLE = 'platform_data_accesses';
const LOCK_KEY = 0x706c6461; // "plda"

const MIGRATION = `
CREATE TABLE IF NOT EXISTS ${TABLE} (
  seq bigint PRIMARY KEY,
  agent_id text NOT NULL,
  agent_uid text NOT NULL,
  received_at text NOT NULL,
  access text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX IF NOT EXISTS ${TABLE}_agent ON ${TABLE} (agent_id, agent_uid, seq DESC);
${appendOnlyDdl(TABLE)}`;

interface Row {
  seq: string;
  agent_id: string;
  agent_uid: string;
  received_at: string;
  access: string;
  prev_hash: string;
  hash: string;
}

const fromRow = (r: Row): StoredAccess => ({
  seq: Number(r.seq),
  agent_id: r.agent_id,
  agent_uid: r.agent_uid,
  received_at: r.received_at,
  access: JSON.parse(r.access) as AccessWire,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

type Batch = { agentId: string; agentUid: string; records: readonly AccessWire[] };

export class PgAccessStore implements AccessStore {
  readonly kind = 'postgres' as const;
  private readonly batcher = new Batcher<Batch, StoredAccess[]>((batches) => this.writeBatches(batches));

  private constructor(private readonly pool: pg.Pool) {}

  static async open(connectionString: string, maxConnections = 4): Promise<PgAccessStore> {
    const pool = openPool(connectionString, maxConnections);
    await migrate(pool, LOCK_KEY, MIGRATION);
    return new PgAccessStore(pool);
  }

  private writeBatches(batches: Batch[]): Promise<StoredAccess[][]> {
    return appendUnderLock(this.pool, LOCK_KEY, TABLE, async (client, head) => {
      let prev = head;
      const out: StoredAccess[][] = [];
      for (const { agentId, agentUid, records } of batches) {
        const entries = linkBatch(prev, agentId, agentUid, records);
        for (const e of entries) {
          await client.query(
            `INSERT INTO ${TABLE} (seq, agent_id, agent_uid, received_at, access, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
            [e.seq, e.agent_id, e.agent_uid, e.received_at, JSON.stringify(e.access), e.prev_hash, e.hash],
          );
        }
        prev = entries.at(-1) ?? prev;
        out.push(entries);
      }
      return out;
    });
  }

  append(agentId: string, agentUid: string, records: readonly AccessWire[]): Promise<StoredAccess[]> {
    return this.batcher.push({ agentId, agentUid, records });
  }

  async listByAgent(agentId: string, agentUid: string, page: AccessPage = {}): Promise<StoredAccess[]> {
    const r = await this.pool.query<Row>(
      `SELECT * FROM ${TABLE} WHERE agent_id = $1 AND agent_uid = $2 AND seq < $3 ORDER BY seq DESC LIMIT $4`,
      [agentId, agentUid, page.beforeSeq ?? Number.MAX_SAFE_INTEGER, page.limit ?? DEFAULT_PAGE],
    );
    return r.rows.map(fromRow);
  }

  async countByAgent(agentId: string, agentUid: string): Promise<number> {
    const r = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${TABLE} WHERE agent_id = $1 AND agent_uid = $2`,
      [agentId, agentUid],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  verifyChain(): Promise<ChainCheck> {
    return checkAccessChainStream(mapRows(rowsBySeq<Row>(this.pool, TABLE)));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function* mapRows(rows: AsyncIterable<Row>): AsyncGenerator<StoredAccess> {
  for await (const row of rows) yield fromRow(row);
}
