// Agents through the API: create, get, list, update, the share dialog
// (including removing the last Owner), suspend, reactivate, stale list,
// access review and passport.
import { describe, expect, it } from 'vitest';
import { computeAgentStatus } from '../../controllers/agent/status.ts';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { storedAgent, SUBJECTS, useApi } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const ns = useNamespace('api-agents');
const fx = useApi(ns);

const stored = (name: string): Promise<PlatformAgent> => storedAgent(ns.name, name);

describe('agents', () => {
  it('creates an agent with an Owner and refuses one without', async () => {
    const id = await fx.createAgent('alpha');
    const got = await fx.call('GET', `/v1/agents/${id}`, { key: fx.keys.viewer });
    expect(got.body).toMatchObject({
      agent_id: id,
      namespace: ns.name,
      name: 'alpha',
      spec: { model: { id: 'gpt-test' } },
    });
    const none = await fx.call('POST', '/v1/agents', {
      key: fx.keys.org_admin,
      body: { namespace: ns.name, name: 'ownerless', spec: { owners: [{ subject: 'x', role: 'Viewer' }] } },
    });
    expect(none).toMatchObject({ status: 422, body: { code: 'owner_required' } });
    const dup = await fx.call('POST', '/v1/agents', {
      key: fx.keys.org_admin,
      body: { namespace: ns.name, name: 'alpha', spec: { owners: [{ subject: 'x', role: 'Owner' }] } },
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('rejects a spec that breaks the CRD schema, naming the field', async () => {
    const r = await fx.call('POST', '/v1/agents', {
      key: fx.keys.org_admin,
      body: { namespace: ns.name, name: 'bad', spec: { owners: [{ subject: 'x', role: 'King' }] } },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('agent/spec/owners/0/role');
  });

  it('lists only the agents the caller shares, with paging', async () => {
    await fx.createAgent('beta');
    await fx.createAgent('gamma', [{ subject: SUBJECTS.owner, role: 'Owner' }]);
    const viewer = await fx.call('GET', '/v1/agents', { key: fx.keys.viewer });
    const ids = viewer.body.items!.map((a) => a.agent_id);
    expect(ids).toContain(`${ns.name}.beta`);
    expect(ids).not.toContain(`${ns.name}.gamma`);
    expect((await fx.call('GET', '/v1/agents', { key: fx.keys.stranger })).body.items).toEqual([]);
    const first = await fx.call('GET', '/v1/agents?limit=1', { key: fx.keys.owner });
    expect(first.body.items).toHaveLength(1);
    const second = await fx.call('GET', `/v1/agents?limit=1&continue=${String(first.body.continue)}`, {
      key: fx.keys.owner,
    });
    expect(second.body.items![0]!.agent_id).not.toBe(first.body.items![0]!.agent_id);
  });

  it('updates the spec by merge patch but not owners or suspend', async () => {
    const id = await fx.createAgent('delta');
    const r = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.editor,
      body: { spec: { model: { id: 'gpt-next' }, auditMode: 'enforce' } },
    });
    expect(r.status).toBe(200);
    expect((await stored('delta')).spec).toMatchObject({ model: { id: 'gpt-next' }, auditMode: 'enforce' });
    const owners = await fx.call('PATCH', `/v1/agents/${id}`, {
      key: fx.keys.owner,
      body: { spec: { owners: [] } },
    });
    expect(owners).toMatchObject({ status: 422, body: { code: 'reserved_field' } });
  });

  it('suspends and reactivates through spec.suspend', async () => {
    const id = await fx.createAgent('epsilon');
    expect(
      (
        await fx.call('POST', `/v1/agents/${id}/suspend`, {
          key: fx.keys.editor,
          body: { reason: 'odd traffic' },
        })
      ).status,
    ).toBe(200);
    expect((await stored('epsilon')).spec.suspend).toBe(true);
    expect((await fx.call('POST', `/v1/agents/${id}/reactivate`, { key: fx.keys.editor })).status).toBe(403);
    expect((await fx.call('POST', `/v1/agents/${id}/reactivate`, { key: fx.keys.owner })).status).toBe(200);
    expect((await stored('epsilon')).spec.suspend).toBeUndefined();
  });

  it('lists stale agents and reviews access', async () => {
    const id = await fx.createAgent('zeta');
    const stale = await fx.call('GET', '/v1/agents/stale?days=0', { key: fx.keys.owner });
    expect(stale.body.items!.map((s) => s.agent_id)).toContain(id);
    const none = await fx.call('GET', '/v1/agents/stale?days=30', { key: fx.keys.owner });
    expect(none.body.items!.map((s) => s.agent_id)).not.toContain(id);
    const review = await fx.call('GET', `/v1/agents/${id}/access-review`, { key: fx.keys.owner });
    expect(review.body).toMatchObject({ agent_id: id, counts: { Owner: 1, Editor: 1, Viewer: 1 } });
    expect(review.body.findings).toEqual(expect.arrayContaining([expect.stringContaining('a single Owner')]));
  });

  it('renders the passport: owners, accesses, trust tier per auditor, attestation', async () => {
    const id = await fx.createAgent('eta');
    const r = await fx.call('GET', `/v1/agents/${id}/passport`, { key: fx.keys.viewer });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ agent_id: id, accountable_owners: 1, accesses: [] });
    expect(r.body.owners).toEqual(expect.arrayContaining([{ subject: SUBJECTS.owner, role: 'Owner' }]));
    const tiers = r.body.trust_tiers as { auditor_id: string; trust_tier: string; deployment_mode: string }[];
    expect(tiers.map((t) => t.auditor_id)).toEqual(['injection', 'toxicity', 'model-context', 'llm-judge']);
    // The built-ins have no registration: they are the pod's sidecars.
    expect(new Set(tiers.map((t) => t.deployment_mode))).toEqual(new Set(['sidecar']));
  });
});

describe('the share dialog', () => {
  it('adds and removes Editors and Viewers; Editors cannot touch Owners', async () => {
    const id = await fx.createAgent('theta');
    const add = await fx.call('POST', `/v1/agents/${id}/shares`, {
      key: fx.keys.editor,
      body: { subject: 'new@example.com', role: 'Viewer' },
    });
    expect(add.status).toBe(200);
    expect(add.body.shares).toContainEqual({ subject: 'new@example.com', role: 'Viewer' });
    const promote = await fx.call('POST', `/v1/agents/${id}/shares`, {
      key: fx.keys.editor,
      body: { subject: 'new@example.com', role: 'Owner' },
    });
    expect(promote.status).toBe(403);
    const demote = await fx.call('DELETE', `/v1/agents/${id}/shares/${encodeURIComponent(SUBJECTS.owner)}`, {
      key: fx.keys.editor,
    });
    expect(demote.status).toBe(403);
    const removed = await fx.call('DELETE', `/v1/agents/${id}/shares/new%40example.com`, {
      key: fx.keys.editor,
    });
    expect(removed.body.shares).not.toContainEqual(expect.objectContaining({ subject: 'new@example.com' }));
    const again = await fx.call('DELETE', `/v1/agents/${id}/shares/new%40example.com`, {
      key: fx.keys.editor,
    });
    expect(again.status).toBe(404);
  });

  it('suspends the agent when its last owner is removed', async () => {
    const id = await fx.createAgent('iota');
    const r = await fx.call('DELETE', `/v1/agents/${id}/shares/${encodeURIComponent(SUBJECTS.owner)}`, {
      key: fx.keys.owner,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ owners: 0, suspended_for_owners: true });
    const agent = await stored('iota');
    expect(agent.spec.owners!.some((o) => o.role === 'Owner')).toBe(false);
    // The controller's documented reconciliation of exactly this stored object.
    const { status } = computeAgentStatus(agent as never, {}, new Date());
    expect(status.phase).toBe('suspended');
    const cond = (status.conditions as { type: string; status: string }[]).find(
      (c) => c.type === 'OwnersMissing',
    );
    expect(cond?.status).toBe('True');
  });
});
