// The evidence store on PostgreSQL (DATABASE_URL). Appends are chained under
// a transaction-scoped advisory lock, so replicas of the Verifier extend one
// chain; queued appends share one transaction (group commit). A trigger makes
// the table append-only: UPDATE, DELETE and TRUNCATE raise. Attester key
// pins are append-only events too (`platform_attester_pins`).
import type pg from 'pg';
import { Batcher } from '../base/hash-chain/batcher.ts';
import { appendOnlyDdl, appendUnderLock, migrate, openPool, rowsBySeq } from '../base/hash-chain/pg.ts';
import type { PinEvent } from './pins.ts';
import type { AttestationResult } from './result.ts';
import {
  checkChainStream,
  DuplicateEvidenceError,
  link,
  type ChainCheck,
  type EvidenceStore,
  type StoredEvidence,
} from './store.ts';
import type { Evidence } from './types.ts';

const TABLE = 'platform_evidence';
/** Pins before they had owners: read once into PIN_EVENTS (owner unknown), never written again. */
const LEGACY_PINS = 'platform_attester_keys';
const PIN_EVENTS = 'platform_attester_pins';
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
ALTER TABLE ${TABLE} ADD COLUMN IF NOT EXISTS agent_uid text;
CREATE INDEX IF NOT EXISTS ${TABLE}_agent_uid ON ${TABLE} (agent_id, agent_uid, seq DESC);
CREATE TABLE IF NOT EXISTS ${LEGACY_PINS} (
  attester_id text NOT NULL,
  key_id text NOT NULL,
  public_key text NOT NULL,
  pinned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attester_id, key_id)
);
CREATE TABLE IF NOT EXISTS ${PIN_EVENTS} (
  seq bigserial PRIMARY KEY,
  attester_id text NOT NULL,
  key_id text NOT NULL,
  public_key text,
  owner text,
  at text NOT NULL
);
CREATE INDEX IF NOT EXISTS ${PIN_EVENTS}_attester ON ${PIN_EVENTS} (attester_id, seq);
INSERT INTO ${PIN_EVENTS} (attester_id, key_id, public_key, owner, at)
  SELECT attester_id, key_id, public_key, NULL, pinned_at::text FROM ${LEGACY_PINS}
  WHERE NOT EXISTS (SELECT 1 FROM ${PIN_EVENTS}) ORDER BY pinned_at;
${appendOnlyDdl(TABLE)}
${appendOnlyDdl(LEGACY_PINS)}
${appendOnlyDdl(PIN_EVENTS)}`;

interface Row {
  seq: string;
  evidence_id: string;
  agent_id: string;
  agent_uid: string | null;
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
  // Entries stored before Evidence was bound to a uid have none (and their hash covers none).
  ...(r.agent_uid === null ? {} : { agent_uid: r.agent_uid }),
  received_at: r.received_at,
  evidence: JSON.parse(r.evidence) as Evidence,
  result: JSON.parse(r.result) as AttestationResult,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

type Item = { evidence: Evidence; result: AttestationResult; agentUid: string };

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
      for (const { evidence, result, agentUid } of items) {
        if (taken.has(evidence.evidence_id)) {
          out.push(new DuplicateEvidenceError(evidence.evidence_id));
          continue;
        }
        const e = link(prev, evidence, result, agentUid);
        taken.add(e.evidence_id);
        await client.query(
          `INSERT INTO ${TABLE} (seq, evidence_id, agent_id, agent_uid, received_at, evidence, result, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
          [
            e.seq,
            e.evidence_id,
            e.agent_id,
            agentUid,
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

  append(evidence: Evidence, result: AttestationResult, agentUid: string): Promise<StoredEvidence> {
    return this.batcher.push({ evidence, result, agentUid });
  }

  async get(evidenceId: string): Promise<StoredEvidence | undefined> {
    const r = await this.pool.query<Row>(`SELECT * FROM ${TABLE} WHERE evidence_id = $1`, [evidenceId]);
    return r.rows[0] ? fromRow(r.rows[0]) : undefined;
  }

  async listByAgent(
    agentId: string,
    agentUid: string,
    options: { limit?: number; beforeSeq?: number } = {},
  ): Promise<StoredEvidence[]> {
    const r = await this.pool.query<Row>(
      `SELECT * FROM ${TABLE} WHERE agent_id = $1 AND agent_uid = $2 AND seq < $3 ORDER BY seq DESC LIMIT $4`,
      [agentId, agentUid, options.beforeSeq ?? Number.MAX_SAFE_INTEGER, options.limit ?? 50],
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

  async attesterPins(attesterId: string): Promise<PinEvent[]> {
    const r = await this.pool.query<PinEvent>(
      `SELECT attester_id, key_id, public_key, owner, at FROM ${PIN_EVENTS} WHERE attester_id = $1 ORDER BY seq`,
      [attesterId],
    );
    return r.rows;
  }

  async appendPinEvent(event: PinEvent, expectedVersion: number): Promise<boolean> {
    // One transaction per attester under an advisory lock: count, then insert only if nobody came first.
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_KEY, event.attester_id]);
      const n = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${PIN_EVENTS} WHERE attester_id = $1`,
        [event.attester_id],
      );
      if (Number(n.rows[0]!.n) !== expectedVersion) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query(
        `INSERT INTO ${PIN_EVENTS} (attester_id, key_id, public_key, owner, at) VALUES ($1, $2, $3, $4, $5)`,
        [event.attester_id, event.key_id, event.public_key, event.owner, event.at],
      );
      await client.query('COMMIT');
      return true;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
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
