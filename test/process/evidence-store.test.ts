// Both evidence stores behind one interface: append-only, hash-chained,
// duplicate ids refused; tampering with a stored entry is detected. The
// PostgreSQL run needs `postgresql` installed (.ci/run installs it).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationAgent } from '../../attestation/agent.ts';
import { intakeEvidence, memoryPassport, pinnedAttesterKeys } from '../../evidence/intake.ts';
import { assess } from '../../evidence/result.ts';
import { IN_MEMORY, openEvidenceStore } from '../../evidence/open-store.ts';
import { FileEvidenceStore } from '../../evidence/store-file.ts';
import { FileBusyError } from '../../base/file-lock.ts';
import { PgEvidenceStore } from '../../evidence/store-pg.ts';
import { DuplicateEvidenceError, entryHash, link, type EvidenceStore } from '../../evidence/store.ts';
import { sampleEvidence } from './fixtures/evidence.ts';
import { freePort } from './fixtures/loopback.ts';
import { startPostgres, type Postgres } from './fixtures/postgres.ts';

async function exercise(store: EvidenceStore): Promise<void> {
  const items = await Promise.all(
    Array.from({ length: 20 }, (_, i) => sampleEvidence(`ev-${i}`, i % 2 ? 'ns.odd' : 'ns.even')),
  );
  const uidOf = (e: { agent_id: string }) => `uid-${e.agent_id}`;
  const stored = await Promise.all(
    items.map(async (e) => store.append(e, await assess(e, () => undefined), uidOf(e))),
  );
  expect(stored.map((s) => s.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  await expect(store.append(items[3]!, stored[3]!.result, 'uid-ns.odd')).rejects.toBeInstanceOf(
    DuplicateEvidenceError,
  );
  const odd = await store.listByAgent('ns.odd', 'uid-ns.odd', { limit: 5 });
  expect(odd).toHaveLength(5);
  expect(odd[0]!.seq).toBeGreaterThan(odd[1]!.seq);
  // The same name with another uid (deleted and created again) sees none of its predecessor's Evidence.
  expect(await store.listByAgent('ns.odd', 'uid-recreated')).toEqual([]);
  const successor = await sampleEvidence('ev-successor', 'ns.odd');
  await store.append(successor, await assess(successor, () => undefined), 'uid-recreated');
  expect((await store.listByAgent('ns.odd', 'uid-recreated')).map((e) => e.evidence_id)).toEqual([
    'ev-successor',
  ]);
  expect((await store.get('ev-7'))?.evidence).toEqual(items[7]);
  expect(await store.verifyChain()).toEqual({ ok: true, count: 21 });
}

const intakeDeps = (store: EvidenceStore, live: (c: string) => boolean = () => true) => ({
  store,
  keys: pinnedAttesterKeys(store, (c) => Promise.resolve(live(c))),
  passport: memoryPassport(),
  registrations: () => undefined,
  agents: (id: string) => Promise.resolve({ uid: `uid-${id}` }),
});

/**
 * Key pins live in the store, bound to the credential that pinned them:
 * `second` (another replica, or the same store reopened) refuses another
 * credential's new key under the attester `first` pinned for credential A,
 * refuses a key id that is not its key's, and lets A rotate.
 */
async function pinsAcross(first: EvidenceStore, second: EvidenceStore): Promise<void> {
  const genuine = createAttestationAgent({ provider: 'MOCK' });
  const impostor = createAttestationAgent({ provider: 'MOCK' });
  const keyId = genuine.binding().key_id;
  const a = await intakeEvidence(
    await sampleEvidence('pin-1', 'ns.a', genuine),
    intakeDeps(first),
    'apikey:a',
  );
  expect(a.status).toBe(201);
  const intruding = await sampleEvidence('pin-2', 'ns.a', impostor);
  expect(await intakeEvidence(intruding, intakeDeps(second), 'apikey:b')).toMatchObject({
    status: 422,
    code: 'untrusted_key',
  });
  expect(await second.get('pin-2')).toBeUndefined();
  const swapped = await sampleEvidence('pin-3', 'ns.a', impostor, keyId);
  expect(await intakeEvidence(swapped, intakeDeps(second), 'apikey:a')).toMatchObject({
    status: 422,
    code: 'invalid_evidence',
  });
  const rotated = await sampleEvidence('pin-4', 'ns.a', impostor);
  expect((await intakeEvidence(rotated, intakeDeps(second), 'apikey:a')).status).toBe(201);
  const pins = await first.attesterPins('gateway/test');
  expect(pins.map((p) => [p.key_id, p.owner])).toEqual([
    [keyId, 'apikey:a'],
    [impostor.binding().key_id, 'apikey:a'],
  ]);
}

describe('embedded evidence store (JSONL)', () => {
  it('is a file under XDG_STATE_HOME by default that outlives a restart, one process per file', async () => {
    const state = mkdtempSync(join(tmpdir(), 'evs-state-'));
    const store = await openEvidenceStore({ XDG_STATE_HOME: state });
    const e = await sampleEvidence('kept', 'ns.a');
    await store.append(e, await assess(e, () => undefined), 'uid-a');
    await expect(openEvidenceStore({ XDG_STATE_HOME: state })).rejects.toBeInstanceOf(FileBusyError);
    await store.close();
    const path = join(state, 'agent-platform', 'evidence.jsonl');
    expect(readFileSync(path, 'utf8')).toContain('"evidence_id":"kept"');
    const reopened = await openEvidenceStore({ XDG_STATE_HOME: state });
    expect((await reopened.get('kept'))?.seq).toBe(1);
    await reopened.close();
    const memory = await openEvidenceStore({ XDG_STATE_HOME: state }, IN_MEMORY);
    expect(await memory.get('kept')).toBeUndefined();
    await memory.close();
  });

  it('appends, refuses duplicates, lists by agent and detects a tampered line', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'evs-')), 'evidence.jsonl');
    const store = await FileEvidenceStore.open({ path });
    await exercise(store);
    await store.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[4] = lines[4]!.replace('"decision":"allow"', '"decision":"deny"');
    writeFileSync(path, lines.join('\n'));
    const reopened = await FileEvidenceStore.open({ path });
    expect(reopened.opened).toMatchObject({ ok: false, seq: 5 });
    await reopened.close();
  });

  it('keeps attester key pins and their credential across a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'evs-')), 'evidence.jsonl');
    const store = await FileEvidenceStore.open({ path });
    const pinned = createAttestationAgent({ provider: 'MOCK' });
    const boot = await intakeEvidence(
      await sampleEvidence('boot', 'ns.a', pinned),
      intakeDeps(store),
      'apikey:a',
    );
    expect(boot.status).toBe(201);
    await store.close();
    const reopened = await FileEvidenceStore.open({ path });
    expect(await reopened.attesterPins('gateway/test')).toMatchObject([
      { key_id: pinned.binding().key_id, public_key: pinned.binding().public_key, owner: 'apikey:a' },
    ]);
    const other = createAttestationAgent({ provider: 'MOCK' });
    const e = await sampleEvidence('after-restart', 'ns.a', other);
    expect(await intakeEvidence(e, intakeDeps(reopened), 'apikey:b')).toMatchObject({
      code: 'untrusted_key',
    });
    await reopened.close();
  });

  it('opens a store written before uids and pin owners: its keys pinned for nobody, its Evidence listed for no agent', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'evs-')), 'evidence.jsonl');
    const old = await sampleEvidence('legacy-1', 'ns.a');
    const {
      agent_uid: _,
      hash: __,
      ...linked
    } = link(undefined, old, await assess(old, () => undefined), 'x');
    writeFileSync(path, `${JSON.stringify({ ...linked, hash: entryHash(linked) })}\n`);
    const store = await FileEvidenceStore.open({ path });
    expect(store.opened).toEqual({ ok: true, count: 1 });
    expect(await store.listByAgent('ns.a', 'uid-ns.a')).toEqual([]);
    expect(await store.attesterPins('gateway/test')).toMatchObject([
      { key_id: old.attestation.key_id, owner: null },
    ]);
    await store.close();
  });
});

describe('PostgreSQL evidence store', () => {
  let db: Postgres | undefined;
  beforeAll(async () => {
    db = startPostgres(await freePort());
  });
  afterAll(() => db?.stop());

  it('appends, refuses duplicates and changes, and detects tampering', async () => {
    if (!db) throw new Error('PostgreSQL did not start');
    const store = await PgEvidenceStore.open(db.url);
    await exercise(store);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await expect(client.query("UPDATE platform_evidence SET agent_id = 'x' WHERE seq = 3")).rejects.toThrow(
      /append-only/,
    );
    await expect(client.query('DELETE FROM platform_evidence')).rejects.toThrow(/append-only/);
    await client.query('ALTER TABLE platform_evidence DISABLE TRIGGER platform_evidence_no_change');
    await client.query(
      `UPDATE platform_evidence SET evidence = replace(evidence, '"allow"', '"deny"') WHERE seq = 6`,
    );
    expect(await store.verifyChain()).toMatchObject({ ok: false, seq: 6 });
    await client.end();
    await store.close();
  });

  it('migrates a database written before uids and pin owners', async () => {
    if (!db) throw new Error('PostgreSQL did not start');
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('CREATE DATABASE legacy');
    await admin.end();
    const url = db.url.replace(/\/postgres$/, '/legacy');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const old = await sampleEvidence('legacy-1', 'ns.a');
    const { agent_uid: _, hash: __, ...e } = link(undefined, old, await assess(old, () => undefined), 'x');
    // The schema as it was: no agent_uid column, pins keyed by (attester, key id) without an owner.
    await client.query(`CREATE TABLE platform_evidence (seq bigint PRIMARY KEY, evidence_id text NOT NULL UNIQUE,
      agent_id text NOT NULL, received_at text NOT NULL, evidence text NOT NULL, result text NOT NULL,
      prev_hash text NOT NULL, hash text NOT NULL)`);
    await client.query(`CREATE TABLE platform_attester_keys (attester_id text NOT NULL, key_id text NOT NULL,
      public_key text NOT NULL, pinned_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (attester_id, key_id))`);
    await client.query('INSERT INTO platform_evidence VALUES ($1,$2,$3,$4,$5,$6,$7,$8)', [
      e.seq,
      e.evidence_id,
      e.agent_id,
      e.received_at,
      JSON.stringify(e.evidence),
      JSON.stringify(e.result),
      e.prev_hash,
      entryHash(e),
    ]);
    await client.query(
      'INSERT INTO platform_attester_keys (attester_id, key_id, public_key) VALUES ($1,$2,$3)',
      [old.attester_id, old.attestation.key_id, old.attestation.public_key],
    );
    await client.end();
    const store = await PgEvidenceStore.open(url);
    expect(await store.verifyChain()).toEqual({ ok: true, count: 1 });
    expect(await store.listByAgent('ns.a', 'uid-ns.a')).toEqual([]);
    expect(await store.attesterPins('gateway/test')).toMatchObject([
      { key_id: old.attestation.key_id, public_key: old.attestation.public_key, owner: null },
    ]);
    const next = await sampleEvidence('legacy-2', 'ns.a');
    expect((await intakeEvidence(next, intakeDeps(store), 'apikey:a')).status).toBe(201);
    expect((await store.listByAgent('ns.a', 'uid-ns.a')).map((x) => x.evidence_id)).toEqual(['legacy-2']);
    expect(await store.verifyChain()).toEqual({ ok: true, count: 2 });
    await store.close();
  });

  it('shares attester key pins between replicas', async () => {
    if (!db) throw new Error('PostgreSQL did not start');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('ALTER TABLE platform_evidence ENABLE TRIGGER platform_evidence_no_change');
    await client.end();
    const [a, b] = await Promise.all([PgEvidenceStore.open(db.url), PgEvidenceStore.open(db.url)]);
    await pinsAcross(a, b);
    await Promise.all([a.close(), b.close()]);
  });
});
