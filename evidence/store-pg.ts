// The evidence store on PostgreSQL (DATABASE_URL). Appends are chained under
// a transaction-scoped advisory lock, so replicas of the Verifier extend one
// chain; queued appends share one transaction (group commit). A trigger makes
// the table append-only: UPDATE, DELETE and TRUNCATE raise.
import type pg from 'pg';
import { appendOnlyDdl, appendUnderLock, migrate, openPool, rowsBySeq } from './pg-chain.ts';
import type { AttestationResult } from './result.ts';
import {
  Batcher,
  checkChainStream,
  DuplicateEvidenceError,
  link,
  type ChainCheck,
  type EvidenceStore,
  type StoredEvidence,
} from './store.ts';
import type { Evidence } from './types.ts';

const TABLE = 'platform_evidence';
const PINS = 'platform_attester_keys';
const LOCK_KEY = 0x706c6576; // "plev"

const MIGRATION = `
CREATE TABLE IF NOT EXISTS ${TABLE} (
  seq bigint PRIMARY KEY,
  evidence_id text NOT NULL UNIQUE,
  agent_id text NOT NULL,
  received_at text NOT NULL,
  evidence text NOT NULL,
  result text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX IF NOT EXISTS ${TABLE}_agent ON ${TABLE} (agent_id, seq DESC);
CREATE TABLE IF NOT EXISTS ${PINS} (
  attester_id text NOT NULL,
  key_id text NOT NULL,
  public_key text NOT NULL,
  pinned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attester_id, key_id)
);
${appendOnlyDdl(TABLE)}
${appendOnlyDdl(PINS)}`;

interface Row {
  seq: string;
  evidence_id: string;
  agent_id: string;
  received_at: string;
  evidence: string;
  result: string;
  prev_hash: string;
  hash: string;
}

const fromRow = (r: Row): StoredEvidence => ({
  seq: Number(r.seq),
  evidence_id: r.evidence_id,
  agent_id: r.agent_id,
  received_at: r.received_at,
  evidence: JSON.parse(r.evidence) as Evidence,
  result: JSON.parse(r.result) as AttestationResult,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

type Item = { evidence: Evidence; result: AttestationResult };

export class PgEvidenceStore implements EvidenceStore {
  readonly kind = 'postgres' as const;
  private readonly batcher = new Batcher<Item, StoredEvidence>((items) => this.writeBatch(items));

  private constructor(private readonly pool: pg.Pool) {}

  static async open(connectionString: string, maxConnections = 4): Promise<PgEvidenceStore> {
    const pool = openPool(connectionString, maxConnections);
    await migrate(pool, LOCK_KEY, MIGRATION);
    return new PgEvidenceStore(pool);
  }

  private writeBatch(items: Item[]): Promise<(StoredEvidence | Error)[]> {
    return appendUnderLock(this.pool, LOCK_KEY, TABLE, async (client, head) => {
      const ids = items.map((i) => i.evidence.evidence_id);
      const known = await client.query<{ evidence_id: string }>(
        `SELECT evidence_id FROM ${TABLE} WHERE evidence_id = ANY($1)`,
        [ids],
      );
      const taken = new Set(known.rows.map((r) => r.evidence_id));
      let prev = head;
      const out: (StoredEvidence | Error)[] = [];
      for (const { evidence, result } of items) {
        if (taken.has(evidence.evidence_id)) {
          out.push(new DuplicateEvidenceError(evidence.evidence_id));
          continue;
        }
        const e = link(prev, evidence, result);
        taken.add(e.evidence_id);
        await client.query(
          `INSERT INTO ${TABLE} (seq, evidence_id, agent_id, received_at, evidence, result, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
          [
            e.seq,
            e.evidence_id,
            e.agent_id,
            e.received_at,
            JSON.stringify(e.evidence),
            JSON.stringify(e.result),
            e.prev_hash,
            e.hash,
          ],
        );
        out.push(e);
        prev = e;
      }
      return out;
    });
  }

  append(evidence: Evidence, result: AttestationResult): Promise<StoredEvidence> {
    return this.batcher.push({ evidence, result });
  }

  async get(evidenceId: string): Promise<StoredEvidence | undefined> {
    const r = await this.pool.query<Row>(`SELECT * FROM ${TABLE} WHERE evidence_id = $1`, [evidenceId]);
    return r.rows[0] ? fromRow(r.rows[0]) : undefined;
  }

  async listByAgent(
    agentId: string,
    options: { limit?: number; beforeSeq?: number } = {},
  ): Promise<StoredEvidence[]> {
    const r = await this.pool.query<Row>(
      `SELECT * FROM ${TABLE} WHERE agent_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
      [agentId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER, options.limit ?? 50],
    );
    return r.rows.map(fromRow);
  }

  async pinAttesterKey(attesterId: string, keyId: string, publicKey: string): Promise<string> {
    // ON CONFLICT DO NOTHING + read back: concurrent replicas agree on one first key.
    await this.pool.query(
      `INSERT INTO ${PINS} (attester_id, key_id, public_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [attesterId, keyId, publicKey],
    );
    const r = await this.pool.query<{ public_key: string }>(
      `SELECT public_key FROM ${PINS} WHERE attester_id = $1 AND key_id = $2`,
      [attesterId, keyId],
    );
    return r.rows[0]!.public_key;
  }

  async verifyChain(): Promise<ChainCheck> {
    // Paged: the store may be far larger than this process's memory.
    return checkChainStream(mapRows(rowsBySeq<Row>(this.pool, TABLE)));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function* mapRows(rows: AsyncIterable<Row>): AsyncGenerator<StoredEvidence> {
  for await (const row of rows) yield fromRow(row);
}
