// OBO delegation through the API: the agent (its Gateway key) or an Editor
// asks a sharer's consent; only that user allows, customizes or denies, once;
// the grant is listed while active, and the agent's Owners or the user revoke it. An
// answer survives the operator's status write in between (recordAnswer).
import { beforeAll, describe, expect, it } from 'vitest';
import type { MintRequest } from '../../api/auth/key-store.ts';
import type { ConsentRequest, DelegationGrant } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { recordAnswer } from '../../api/routes/delegations.ts';
import type { RouteCtx } from '../../api/routes/route.ts';
import { clusterWriter } from '../../api/store/cluster.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { SUBJECTS, useApi, type Reply } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-delegations');
const fx = useApi(ns);
const state = { agent: '', other: '', gatewayKey: '' };
const objects = () => kubeConfig().makeApiClient(k8s.CustomObjectsApi);

async function listInCluster<T>(plural: string): Promise<T[]> {
  const ref = { group: GROUP, version: VERSION, plural, namespace: ns.name };
  return ((await objects().listNamespacedCustomObject(ref)) as { items: T[] }).items;
}

const base = (agent = state.agent) => `/v1/agents/${agent}/delegations`;
const ask = (body: Record<string, unknown>, key = state.gatewayKey, agent = state.agent): Promise<Reply> =>
  fx.call('POST', `${base(agent)}/pending`, { key, body });
const request = { user: SUBJECTS.viewer, service: 'slack', scopes: ['chat:read', 'chat:write'], ttl: '2h' };

/** Asks (as the agent's Gateway key) and waits until the API's cache lists the consent as pending. */
async function pendingConsent(body: Record<string, unknown> = request): Promise<string> {
  const r = await ask(body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = String(r.body.id);
  await fx.until(`${base()}/pending`, (g) => (g.body.items ?? []).some((c) => c.id === id));
  return id;
}

beforeAll(async () => {
  state.agent = await fx.createAgent('delegate');
  state.other = await fx.createAgent('bystander');
  const minted = await fx.api.deps.keys.mint(
    {
      subject: `gateway:${state.agent}`,
      role: 'gateway',
      workspaces: [],
      agents: [state.agent],
      description: 'test',
    } as MintRequest,
    'test',
  );
  state.gatewayKey = minted.key;
  await eventually(async () => {
    const r = await fx.call('GET', '/v1/api-keys', { key: fx.keys.org_admin });
    return (r.body.items ?? []).some((k) => k.id === minted.record.id) ? true : undefined;
  }, 'the gateway key in the cache');
});

describe('consent requests', () => {
  it('are asked, listed, counted on the badge, allowed once, and the grant is listed', async () => {
    const id = await pendingConsent();
    const badge = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.viewer });
    expect(badge.body).toMatchObject({ consents: 1 });
    expect((badge.body as { count: number }).count).toBeGreaterThanOrEqual(1);
    const owner = await fx.call('GET', '/v1/notifications/count', { key: fx.keys.owner });
    expect(owner.body).toMatchObject({ consents: 0 });

    const allowed = await fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: id } });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    expect(allowed.body).toMatchObject({
      user: SUBJECTS.viewer,
      service: 'slack',
      scopes: ['chat:read', 'chat:write'],
      ttl: '2h',
      phase: 'active',
      consent_id: id,
    });
    const consent = (await listInCluster<ConsentRequest>(PLURAL.consent)).find((c) => c.metadata.name === id);
    expect(consent?.status).toMatchObject({
      phase: 'resolved',
      resolution: 'allowed',
      resolvedBy: SUBJECTS.viewer,
      grantRef: allowed.body.id,
    });
    const grants = await fx.until(
      base(),
      (g) => (g.body.items ?? []).some((x) => x.id === allowed.body.id),
      'viewer',
    );
    expect(grants.status).toBe(200);

    for (const again of [
      fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: id } }),
      fx.call('POST', `${base()}/pending/${id}/deny`, { key: fx.keys.viewer }),
    ]) {
      const r = await again;
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('consent_resolved');
    }
    expect(
      (await listInCluster<DelegationGrant>(PLURAL.grant)).filter((g) => g.spec.consentRef === id),
    ).toHaveLength(1);
  });

  it('resolves once when Allow and Deny race', async () => {
    const id = await pendingConsent();
    const [a, d] = await Promise.all([
      fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: id } }),
      fx.call('POST', `${base()}/pending/${id}/deny`, { key: fx.keys.viewer }),
    ]);
    expect([a.status, d.status].sort()).toEqual(a.status === 201 ? [201, 409] : [200, 409]);
    const grants = (await listInCluster<DelegationGrant>(PLURAL.grant)).filter(
      (g) => g.spec.consentRef === id,
    );
    expect(grants).toHaveLength(a.status === 201 ? 1 : 0);
  });

  it('Customize narrows scopes and shortens the TTL, never widens them', async () => {
    const id = await pendingConsent();
    const wider = await fx.call('POST', base(), {
      key: fx.keys.viewer,
      body: { consent_id: id, scopes: ['chat:read', 'admin'] },
    });
    expect([wider.status, wider.body.code]).toEqual([422, 'scope_not_requested']);
    const longer = await fx.call('POST', base(), {
      key: fx.keys.viewer,
      body: { consent_id: id, ttl: '3h' },
    });
    expect([longer.status, longer.body.code]).toEqual([422, 'ttl_too_long']);
    const r = await fx.call('POST', base(), {
      key: fx.keys.viewer,
      body: { consent_id: id, scopes: ['chat:read'], ttl: '30m' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ scopes: ['chat:read'], ttl: '30m' });
    const consent = (await listInCluster<ConsentRequest>(PLURAL.consent)).find((c) => c.metadata.name === id);
    expect(consent?.status?.resolution).toBe('customized');
  });

  it('Deny resolves without a grant and leaves the pending list', async () => {
    const id = await pendingConsent();
    const r = await fx.call('POST', `${base()}/pending/${id}/deny`, { key: fx.keys.viewer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.consent).toMatchObject({
      phase: 'resolved',
      resolution: 'denied',
      resolved_by: SUBJECTS.viewer,
    });
    await fx.until(`${base()}/pending`, (g) => !(g.body.items ?? []).some((c) => c.id === id));
    expect((await listInCluster<DelegationGrant>(PLURAL.grant)).some((g) => g.spec.consentRef === id)).toBe(
      false,
    );
  });

  it('is answered only by the delegating user', async () => {
    const id = await pendingConsent();
    for (const who of ['owner', 'editor', 'org_admin', 'stranger'] as const) {
      const r = await fx.call('POST', base(), { key: fx.keys[who], body: { consent_id: id } });
      expect(r.status, who).toBe(403);
      const d = await fx.call('POST', `${base()}/pending/${id}/deny`, { key: fx.keys[who] });
      expect(d.status, who).toBe(403);
    }
    expect(
      (await listInCluster<ConsentRequest>(PLURAL.consent)).find((c) => c.metadata.name === id)?.status
        ?.phase,
    ).toBe('pending');
  });
});

describe('who may ask, and bad input', () => {
  it('lets Editors ask, not Viewers, strangers or another agent’s Gateway key', async () => {
    expect((await ask(request, fx.keys.editor)).status).toBe(201);
    expect((await ask(request, fx.keys.viewer)).status).toBe(403);
    expect((await ask(request, fx.keys.stranger)).status).toBe(403);
    expect((await ask(request, state.gatewayKey, state.other)).status).toBe(403);
  });

  it('refuses bad requests and answers with 4xx and writes nothing', async () => {
    const before = (await listInCluster<ConsentRequest>(PLURAL.consent)).length;
    const cases: [Record<string, unknown>, number][] = [
      [{ ...request, user: SUBJECTS.stranger }, 422],
      [{ ...request, ttl: '25h' }, 422],
      [{ ...request, ttl: '1d' }, 400],
      [{ ...request, scopes: [] }, 400],
      [{ ...request, extra: 1 }, 400],
      [{ user: SUBJECTS.viewer }, 400],
    ];
    for (const [body, status] of cases) expect((await ask(body)).status, JSON.stringify(body)).toBe(status);
    const unknown = await fx.call('POST', base(), {
      key: fx.keys.viewer,
      body: { consent_id: 'consent-nope' },
    });
    expect(unknown.status).toBe(404);
    const badId = await fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: 'Not_A_Name' } });
    expect(badId.status).toBe(400);
    expect((await fx.call('POST', `${base()}/pending/nope/deny`, { key: fx.keys.viewer })).status).toBe(404);
    expect((await fx.call('DELETE', `${base()}/grant-nope`, { key: fx.keys.owner })).status).toBe(404);
    expect((await listInCluster<ConsentRequest>(PLURAL.consent)).length).toBe(before);
  });
});

describe('revocation', () => {
  async function activeGrant(): Promise<string> {
    const id = await pendingConsent();
    const r = await fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: id } });
    expect(r.status).toBe(201);
    await fx.until(base(), (g) => (g.body.items ?? []).some((x) => x.id === r.body.id));
    return String(r.body.id);
  }

  it('is done at once by an Owner or the user, not by an Editor, and is final', async () => {
    const grant = await activeGrant();
    expect((await fx.call('DELETE', `${base()}/${grant}`, { key: fx.keys.editor })).status).toBe(403);
    expect((await fx.call('DELETE', `${base()}/${grant}`, { key: fx.keys.owner })).status).toBe(204);
    const stored = (await listInCluster<DelegationGrant>(PLURAL.grant)).find(
      (g) => g.metadata.name === grant,
    );
    expect(stored?.status).toMatchObject({ phase: 'revoked', revokedBy: SUBJECTS.owner });
    await fx.until(base(), (g) => !(g.body.items ?? []).some((x) => x.id === grant));
    const again = await fx.call('DELETE', `${base()}/${grant}`, { key: fx.keys.owner });
    expect([again.status, again.body.code]).toEqual([409, 'grant_inactive']);

    const own = await activeGrant();
    expect((await fx.call('DELETE', `${base()}/${own}`, { key: fx.keys.viewer })).status).toBe(204);
  });
});

describe("an answer and the operator's Ready write", () => {
  it('records an answer made on a version the operator has since written Ready on, once', async () => {
    const writer = clusterWriter(kubeConfig());
    const id = await pendingConsent();
    const stale = (await writer.readConsent(ns.name, id)) as ConsentRequest;
    // What the operator does between the API's read and its write: a status write of its own.
    const ready = { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting for an answer' };
    await objects().patchNamespacedCustomObjectStatus(
      {
        group: GROUP,
        version: VERSION,
        plural: PLURAL.consent,
        namespace: ns.name,
        name: id,
        body: { status: { conditions: [{ ...ready, lastTransitionTime: new Date().toISOString() }] } },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const rc = { deps: { writer, now: Date.now, consentTtlMs: 3_600_000 } } as unknown as RouteCtx;
    const answer = {
      phase: 'resolved' as const,
      resolution: 'denied' as const,
      resolvedBy: SUBJECTS.viewer,
      resolvedTime: new Date().toISOString(),
    };
    expect((await recordAnswer(rc, stale, answer)).status).toMatchObject({ phase: 'resolved' });
    // Answered in between: a conflict, not a second answer.
    const err = await recordAnswer(rc, stale, answer).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409, code: 'consent_resolved' });
  });
});

describe("the caller's delegations across agents (the approvals page)", () => {
  const ids = (r: Reply) => (r.body.items ?? []).map((i) => i.id);

  it('lists the consents waiting for you only, on every agent, and the grants you may revoke', async () => {
    const consent = await pendingConsent();
    const mine = await fx.call('GET', '/v1/delegations/pending', { key: fx.keys.viewer });
    expect(mine.status).toBe(200);
    expect(ids(mine)).toContain(consent);
    for (const other of ['owner', 'editor', 'stranger'] as const) {
      expect(ids(await fx.call('GET', '/v1/delegations/pending', { key: fx.keys[other] }))).not.toContain(
        consent,
      );
    }

    const allowed = await fx.call('POST', base(), { key: fx.keys.viewer, body: { consent_id: consent } });
    const grant = String(allowed.body.id);
    // The user holds it and the agent's Owner may revoke it; an Editor or a stranger sees nothing.
    for (const who of ['viewer', 'owner'] as const) {
      await fx.until('/v1/delegations', (r) => ids(r).includes(grant), who);
    }
    for (const who of ['editor', 'stranger'] as const) {
      expect(ids(await fx.call('GET', '/v1/delegations', { key: fx.keys[who] }))).not.toContain(grant);
    }
    expect(ids(await fx.call('GET', '/v1/delegations/pending', { key: fx.keys.viewer }))).not.toContain(
      consent,
    );

    expect((await fx.call('DELETE', `${base()}/${grant}`, { key: fx.keys.viewer })).status).toBe(204);
    await fx.until('/v1/delegations', (r) => !ids(r).includes(grant), 'viewer');
  });

  it('needs a credential', async () => {
    expect((await fx.call('GET', '/v1/delegations', { key: '' })).status).toBe(401);
  });
});
