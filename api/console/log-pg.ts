// The console event log on PostgreSQL (DATABASE_URL): one table shared by
// every API replica, so a client may resume at any of them. Appends run under
// a transaction-scoped advisory lock, so seqs become visible in order (a tail
// reading `seq > n` never skips a row committed late) and a key two replicas
// append together is stored once (UNIQUE on its digest). The appending
// transaction NOTIFYs one channel; each replica LISTENs on a dedicated client.
// Pruning keeps the newest `perAgent` events of each agent younger than
// `maxAgeMs`, and records per agent the largest seq it removed (`missed`).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { migrate, openPool } from '../../base/hash-chain/pg.ts';
import { createLogger, type Logger } from '../../base/log.ts';
import type { AgentEvents, ConsoleEvent, ConsoleEventInput, ConsoleLog } from '../../contract/console.ts';
import { PgListener } from './pg-listen.ts';

const TABLE = 'platform_console_events';
const PRUNED = 'platform_console_pruned';
const CHANNEL = 'platform_console';
const LOCK_KEY = 0x706c636f; // "plco"

const MIGRATION = `
CREATE TABLE IF NOT EXISTS ${TABLE} (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_key bytea NOT NULL UNIQUE,
  agent_id text NOT NULL,
  event json NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS ${TABLE}_agent ON ${TABLE} (agent_id, seq);
CREATE INDEX IF NOT EXISTS ${TABLE}_stored ON ${TABLE} (stored_at);
CREATE TABLE IF NOT EXISTS ${PRUNED} (
  agent_id text PRIMARY KEY,
  pruned_up_to bigint NOT NULL
);`;

// Rows go in input order (ORDINALITY), so seqs follow it; a repeated key,
// stored before or earlier in the same batch, is skipped.
const INSERT = `
WITH stored AS (
  INSERT INTO ${TABLE} (event_key, agent_id, event)
  SELECT decode(k, 'hex'), a, e FROM unnest($1::text[], $2::text[], $3::json[]) WITH ORDINALITY AS t(k, a, e, ord)
  ORDER BY ord
  ON CONFLICT (event_key) DO NOTHING
  RETURNING seq, event_key
)
SELECT seq, encode(event_key, 'hex') AS digest FROM stored ORDER BY seq`;

// Removes what is too old or beyond the newest $1 of its agent ($3: the
// agents to look at, null for all) and raises each agent's high-water mark,
// in one statement so a reader never sees the rows gone but the mark not.
const PRUNE = `
WITH agents AS (
  SELECT agent_id FROM unnest($3::text[]) AS agent_id WHERE $3 IS NOT NULL
  UNION SELECT DISTINCT agent_id FROM ${TABLE} WHERE $3 IS NULL
), cuts AS (
  SELECT a.agent_id, (SELECT seq FROM ${TABLE} t WHERE t.agent_id = a.agent_id ORDER BY seq DESC OFFSET $1 LIMIT 1) AS cut
  FROM agents a
), doomed AS (
  DELETE FROM ${TABLE} t USING cuts c
  WHERE t.agent_id = c.agent_id
    AND (t.seq <= c.cut OR t.stored_at < now() - make_interval(secs => $2::double precision / 1000))
  RETURNING t.agent_id, t.seq
)
INSERT INTO ${PRUNED} (agent_id, pruned_up_to)
SELECT agent_id, max(seq) FROM doomed GROUP BY agent_id
ON CONFLICT (agent_id) DO UPDATE SET pruned_up_to = GREATEST(${PRUNED}.pruned_up_to, EXCLUDED.pruned_up_to)`;

// One statement, one snapshot: the events and the mark agree.
const READ_AGENT = `
WITH mark AS (SELECT coalesce(max(pruned_up_to), 0) AS up FROM ${PRUNED} WHERE agent_id = $1)
SELECT mark.up, e.seq, e.event FROM mark
LEFT JOIN LATERAL (
  SELECT seq, event FROM ${TABLE} WHERE agent_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
) e ON true
ORDER BY e.seq`;

// Pruned seqs count: the head never goes back when old events are removed.
const HEAD = `SELECT GREATEST(
  (SELECT coalesce(max(seq), 0) FROM ${TABLE}),
  (SELECT coalesce(max(pruned_up_to), 0) FROM ${PRUNED})) AS head`;

export interface PgConsoleLogOptions {
  /** Newest events kept per agent (default 1000). */
  perAgent?: number;
  /** Events stored longer ago than this are pruned (default 24 h). */
  maxAgeMs?: number;
  /** How often every agent is pruned (default 60 s). */
  pruneEveryMs?: number;
  /** The agents appended to are pruned after this many stored events (default 500). */
  pruneEveryAppends?: number;
  maxConnections?: number;
  log?: Logger;
}

type EventBody = Omit<ConsoleEventInput, 'key'>;
interface EventRow {
  seq: string;
  event: EventBody;
}

const toEvent = (seq: string, body: EventBody): ConsoleEvent => ({ id: String(Number(seq)), ...body });
const digestOf = (key: string): string => createHash('sha256').update(key).digest('hex');

export class PgConsoleLog implements ConsoleLog {
  readonly kind = 'postgres' as const;
  private readonly listeners = new Set<() => void>();
  private listen: PgListener | undefined;
  private readonly timer: NodeJS.Timeout;
  /** Agents appended to since their last prune, and how many events that was. */
  private readonly touched = new Set<string>();
  private sincePrune = 0;
  private pruning: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly perAgent: number;
  private readonly maxAgeMs: number;
  private readonly pruneEveryAppends: number;
  private readonly log: Logger;

  private constructor(
    private readonly pool: pg.Pool,
    o: PgConsoleLogOptions,
  ) {
    this.perAgent = o.perAgent ?? 1000;
    this.maxAgeMs = o.maxAgeMs ?? 24 * 3_600_000;
    this.pruneEveryAppends = o.pruneEveryAppends ?? 500;
    this.log = o.log ?? createLogger('console-log');
    this.timer = setInterval(() => void this.pruneInBackground(null), o.pruneEveryMs ?? 60_000);
    this.timer.unref();
  }

  static async open(url: string, o: PgConsoleLogOptions = {}): Promise<PgConsoleLog> {
    const pool = openPool(url, o.maxConnections ?? 4);
    try {
      await migrate(pool, LOCK_KEY, MIGRATION);
      const log = new PgConsoleLog(pool, o);
      log.listen = await PgListener.start({
        url,
        channel: CHANNEL,
        log: log.log,
        onNotify: () => log.notify(),
      });
      return log;
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  }

  async append(inputs: readonly ConsoleEventInput[]): Promise<ConsoleEvent[]> {
    if (inputs.length === 0) return [];
    const byDigest = new Map<string, EventBody>();
    for (const { key, ...body } of inputs) {
      const digest = digestOf(key);
      if (!byDigest.has(digest)) byDigest.set(digest, body);
    }
    const rows = await this.insert(byDigest);
    const stored = rows.map((r) => toEvent(r.seq, byDigest.get(r.digest) as EventBody));
    if (stored.length > 0) {
      this.afterStored(stored);
      this.notify();
    }
    return stored;
  }

  async readAfter(after: number, limit: number): Promise<ConsoleEvent[]> {
    const r = await this.pool.query<EventRow>(
      `SELECT seq, event FROM ${TABLE} WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [after, limit],
    );
    return r.rows.map((row) => toEvent(row.seq, row.event));
  }

  async readAgent(agentId: string, after: number, limit: number): Promise<AgentEvents> {
    const r = await this.pool.query<{ up: string; seq: string | null; event: EventBody | null }>(READ_AGENT, [
      agentId,
      after,
      limit,
    ]);
    const events = r.rows.flatMap((row) => (row.seq !== null ? [toEvent(row.seq, row.event!)] : []));
    return { events, missed: Number(r.rows[0]?.up ?? 0) > after };
  }

  async head(): Promise<number> {
    const r = await this.pool.query<{ head: string }>(HEAD);
    return Number(r.rows[0]?.head ?? 0);
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Prunes now: every agent, or only those given. Runs on a timer and after appends. */
  async prune(agents: readonly string[] | null = null): Promise<void> {
    await this.pool.query(PRUNE, [this.perAgent, this.maxAgeMs, agents]);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer);
    this.listeners.clear();
    await this.pruning;
    await this.listen?.close();
    await this.pool.end();
  }

  private async insert(byDigest: Map<string, EventBody>): Promise<{ seq: string; digest: string }[]> {
    const digests = [...byDigest.keys()];
    const bodies = [...byDigest.values()];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const r = await client.query<{ seq: string; digest: string }>(INSERT, [
        digests,
        bodies.map((b) => b.agent_id),
        bodies.map((b) => JSON.stringify(b)),
      ]);
      if (r.rows.length > 0) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, r.rows.at(-1)!.seq]);
      await client.query('COMMIT');
      return r.rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private afterStored(stored: readonly ConsoleEvent[]): void {
    for (const e of stored) this.touched.add(e.agent_id);
    this.sincePrune += stored.length;
    // While a prune runs, the agents wait for the next one rather than be forgotten.
    if (this.sincePrune < this.pruneEveryAppends || this.pruning) return;
    const agents = [...this.touched];
    this.touched.clear();
    this.sincePrune = 0;
    void this.pruneInBackground(agents);
  }

  /** One prune at a time per replica; a failure is logged and the next one tries again. */
  private async pruneInBackground(agents: string[] | null): Promise<void> {
    if (this.pruning || this.closing) return;
    this.pruning = this.prune(agents)
      .catch((err: unknown) => this.log.warn({ err }, 'console log: pruning failed'))
      .finally(() => (this.pruning = undefined));
    await this.pruning;
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error({ err }, 'console log: an append listener threw');
      }
    }
  }
}
