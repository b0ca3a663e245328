// Both data-access logs behind one interface: append-only, hash-chained,
// bound to the agent's uid, read newest first in bounded pages; the embedded
// file is checked on open, so an edited line shows after a restart. The
// PostgreSQL run needs `postgresql` installed (.ci/run installs it).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogPath, openAccessStore } from '../../accesses/open-store.ts';
import { normalizedRecord, type AccessWire } from '../../accesses/record.ts';
import { FileAccessStore } from '../../accesses/store-file.ts';
import { PgAccessStore } from '../../accesses/store-pg.ts';
import type { AccessStore } from '../../accesses/store.ts';
import { FileBusyError } from '../../base/file-lock.ts';
import { freePort } from './fixtures/loopback.ts';
import { startPostgres, type Postgres } from './fixtures/postgres.ts';

const record = (n: number, extra: Partial<AccessWire> = {}): AccessWire =>
  normalizedRecord({
    at: new Date(Date.UTC(2026, 10, 25, 0, 0, n)).toISOString(),
    kind: 'https',
    destination: 'api.example.com:443',
    method: 'GET',
    action: 'read',
    path: `/items/${n}`,
    outcome: 'forwarded',
    bytes_up: n,
    bytes_down: 0,
    duration_ms: 1,
    ...extra,
  });

const range = (from: number, to: number): AccessWire[] =>
  Array.from({ length: to - from }, (_, i) => record(from + i));

/** Appends for two agents and a re-created one, then reads pages back. */
async function exercise(store: AccessStore): Promise<void> {
  const first = await store.append('ns.a', 'uid-1', range(0, 3));
  expect(first.map((e) => e.seq)).toEqual([1, 2, 3]);
  // Batches queued together are chained in order.
  const [b, c] = await Promise.all([
    store.append('ns.b', 'uid-b', range(3, 5)),
    store.append('ns.a', 'uid-1', range(5, 8)),
  ]);
  expect([...b, ...c].map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
  await store.append('ns.a', 'uid-2', [record(99)]);
  const newest = await store.listByAgent('ns.a', 'uid-1', { limit: 4 });
  expect(newest.map((e) => e.access.bytes_up)).toEqual([7, 6, 5, 2]);
  const older = await store.listByAgent('ns.a', 'uid-1', { limit: 4, beforeSeq: newest.at(-1)!.seq });
  expect(older.map((e) => e.access.bytes_up)).toEqual([1, 0]);
  expect(await store.countByAgent('ns.a', 'uid-1')).toBe(6);
  // A re-created agent of the same name sees only its own records.
  expect((await store.listByAgent('ns.a', 'uid-2')).map((e) => e.access.bytes_up)).toEqual([99]);
  expect(newest[0]?.access).toEqual(record(7));
  expect(await store.verifyChain()).toEqual({ ok: true, count: 9 });
}

describe('embedded data-access log', () => {
  it('appends, pages by agent, and verifies its chain again after a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'acc-')), 'evidence.jsonl.accesses');
    const store = await FileAccessStore.open({ path });
    await exercise(store);
    await expect(FileAccessStore.open({ path })).rejects.toBeInstanceOf(FileBusyError);
    await store.close();
    const reopened = await FileAccessStore.open({ path });
    expect(reopened.opened).toEqual({ ok: true, count: 9 });
    expect((await reopened.listByAgent('ns.a', 'uid-1', { limit: 1 }))[0]?.access.bytes_up).toBe(7);
    expect((await reopened.append('ns.a', 'uid-1', [record(10)]))[0]?.seq).toBe(10);
    await reopened.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[5] = lines[5]!.replace('"outcome":"forwarded"', '"outcome":"denied"');
    writeFileSync(path, lines.join('\n'));
    const tampered = await FileAccessStore.open({ path });
    expect(tampered.opened).toMatchObject({ ok: false, seq: 6 });
    expect(await tampered.verifyChain()).toMatchObject({ ok: false, seq: 6 });
    await tampered.close();
  });

  it('lives beside the evidence file, in memory with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acc-'));
    const evidence = join(dir, 'evidence.jsonl');
    const store = await openAccessStore({}, evidence);
    await store.append('ns.a', 'u', [record(1)]);
    await store.close();
    expect(readFileSync(accessLogPath(evidence), 'utf8')).toContain('"destination":"api.example.com:443"');
    const memory = await openAccessStore({ XDG_STATE_HOME: dir }, ':memory:');
    expect(await memory.countByAgent('ns.a', 'u')).toBe(0);
    await memory.close();
  });
});

describe('PostgreSQL data-access log', () => {
  let db: Postgres | undefined;
  beforeAll(async () => {
    db = startPostgres(await freePort());
  });
  afterAll(() => db?.stop());

  it('appends, pages by agent, refuses changes and detects tampering', async () => {
    if (!db) throw new Error('PostgreSQL did not start');
    const store = await PgAccessStore.open(db.url);
    await exercise(store);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const table = 'platform_data_accesses';
    await expect(client.query(`UPDATE ${table} SET agent_id = 'x' WHERE seq = 3`)).rejects.toThrow(
      /append-only/,
    );
    await expect(client.query(`DELETE FROM ${table}`)).rejects.toThrow(/append-only/);
    await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_no_change`);
    await client.query(
      `UPDATE ${table} SET access = replace(access, '"forwarded"', '"denied"') WHERE seq = 6`,
    );
    expect(await store.verifyChain()).toMatchObject({ ok: false, seq: 6 });
    await client.end();
    await store.close();
  });
});
