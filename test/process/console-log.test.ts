// The console event log's contract (contract/console.ts), written once and run
// against the in-memory log and PostgreSQL (a real cluster from the fixture;
// each test gets its own database). Then what only PostgreSQL does: two API
// replicas on one database, a LISTEN that survives its connection being
// killed, the age limit, and the choice by DATABASE_URL.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryConsoleLog } from '../../api/console/log-memory.ts';
import { PgConsoleLog } from '../../api/console/log-pg.ts';
import { openConsoleLog } from '../../api/console/open-log.ts';
import { ConfigError } from '../../base/config.ts';
import { createLogger } from '../../base/log.ts';
import { seqOf, type ConsoleEventInput, type ConsoleLog } from '../../contract/console.ts';
import { until } from './fixtures/gateway.ts';
import { freePort } from './fixtures/loopback.ts';
import { startPostgres, type Postgres } from './fixtures/postgres.ts';

let db: Postgres | undefined;
beforeAll(async () => {
  db = startPostgres(await freePort());
});
afterAll(() => db?.stop());

const quiet = createLogger('console-log-test', { level: 'silent' });
let databases = 0;

/** A fresh database on the fixture's cluster: tests never see each other's events. */
async function freshDatabase(): Promise<string> {
  if (!db) throw new Error('PostgreSQL did not start');
  const name = `console_${++databases}`;
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return db.url.replace(/\/postgres$/, `/${name}`);
}

let n = 0;
function event(agent: string, key = `key-${++n}`): ConsoleEventInput {
  n += 1;
  return {
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    agent_id: agent,
    subagent: n % 2 ? null : 'researcher',
    type: 'tool_call',
    severity: 'info',
    auditor: null,
    auditors: ['pii-filter'],
    payload: { n, z: 'last', a: 'first' },
    key,
  };
}
const withoutKey = ({ key: _key, ...rest }: ConsoleEventInput): Omit<ConsoleEventInput, 'key'> => rest;

interface Subject {
  open(perAgent?: number): Promise<ConsoleLog>;
  /** Brings the bound into force: memory prunes on append, PostgreSQL in the background. */
  prune(log: ConsoleLog): Promise<void>;
}

const SUBJECTS: [string, Subject][] = [
  [
    'memory',
    {
      open: (perAgent) => Promise.resolve(new MemoryConsoleLog(perAgent)),
      prune: () => Promise.resolve(),
    },
  ],
  [
    'postgres',
    {
      open: async (perAgent) => PgConsoleLog.open(await freshDatabase(), { perAgent, log: quiet }),
      prune: (log) => (log as PgConsoleLog).prune(),
    },
  ],
];

describe.each(SUBJECTS)('console log contract: %s', (_name, subject) => {
  it('stores events with growing ids, as given, and reports the head', async () => {
    const log = await subject.open();
    expect(await log.head()).toBe(0);
    const inputs = [event('ns.a'), event('ns.b'), event('ns.a')];
    const stored = await log.append(inputs);
    expect(stored.map(({ id: _id, ...rest }) => rest)).toEqual(inputs.map(withoutKey));
    expect(stored.every((e, i) => i === 0 || seqOf(e) > seqOf(stored[i - 1]!))).toBe(true);
    expect(stored[0]).not.toHaveProperty('key');
    const more = await log.append([event('ns.c')]);
    expect(seqOf(more[0]!)).toBeGreaterThan(seqOf(stored[2]!));
    expect(await log.head()).toBe(seqOf(more[0]!));
    expect(await log.readAfter(0, 10)).toEqual([...stored, ...more]);
    expect(await log.append([])).toEqual([]);
    await log.close();
    await log.close();
  });

  it('stores an event once per key, within a batch, across batches and concurrently', async () => {
    const log = await subject.open();
    const [a, b, c] = [event('ns.a'), event('ns.a'), event('ns.a')];
    await log.append([a, b]);
    const again = await log.append([b, c, { ...c, payload: { other: true } }]);
    expect(again.map((e) => e.payload)).toEqual([c.payload]);
    const d = event('ns.a');
    const both = await Promise.all([log.append([d]), log.append([d])]);
    expect(both.flat()).toHaveLength(1);
    const all = await log.readAfter(0, 100);
    expect(all.map((e) => e.payload)).toEqual([a.payload, b.payload, c.payload, d.payload]);
    await log.close();
  });

  it('reads every agent after a seq, oldest first, at most limit', async () => {
    const log = await subject.open();
    const stored = await log.append([event('ns.a'), event('ns.b'), event('ns.a'), event('ns.c')]);
    expect(await log.readAfter(0, 2)).toEqual(stored.slice(0, 2));
    expect(await log.readAfter(seqOf(stored[1]!), 10)).toEqual(stored.slice(2));
    expect(await log.readAfter(await log.head(), 10)).toEqual([]);
    await log.close();
  });

  it("reads one agent's events only, after a seq, at most limit", async () => {
    const log = await subject.open();
    const stored = await log.append([
      event('ns.a'),
      event('ns.b'),
      event('ns.a'),
      event('ns.b'),
      event('ns.a'),
    ]);
    const ofA = stored.filter((e) => e.agent_id === 'ns.a');
    expect(await log.readAgent('ns.a', 0, 10)).toEqual({ events: ofA, missed: false });
    expect(await log.readAgent('ns.a', 0, 2)).toEqual({ events: ofA.slice(0, 2), missed: false });
    expect((await log.readAgent('ns.a', seqOf(ofA[0]!), 10)).events).toEqual(ofA.slice(1));
    const ofB = await log.readAgent('ns.b', 0, 10);
    expect(ofB.events.map((e) => e.agent_id)).toEqual(['ns.b', 'ns.b']);
    // A prefix of another agent's id is another agent.
    expect(await log.readAgent('ns.', 0, 10)).toEqual({ events: [], missed: false });
    expect(await log.readAgent('ns.unknown', 0, 10)).toEqual({ events: [], missed: false });
    await log.close();
  });

  it("keeps each agent's newest events and says when a reader missed pruned ones", async () => {
    const log = await subject.open(10);
    const ofA = await log.append(Array.from({ length: 13 }, () => event('ns.a')));
    const ofB = await log.append([event('ns.b'), event('ns.b')]);
    await subject.prune(log);
    const head = await log.head();
    expect(head).toBe(seqOf(ofB[1]!));
    const all = await log.readAgent('ns.a', 0, 100);
    expect(all).toEqual({ events: ofA.slice(3), missed: true });
    // The reader had received the last pruned one: it missed nothing.
    expect(await log.readAgent('ns.a', seqOf(ofA[2]!), 100)).toEqual({ events: ofA.slice(3), missed: false });
    expect((await log.readAgent('ns.a', seqOf(ofA[1]!), 100)).missed).toBe(true);
    expect(await log.readAgent('ns.b', 0, 100)).toEqual({ events: ofB, missed: false });
    await log.close();
  });

  it('calls append listeners after an append that stored, until unsubscribed', async () => {
    const log = await subject.open();
    let calls = 0;
    const off = log.onAppend(() => (calls += 1));
    await log.append([event('ns.a')]);
    expect(calls).toBeGreaterThanOrEqual(1);
    off();
    const before = calls;
    await log.append([event('ns.a')]);
    expect(calls).toBe(before);
    await log.close();
  });
});

describe('console log on PostgreSQL: shared by replicas', () => {
  it('wakes the other replica, which reads what this one appended; a key is stored once', async () => {
    const url = await freshDatabase();
    const [one, two] = await Promise.all([
      PgConsoleLog.open(url, { log: quiet }),
      PgConsoleLog.open(url, { log: quiet }),
    ]);
    let woken = 0;
    two.onAppend(() => (woken += 1));
    const [stored] = await one.append([event('ns.a')]);
    await until(() => Promise.resolve(woken > 0 ? true : undefined), 10_000, 'a notification');
    expect(await two.readAfter(0, 10)).toEqual([stored]);
    expect(await two.head()).toBe(seqOf(stored!));
    const shared = event('ns.a');
    const both = await Promise.all([one.append([shared]), two.append([shared])]);
    expect(both.flat()).toHaveLength(1);
    expect(await one.readAgent('ns.a', 0, 10)).toEqual({ events: [stored, ...both.flat()], missed: false });
    await Promise.all([one.close(), two.close()]);
  });

  it('keeps listening after its connection is killed', async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const listening = await PgConsoleLog.open(url, { log: quiet });
    let woken = 0;
    listening.onAppend(() => (woken += 1));
    const admin = new pg.Client({ connectionString: db!.url });
    await admin.connect();
    const killed = await admin.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`,
      [name],
    );
    expect(killed.rows).toEqual([{ ok: true }]);
    // On reconnect the listeners are called once: notifications sent while it was down are lost.
    await until(() => Promise.resolve(woken > 0 ? true : undefined), 10_000, 'the reconnect');
    woken = 0;
    const appending = await PgConsoleLog.open(url, { log: quiet });
    await appending.append([event('ns.a')]);
    await until(
      () => Promise.resolve(woken > 0 ? true : undefined),
      10_000,
      'a notification after reconnect',
    );
    await admin.end();
    await Promise.all([listening.close(), appending.close()]);
  });

  it('prunes events older than the age limit and marks them missed', async () => {
    const url = await freshDatabase();
    const log = await PgConsoleLog.open(url, { log: quiet, maxAgeMs: 3_600_000 });
    const [old, young] = await log.append([event('ns.a'), event('ns.a')]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `UPDATE platform_console_events SET stored_at = now() - interval '2 hours' WHERE seq = $1`,
      [seqOf(old!)],
    );
    await admin.end();
    await log.prune();
    expect(await log.readAgent('ns.a', 0, 10)).toEqual({ events: [young], missed: true });
    expect(await log.readAgent('ns.a', seqOf(old!), 10)).toEqual({ events: [young], missed: false });
    await log.close();
  });

  it('prunes the agents appended to after every so many stored events, on its own', async () => {
    const url = await freshDatabase();
    const log = await PgConsoleLog.open(url, { log: quiet, perAgent: 10, pruneEveryAppends: 12 });
    const stored = await log.append(Array.from({ length: 12 }, () => event('ns.a')));
    const read = await until(
      async () => {
        const r = await log.readAgent('ns.a', 0, 100);
        return r.missed ? r : undefined;
      },
      10_000,
      'the background prune',
    );
    expect(read.events).toEqual(stored.slice(2));
    await log.close();
  });

  it('never goes back: ids keep growing after every event was pruned', async () => {
    const url = await freshDatabase();
    const log = await PgConsoleLog.open(url, { log: quiet, perAgent: 10 });
    const first = await log.append([event('ns.a')]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`UPDATE platform_console_events SET stored_at = now() - interval '2 days'`);
    await admin.end();
    await log.prune();
    expect(await log.readAfter(0, 10)).toEqual([]);
    expect(await log.head()).toBe(seqOf(first[0]!));
    const [next] = await log.append([event('ns.a')]);
    expect(seqOf(next!)).toBeGreaterThan(seqOf(first[0]!));
    await log.close();
  });
});

describe('openConsoleLog', () => {
  it('opens PostgreSQL with DATABASE_URL, memory without, and refuses bad bounds', async () => {
    const url = await freshDatabase();
    const shared = await openConsoleLog({ DATABASE_URL: url }, quiet);
    expect(shared.kind).toBe('postgres');
    await shared.close();
    const local = await openConsoleLog({});
    expect(local.kind).toBe('memory');
    await expect(openConsoleLog({ PLATFORM_CONSOLE_BUFFER_PER_AGENT: 'lots' })).rejects.toThrow(ConfigError);
    await expect(
      openConsoleLog({ DATABASE_URL: url, PLATFORM_CONSOLE_BUFFER_MAX_AGE: '5s' }),
    ).rejects.toThrow(/PLATFORM_CONSOLE_BUFFER_MAX_AGE/);
  });
});
