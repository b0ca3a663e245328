// The API audit log on a real PostgreSQL (started by the fixture; needs
// `postgresql` installed, no skip): the shared AuditLog contract run against
// the embedded file, memory and PostgreSQL, two replicas appending concurrently to one
// chain, the append-only triggers, and the choice by DATABASE_URL.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashChainAuditLog, verifyEntries } from '../../api/audit/chain.ts';
import { FileAuditLog } from '../../api/audit/file.ts';
import type { AuditEntry, AuditLog } from '../../api/audit/log.ts';
import { IN_MEMORY, openAuditLog } from '../../api/audit/open.ts';
import { PgAuditLog } from '../../api/audit/pg.ts';
import { auditInput, auditLogContract } from './fixtures/audit-log-contract.ts';
import { freePort } from './fixtures/loopback.ts';
import { startPostgres, type Postgres } from './fixtures/postgres.ts';

const TABLE = 'platform_api_audit';

auditLogContract('in memory', {
  open: (now) => Promise.resolve(new HashChainAuditLog(now)),
  tamper: (log, seq, subject) => {
    (log as HashChainAuditLog).unsafeEntries()[seq - 1]!.subject = subject;
    return Promise.resolve();
  },
});
auditLogContract('embedded JSON-lines file', {
  // A window of 3 entries: most reads come from the file.
  open: (now) =>
    FileAuditLog.open({ path: join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl'), now, window: 3 }),
  tamper: (log, seq, subject) => {
    const path = (log as FileAuditLog).path;
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[seq - 1] = JSON.stringify({ ...(JSON.parse(lines[seq - 1]!) as AuditEntry), subject });
    writeFileSync(path, lines.join('\n'));
    return Promise.resolve();
  },
});

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Runs `text` with the append-only triggers off, as someone with table ownership could. */
async function behindTheTriggers(url: string, text: string): Promise<void> {
  await sql(
    url,
    `BEGIN; ALTER TABLE ${TABLE} DISABLE TRIGGER USER; ${text}; ALTER TABLE ${TABLE} ENABLE TRIGGER USER; COMMIT`,
  );
}

describe('PostgreSQL audit log', () => {
  let db: Postgres | undefined;
  let databases = 0;
  const urls = new Map<AuditLog, string>();

  beforeAll(async () => {
    db = startPostgres(await freePort());
  });
  afterAll(() => db?.stop());

  /** A fresh database on the test server, so every case starts from an empty table. */
  async function freshDatabase(): Promise<string> {
    if (!db) throw new Error('PostgreSQL did not start');
    const name = `audit_${++databases}`;
    await sql(db.url, `CREATE DATABASE ${name}`);
    return db.url.replace(/\/postgres$/, `/${name}`);
  }

  auditLogContract('PostgreSQL', {
    open: async (now) => {
      const url = await freshDatabase();
      const log = await PgAuditLog.open(url, { now });
      urls.set(log, url);
      return log;
    },
    tamper: (log, seq, subject) =>
      behindTheTriggers(urls.get(log)!, `UPDATE ${TABLE} SET subject = '${subject}' WHERE seq = ${seq}`),
  });

  it('two replicas appending concurrently extend one chain with no gaps', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([PgAuditLog.open(url), PgAuditLog.open(url)]);
    const written: { replica: string; entry: AuditEntry }[] = [];
    for (let round = 0; round < 10; round++) {
      const wave = ['a', 'b'].flatMap((replica) =>
        Array.from({ length: 10 }, async (_, i) => {
          const entry = await (replica === 'a' ? a : b).append(auditInput(`${replica}-${round}-${i}`));
          written.push({ replica, entry });
        }),
      );
      await Promise.all(wave);
    }
    const seqs = written.map((w) => w.entry.seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await a.verify()).toEqual({ ok: true, entries: 200 });
    expect(await b.verify()).toEqual({ ok: true, entries: 200 });
    const all = await b.query({ limit: 1000 });
    expect(all).toHaveLength(200);
    expect(verifyEntries([...all].reverse())).toEqual({ ok: true, entries: 200 });
    const fromA = written.filter((w) => w.replica === 'a').map((w) => w.entry);
    expect(all.filter((e) => e.subject.startsWith('a-'))).toStrictEqual(fromA.sort((x, y) => y.seq - x.seq));
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const url = await freshDatabase();
    const log = await PgAuditLog.open(url);
    await log.append(auditInput('alice'));
    await expect(sql(url, `UPDATE ${TABLE} SET subject = 'mallory'`)).rejects.toThrow(/append-only/);
    await expect(sql(url, `DELETE FROM ${TABLE}`)).rejects.toThrow(/append-only/);
    await expect(sql(url, `TRUNCATE ${TABLE}`)).rejects.toThrow(/append-only/);
    expect(await log.query({ limit: 10 })).toMatchObject([{ seq: 1, subject: 'alice' }]);
    expect(await log.verify()).toEqual({ ok: true, entries: 1 });
    await log.close();
  });

  it('reports a removed entry and a relinked chain at their sequence', async () => {
    const url = await freshDatabase();
    const log = await PgAuditLog.open(url);
    for (const s of ['a', 'b', 'c', 'd', 'e']) await log.append(auditInput(s, { details: { who: s } }));
    await behindTheTriggers(url, `UPDATE ${TABLE} SET prev_hash = repeat('0', 64) WHERE seq = 4`);
    expect(await log.verify()).toMatchObject({ ok: false, entries: 5, brokenAt: 4, reason: 'link broken' });
    await behindTheTriggers(url, `DELETE FROM ${TABLE} WHERE seq = 2`);
    expect(await log.verify()).toEqual({ ok: false, entries: 4, brokenAt: 3, reason: 'sequence gap' });
    await behindTheTriggers(url, `UPDATE ${TABLE} SET details = 'not json' WHERE seq = 1`);
    expect(await log.verify()).toMatchObject({ ok: false, brokenAt: 1, reason: 'content changed' });
    await log.close();
  });

  it('verifies a chain longer than one read page', async () => {
    const url = await freshDatabase();
    const log = await PgAuditLog.open(url);
    await Promise.all(Array.from({ length: 2500 }, (_, i) => log.append(auditInput(`s-${i}`))));
    expect(await log.verify()).toEqual({ ok: true, entries: 2500 });
    await behindTheTriggers(url, `UPDATE ${TABLE} SET status = 500 WHERE seq = 2345`);
    expect(await log.verify()).toMatchObject({ ok: false, brokenAt: 2345, reason: 'content changed' });
    await log.close();
  });

  it('is chosen when DATABASE_URL is set, the embedded file otherwise', async () => {
    const url = await freshDatabase();
    const chosen = await openAuditLog({ DATABASE_URL: url });
    expect(chosen).toBeInstanceOf(PgAuditLog);
    await chosen.append(auditInput('via-env'));
    expect(await sql(url, `SELECT subject FROM ${TABLE}`)).toEqual([{ subject: 'via-env' }]);
    await chosen.close?.();
    const state = mkdtempSync(join(tmpdir(), 'state-'));
    const embedded = await openAuditLog({ XDG_STATE_HOME: state });
    expect(embedded).toBeInstanceOf(FileAuditLog);
    expect((embedded as FileAuditLog).path).toBe(join(state, 'agent-platform', 'audit.jsonl'));
    await embedded.close?.();
    expect(await openAuditLog({}, { path: IN_MEMORY })).toBeInstanceOf(HashChainAuditLog);
  });

  it('fails to open with a clear error when the database is unreachable', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    await expect(PgAuditLog.open(url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
