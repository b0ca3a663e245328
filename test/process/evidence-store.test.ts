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
import { FileEvidenceStore } from '../../evidence/store-file.ts';
import { PgEvidenceStore } from '../../evidence/store-pg.ts';
import { DuplicateEvidenceError, type EvidenceStore } from '../../evidence/store.ts';
import { sampleEvidence } from './fixtures/evidence.ts';
import { freePort } from './fixtures/loopback.ts';
import { startPostgres, type Postgres } from './fixtures/postgres.ts';

async function exercise(store: EvidenceStore): Promise<void> {
  const items = await Promise.all(
    Array.from({ length: 20 }, (_, i) => sampleEvidence(`ev-${i}`, i % 2 ? 'ns.odd' : 'ns.even')),
  );
  const stored = await Promise.all(items.map(async (e) => store.append(e, await assess(e, () => undefined))));
  expect(stored.map((s) => s.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  await expect(store.append(items[3]!, stored[3]!.result)).rejects.toBeInstanceOf(DuplicateEvidenceError);
  const odd = await store.listByAgent('ns.odd', { limit: 5 });
  expect(odd).toHaveLength(5);
  expect(odd[0]!.seq).toBeGreaterThan(odd[1]!.seq);
  expect((await store.get('ev-7'))?.evidence).toEqual(items[7]);
  expect(await store.verifyChain()).toEqual({ ok: true, count: 20 });
}

/**
 * Key pins live in the store: `second` (another replica, or the same store
 * reopened) refuses a key swapped in behind a key id `first` pinned, and a
 * badly signed Evidence pins nothing.
 */
async function pinsAcross(first: EvidenceStore, second: EvidenceStore): Promise<void> {
  const deps = (store: EvidenceStore) => ({
    store,
    keys: pinnedAttesterKeys(store),
    passport: memoryPassport(),
    registrations: () => undefined,
  });
  const genuine = createAttestationAgent({ provider: 'MOCK' });
  const impostor = createAttestationAgent({ provider: 'MOCK' });
  const keyId = genuine.binding().key_id;
  expect((await intakeEvidence(await sampleEvidence('pin-1', 'ns.a', genuine), deps(first))).status).toBe(
    201,
  );
  const swapped = await sampleEvidence('pin-2', 'ns.a', impostor, keyId);
  expect(await intakeEvidence(swapped, deps(second))).toMatchObject({ status: 422, code: 'untrusted_key' });

  const forged = { ...(await sampleEvidence('pin-3', 'ns.a', impostor, 'fresh-key')), decision: 'deny' };
  expect(await intakeEvidence(forged, deps(second))).toMatchObject({
    status: 422,
    code: 'invalid_signature',
  });
  const honest = await sampleEvidence('pin-4', 'ns.a', genuine, 'fresh-key');
  expect((await intakeEvidence(honest, deps(second))).status).toBe(201);
}

describe('embedded evidence store (JSONL)', () => {
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

  it('keeps attester key pins across a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'evs-')), 'evidence.jsonl');
    const store = await FileEvidenceStore.open({ path });
    const pinned = createAttestationAgent({ provider: 'MOCK' });
    expect(
      (
        await intakeEvidence(await sampleEvidence('boot', 'ns.a', pinned), {
          store,
          keys: pinnedAttesterKeys(store),
          passport: memoryPassport(),
          registrations: () => undefined,
        })
      ).status,
    ).toBe(201);
    await store.close();
    const reopened = await FileEvidenceStore.open({ path });
    expect(await reopened.pinAttesterKey('gateway/test', pinned.binding().key_id, 'other')).toBe(
      pinned.binding().public_key,
    );
    await pinsAcross(reopened, reopened);
    await reopened.close();
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
