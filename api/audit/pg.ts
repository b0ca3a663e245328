// The audit log on PostgreSQL (DATABASE_URL): one table shared by every API
// replica. Appends take a transaction-scoped advisory lock, read the chain
// head and insert after it, so concurrent replicas extend one chain with no
// gaps; appends queued in one replica share a transaction (group commit).
// Triggers make the table append-only. Entries hash exactly as the embedded
// log's do (`entryHash` over canonical JSON), so either log verifies the other.
import type pg from 'pg';
import { appendOnlyDdl, appendUnderLock, migrate, openPool, rowsBySeq } from '../../base/hash-chain/pg.ts';
import { Batcher } from '../../base/hash-chain/batcher.ts';
import { GENESIS_HASH } from '../../base/hash-chain/chain.ts';
import { auditChainWalker, entryHash, normalizeInput } from './chain.ts';
import type { AuditEntry, AuditFilter, AuditInput, AuditLog, ChainVerification } from './log.ts';

const TABLE = 'platform_api_audit';
const LOCK_KEY = 0x706c6175; // "plau"

const MIGRATION = `
CREATE TABLE IF NOT EXISTS ${TABLE} (
  seq bigint PRIMARY KEY,
  logged_at timestamptz NOT NULL,
  subject text NOT NULL,
  method text NOT NULL,
  action text NOT NULL,
  resource text NOT NULL,
  namespace text,
  status integer NOT NULL,
  outcome text NOT NULL,
  request_id text NOT NULL,
  details text,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX IF NOT EXISTS ${TABLE}_subject ON ${TABLE} (subject, seq DESC);
CREATE INDEX IF NOT EXISTS ${TABLE}_resource ON ${TABLE} (resource, seq DESC);
CREATE INDEX IF NOT EXISTS ${TABLE}_namespace ON ${TABLE} (namespace, seq DESC);
${appendOnlyDdl(TABLE)}`;

interface Row {
  seq: string;
  logged_at: Date;
  subject: string;
  method: string;
  action: string;
  resource: string;
  namespace: string | null;
  status: number;
  outcome: AuditInput['outcome'];
  request_id: string;
  details: string | null;
  prev_hash: string;
  hash: string;
}

/** Stored details that are not JSON any more (a tampered row) still reach `verify`, which reports them. */
function parseDetails(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparseable: text };
  }
}

function fromRow(r: Row): AuditEntry {
  return {
    subject: r.subject,
    method: r.method,
    action: r.action,
    resource: r.resource,
    ...(r.namespace !== null ? { namespace: r.namespace } : {}),
    status: r.status,
    outcome: r.outcome,
    requestId: r.request_id,
    ...(r.details !== null ? { details: parseDetails(r.details) } : {}),
    seq: Number(r.seq),
    time: r.logged_at.toISOString(),
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

const COLUMNS = [
  'seq',
  'logged_at',
  'subject',
  'method',
  'action',
  'resource',
  'namespace',
  'status',
  'outcome',
  'request_id',
  'details',
  'prev_hash',
  'hash',
] as const;

const INSERT = `INSERT INTO ${TABLE} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

function rowValues(e: AuditEntry): unknown[] {
  return [
    e.seq,
    e.time,
    e.subject,
    e.method,
    e.action,
    e.resource,
    e.namespace ?? null,
    e.status,
    e.outcome,
    e.requestId,
    e.details !== undefined ? JSON.stringify(e.details) : null,
    e.prevHash,
    e.hash,
  ];
}

const FIELD_COLUMNS = [
  ['subject', 'subject'],
  ['action', 'action'],
  ['resource', 'resource'],
  ['namespace', 'namespace'],
  ['outcome', 'outcome'],
] as const;

/** The WHERE clause and parameters of a filter; time bounds compare exact epoch milliseconds. */
export function whereOf(f: AuditFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (p: string) => string, value: unknown): void => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  for (const [key, column] of FIELD_COLUMNS) {
    if (f[key] !== undefined) add((p) => `${column} = ${p}`, f[key]);
  }
  if (f.namespaces !== undefined) add((p) => `namespace = ANY(${p}::text[])`, [...f.namespaces]);
  const epochMs = 'extract(epoch FROM logged_at) * 1000';
  if (f.sinceMs !== undefined) add((p) => `${epochMs} >= ${p}::numeric`, String(f.sinceMs));
  if (f.untilMs !== undefined) add((p) => `${epochMs} <= ${p}::numeric`, String(f.untilMs));
  if (f.beforeSeq !== undefined) add((p) => `seq < ${p}`, f.beforeSeq);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export interface PgAuditLogOptions {
  maxConnections?: number;
  now?: () => number;
}

export class PgAuditLog implements AuditLog {
  private readonly batcher = new Batcher<AuditInput, AuditEntry>((inputs) => this.writeBatch(inputs));

  private constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  /** Connects and creates the table and its triggers if missing (serialised across replicas). */
  static async open(connectionString: string, o: PgAuditLogOptions = {}): Promise<PgAuditLog> {
    const pool = openPool(connectionString, o.maxConnections ?? 4);
    try {
      await migrate(pool, LOCK_KEY, MIGRATION);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PgAuditLog(pool, o.now ?? Date.now);
  }

  private writeBatch(inputs: AuditInput[]): Promise<AuditEntry[]> {
    return appendUnderLock(this.pool, LOCK_KEY, TABLE, async (client, head) => {
      let prev = head;
      const out: AuditEntry[] = [];
      for (const input of inputs) {
        const body = {
          ...input,
          seq: (prev?.seq ?? 0) + 1,
          time: new Date(this.now()).toISOString(),
          prevHash: prev?.hash ?? GENESIS_HASH,
        };
        const entry: AuditEntry = { ...body, hash: entryHash(body) };
        await client.query(INSERT, rowValues(entry));
        out.push(entry);
        prev = entry;
      }
      return out;
    });
  }

  append(input: AuditInput): Promise<AuditEntry> {
    return this.batcher.push(normalizeInput(input));
  }

  async query(filter: AuditFilter): Promise<AuditEntry[]> {
    const { sql, params } = whereOf(filter);
    const r = await this.pool.query<Row>(
      `SELECT * FROM ${TABLE} ${sql} ORDER BY seq DESC LIMIT $${params.length + 1}`,
      [...params, filter.limit],
    );
    return r.rows.map(fromRow);
  }

  /** Walks the whole chain from seq 1 in pages; reports the first entry that breaks it. */
  async verify(): Promise<ChainVerification> {
    const walker = auditChainWalker();
    let entries = 0;
    for await (const row of rowsBySeq<Row>(this.pool, TABLE)) {
      const entry = fromRow(row);
      const reason = walker.next(entry);
      if (reason) {
        const total = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${TABLE}`);
        return { ok: false, entries: Number(total.rows[0]?.n ?? 0), brokenAt: entry.seq, reason };
      }
      entries++;
    }
    return { ok: true, entries };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
