// The data-access log over the API against the real apiserver (issue 19,
// Contract D): the agent's credential proxy posts records with a Gateway key
// bound to the agent; its sharers read them and see them in the passport.
// Another agent's key and humans cannot post; a bad batch stores nothing;
// the embedded log's chain verifies when it is opened again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogPath } from '../../accesses/open-store.ts';
import { FileAccessStore } from '../../accesses/store-file.ts';
import { accessRecord, agentGatewayKey, useApi } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const evidenceFile = join(mkdtempSync(join(tmpdir(), 'api-accesses-')), 'evidence.jsonl');
const ns = useNamespace('api-accesses');
const fx = useApi(ns, () => ({ PLATFORM_EVIDENCE_FILE: evidenceFile }));
const keys = { worker: '', other: '' };
const agentId = (name: string): string => `${ns.name}.${name}`;
const accesses = (name = 'worker'): string => `/v1/agents/${agentId(name)}/accesses`;
let reopened: FileAccessStore | undefined;

/** How many accesses the worker's passport counts (model calls and data accesses). */
async function stored(): Promise<unknown> {
  const r = await fx.call('GET', `/v1/agents/${agentId('worker')}/passport`, { key: fx.keys.owner });
  return r.body.access_count;
}

beforeAll(async () => {
  await fx.createAgent('worker');
  await fx.createAgent('other');
  keys.worker = await agentGatewayKey(fx, agentId('worker'));
  keys.other = await agentGatewayKey(fx, agentId('other'));
});

afterAll(async () => {
  await reopened?.close();
});

describe('POST /v1/agents/{agent_id}/accesses', () => {
  it("takes the agent's own records from its Gateway key; its sharers read them newest first and in the passport", async () => {
    const r = await fx.call('POST', accesses(), {
      key: keys.worker,
      body: {
        records: [
          accessRecord(1, {
            user: 'ann@example.com',
            injection_method: 'token_exchange',
            service: 'example',
          }),
          accessRecord(2, {
            method: 'POST',
            action: 'write',
            outcome: 'denied',
            status: null,
            reason: 'owner denied',
            subagent: 'web researcher/2',
          }),
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toEqual({ accepted: 2 });

    const list = await fx.call('GET', `${accesses()}?limit=1`, { key: fx.keys.viewer });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        method: 'POST',
        outcome: 'denied',
        reason: 'owner denied',
        user: null,
        subagent: 'web researcher/2',
      }),
    ]);
    const next = await fx.call('GET', `${accesses()}?limit=1&before=${String(list.body.next_before)}`, {
      key: fx.keys.viewer,
    });
    expect(next.body.items).toEqual([
      expect.objectContaining({
        path: '/items/1',
        user: 'ann@example.com',
        injection_method: 'token_exchange',
        subagent: null,
      }),
    ]);

    const passport = await fx.call('GET', `/v1/agents/${agentId('worker')}/passport`, {
      key: fx.keys.viewer,
    });
    expect(passport.status).toBe(200);
    expect(passport.body.access_count).toBe(2);
    expect(passport.body.accesses).toEqual([
      expect.objectContaining({ source: 'data_access', operation: 'POST', decision: 'deny', blocked: true }),
      expect.objectContaining({
        source: 'data_access',
        resource: 'api.example.com:443/items/1',
        operation: 'GET',
        decision: 'allow',
        user_id: 'ann@example.com',
      }),
    ]);
    // Another agent's passport shows none of them.
    const other = await fx.call('GET', `/v1/agents/${agentId('other')}/passport`, { key: fx.keys.viewer });
    expect(other.body).toMatchObject({ accesses: [], access_count: 0 });
  });

  it("refuses another agent's Gateway key and every human, and keeps the list from the Gateway key and strangers", async () => {
    const body = { records: [accessRecord(3)] };
    expect((await fx.call('POST', accesses(), { key: keys.other, body })).status).toBe(403);
    for (const persona of ['org_admin', 'owner', 'viewer'] as const)
      expect((await fx.call('POST', accesses(), { key: fx.keys[persona], body })).status).toBe(403);
    expect((await fx.call('GET', accesses(), { key: keys.worker })).status).toBe(403);
    expect([403, 404]).toContain((await fx.call('GET', accesses(), { key: fx.keys.stranger })).status);
    expect(await stored()).toBe(2);
  });

  it('refuses a bad batch whole (4xx) and stores nothing of it', async () => {
    const bodies: unknown[] = [
      {},
      { records: [] },
      { records: Array.from({ length: 101 }, (_, i) => accessRecord(i)) },
      { records: [accessRecord(4), { ...accessRecord(5), secret: 'x' }] },
      { records: [accessRecord(4)], extra: true },
      { records: [accessRecord(4, { path: '/search?q=token' })] },
      { records: [accessRecord(4, { destination: 'api.example.com' })] },
      { records: [accessRecord(4, { outcome: 'maybe' })] },
      { records: [accessRecord(4, { bytes_up: -1 })] },
      { records: [accessRecord(4, { at: 'yesterday' })] },
      { records: [accessRecord(4, { status: 99 })] },
      { records: [accessRecord(4, { subagent: '' })] },
      { records: [accessRecord(4, { subagent: 'a\nb' })] },
      { records: [accessRecord(4, { subagent: 'x'.repeat(254) })] },
      { records: 'all' },
    ];
    for (const body of bodies) {
      const r = await fx.call('POST', accesses(), { key: keys.worker, body });
      expect([400, 422], JSON.stringify(body).slice(0, 200)).toContain(r.status);
      expect(r.body.detail).toEqual(expect.any(String));
    }
    const huge = JSON.stringify({ records: [accessRecord(4, { reason: 'x'.repeat(600 * 1024) })] });
    expect((await fx.call('POST', accesses(), { key: keys.worker, raw: huge })).status).toBe(413);
    expect((await fx.call('POST', accesses(), { key: keys.worker, raw: '{"records": [' })).status).toBe(400);
    expect(await stored()).toBe(2);
  });
});

describe('the embedded data-access log', () => {
  it('verifies its chain when opened again, and serves the same records', async () => {
    await fx.api.deps.accesses.close();
    reopened = await FileAccessStore.open({ path: accessLogPath(evidenceFile) });
    expect(reopened.opened).toEqual({ ok: true, count: 2 });
    (fx.api.deps as unknown as { accesses: FileAccessStore }).accesses = reopened;
    const list = await fx.call('GET', accesses(), { key: fx.keys.owner });
    expect((list.body.items ?? []).map((i) => i.seq)).toEqual([2, 1]);
  });
});
