// The intake's trust boundaries (issue 13, findings 2 and 4) on the embedded
// store in memory: Evidence only for an agent that exists, bound to its uid;
// an attester's keys bound to the credential that first presented them; key
// ids derived from their keys; `generated_at` within the window.
import { describe, expect, it } from 'vitest';
import { createAttestationAgent, type AttestationAgent } from '../attestation/agent.ts';
import {
  intakeEvidence,
  memoryPassport,
  pinnedAttesterKeys,
  revokeAttesterKey,
  type IntakeDeps,
} from './intake.ts';
import { signEvidence } from './sign.ts';
import { FileEvidenceStore } from './store-file.ts';
import type { Evidence, UnsignedEvidence } from './types.ts';

const gateway = createAttestationAgent({ provider: 'MOCK' });

function evidence(id: string, over: Partial<UnsignedEvidence> = {}, signer: AttestationAgent = gateway) {
  return signEvidence(
    {
      schema_version: '2.0.0',
      evidence_id: id,
      attester_id: 'gateway/team.bot',
      attester_type: 'gateway',
      agent_id: 'team.bot',
      workspace_id: 'team',
      trace_id: 't',
      claims: [],
      decision: 'allow',
      decision_reasons: [],
      policy_id: 'p',
      policy_version: '1',
      phase: 'request',
      audit_mode: 'enforce',
      blocked: false,
      generated_at: new Date().toISOString(),
      auditors: [],
      attestation: signer.binding(),
      ...over,
    },
    signer,
  );
}

/** Agents by id → uid; change the map to delete or re-create one. */
async function setup(live = (_credential: string) => true) {
  const store = await FileEvidenceStore.open();
  const agents = new Map([['team.bot', 'uid-1']]);
  const deps: IntakeDeps = {
    store,
    keys: pinnedAttesterKeys(store, (c) => Promise.resolve(live(c))),
    passport: memoryPassport(),
    registrations: () => undefined,
    agents: (id) => Promise.resolve(agents.has(id) ? { uid: agents.get(id)! } : undefined),
  };
  const submit = (e: Evidence, presenter = 'apikey:a') => intakeEvidence(e, deps, presenter);
  return { store, agents, submit };
}

describe('intake: the agent', () => {
  it('refuses Evidence for an agent or namespace that does not exist, storing and pinning nothing', async () => {
    const { store, submit } = await setup();
    for (const agent_id of ['team.ghost', 'nowhere.bot']) {
      const e = await evidence(`ev-${agent_id}`, { agent_id });
      expect(await submit(e)).toEqual({
        status: 422,
        detail: `agent_id: no agent ${agent_id}`,
        code: 'unknown_agent',
      });
      expect(await store.get(e.evidence_id)).toBeUndefined();
    }
    expect(await store.attesterPins('gateway/team.bot')).toEqual([]);
    expect(await store.verifyChain()).toEqual({ ok: true, count: 0 });
  });

  it('binds Evidence to the agent uid: a re-created agent of the same name starts with none', async () => {
    const { store, agents, submit } = await setup();
    expect((await submit(await evidence('ev-old'))).status).toBe(201);
    expect((await store.listByAgent('team.bot', 'uid-1')).map((e) => e.evidence_id)).toEqual(['ev-old']);
    agents.set('team.bot', 'uid-2');
    expect(await store.listByAgent('team.bot', 'uid-2')).toEqual([]);
    expect((await submit(await evidence('ev-new'))).status).toBe(201);
    expect((await store.listByAgent('team.bot', 'uid-2')).map((e) => e.evidence_id)).toEqual(['ev-new']);
    expect((await store.get('ev-new'))?.agent_uid).toBe('uid-2');
  });
});

describe('intake: attester keys', () => {
  it('refuses a second credential pinning a new key under an existing attester id', async () => {
    const { store, submit } = await setup();
    expect((await submit(await evidence('ev-1'), 'apikey:a')).status).toBe(201);
    const intruder = createAttestationAgent({ provider: 'MOCK' });
    const e = await evidence('ev-2', { attestation: intruder.binding() }, intruder);
    expect(await submit(e, 'apikey:b')).toMatchObject({ status: 422, code: 'untrusted_key' });
    expect(await store.get('ev-2')).toBeUndefined();
    expect((await store.attesterPins('gateway/team.bot')).map((p) => p.owner)).toEqual(['apikey:a']);
    // The owning credential rotates its own key.
    const rotated = await evidence('ev-3', { attestation: intruder.binding() }, intruder);
    expect((await submit(rotated, 'apikey:a')).status).toBe(201);
  });

  it('lets another credential take over once the owning one no longer exists', async () => {
    const { submit } = await setup((c) => c !== 'apikey:gone');
    expect((await submit(await evidence('ev-1'), 'apikey:gone')).status).toBe(201);
    expect((await submit(await evidence('ev-2'), 'apikey:new')).status).toBe(201);
  });

  it('revokes a key for good; revoking the last one releases the attester to the next credential', async () => {
    const { store, submit } = await setup();
    const keyId = gateway.binding().key_id;
    expect((await submit(await evidence('ev-1'), 'apikey:a')).status).toBe(201);
    expect(await revokeAttesterKey(store, 'gateway/team.bot', 'nope')).toBe('not_pinned');
    expect(await revokeAttesterKey(store, 'gateway/team.bot', keyId)).toBe('revoked');
    expect(await revokeAttesterKey(store, 'gateway/team.bot', keyId)).toBe('already_revoked');
    expect(await submit(await evidence('ev-2'), 'apikey:a')).toMatchObject({ code: 'untrusted_key' });
    const next = createAttestationAgent({ provider: 'MOCK' });
    const e = await evidence('ev-3', { attestation: next.binding() }, next);
    expect((await submit(e, 'apikey:b')).status).toBe(201);
  });

  it('refuses a key id that does not match its public key', async () => {
    const { submit } = await setup();
    const e = await evidence('ev-1', { attestation: { ...gateway.binding(), key_id: 'fresh-key' } });
    expect(await submit(e)).toMatchObject({
      status: 422,
      code: 'invalid_evidence',
      detail: expect.stringContaining('attestation.key_id: must be'),
    });
  });
});

describe('intake: generated_at', () => {
  it('refuses the year 2999 and 1970, naming the field', async () => {
    const { store, submit } = await setup();
    for (const generated_at of ['2999-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']) {
      const out = await submit(await evidence(`ev-${generated_at}`, { generated_at }));
      expect(out).toMatchObject({
        status: 422,
        code: 'invalid_evidence',
        detail: expect.stringMatching(/^generated_at: /),
      });
    }
    expect(await store.verifyChain()).toEqual({ ok: true, count: 0 });
  });
});
