// /v1/auditors/settings over HTTP against the real apiserver: the org,
// workspace and agent tiers of the auditor-settings cascade, each badge as a
// tier sees it, override and reset, locks a lower tier cannot change, bad
// values refused naming the field (nothing written), and who may write which tier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization, PlatformAgent, PlatformWorkspace } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, defaultOwners, useApi, type Persona, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-settings');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const ref = (plural: string) => ({ group: GROUP, version: VERSION, plural });
const names = { org: '', agentId: '' };
const PATH = '/v1/auditors/settings';

const storedOrg = async () =>
  (await custom().getClusterCustomObject({ ...ref(PLURAL.organization), name: names.org })) as Organization;
const storedWorkspace = async () =>
  (await custom().getNamespacedCustomObject({
    ...ref(PLURAL.workspace),
    namespace: ns.name,
    name: 'ws',
  })) as PlatformWorkspace;
const storedAgentSettings = async () =>
  (
    (await custom().getNamespacedCustomObject({
      ...ref(PLURAL.agent),
      namespace: ns.name,
      name: 'bot',
    })) as PlatformAgent
  ).spec.auditorSettings;

type Tier = { scope: 'org' } | { scope: 'workspace' } | { scope: 'agent' };
const target = (t: Tier): Record<string, string> =>
  t.scope === 'org'
    ? { scope: 'org', organization: names.org }
    : t.scope === 'workspace'
      ? { scope: 'workspace', namespace: ns.name, workspace: 'ws' }
      : { scope: 'agent', agent_id: names.agentId };

/** PUT `<auditor>.<setting>` = `value` at a tier, locked when `locked`. */
const save = (
  who: Persona,
  scope: Tier['scope'],
  key: string,
  entry: { value: unknown; locked?: boolean },
) => {
  const [auditor_id, setting] = key.split('.');
  return fx.call('PUT', PATH, {
    key: fx.keys[who],
    body: {
      ...target({ scope }),
      auditor_id,
      setting,
      value: entry.value,
      ...(entry.locked ? { locked: true } : {}),
    },
  });
};
const put = (who: Persona, scope: Tier['scope'], key: string, value: unknown) =>
  save(who, scope, key, { value });
const lock = (who: Persona, scope: Tier['scope'], key: string, value: unknown) =>
  save(who, scope, key, { value, locked: true });
const get = (who: Persona, scope: Tier['scope']) =>
  fx.call('GET', `${PATH}?${new URLSearchParams(target({ scope })).toString()}`, { key: fx.keys[who] });
const reset = (who: Persona, scope: Tier['scope'], auditor_id: string, setting: string) =>
  fx.call(
    'DELETE',
    `${PATH}?${new URLSearchParams({ ...target({ scope }), auditor_id, setting }).toString()}`,
    {
      key: fx.keys[who],
    },
  );
const item = (r: Reply, auditor: string, setting: string) =>
  r.body.items?.find((i) => i.auditor_id === auditor && i.setting === setting);
const ok = (r: Reply, status = 200) => expect(r.status, JSON.stringify(r.body)).toBe(status);

beforeAll(async () => {
  names.org = `org-${ns.name}`;
  names.agentId = `${ns.name}.bot`;
  await createTiers({ org: names.org, homeNamespace: ns.name, namespace: ns.name });
  await custom().createNamespacedCustomObject({
    ...ref(PLURAL.agent),
    namespace: ns.name,
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'PlatformAgent',
      metadata: { name: 'bot' },
      spec: { owners: defaultOwners(), model: { id: 'gpt-test' }, workspace: 'ws' },
    },
  });
  ok(await put('org_admin', 'org', 'toxicity.threshold', 0.8));
  ok(await lock('org_admin', 'org', 'injection.threshold', 0.9));
  ok(await put('org_admin', 'org', 'injection.block_on_detection', true));
  ok(await put('workspace_admin', 'workspace', 'toxicity.threshold', 0.6));
  ok(await lock('workspace_admin', 'workspace', 'toxicity.severeThreshold', 0.9));
  ok(await put('owner', 'agent', 'toxicity.insult_threshold', 0.3));
});

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ ...ref(PLURAL.organization), name: names.org })
    .catch(() => undefined);
});

describe('the five badges, end to end', () => {
  it('stores each tier on its own object, camelCase, the lock as enforced', async () => {
    expect((await storedOrg()).spec.defaults?.auditorSettings).toEqual({
      toxicity: { threshold: { value: 0.8 } },
      injection: { threshold: { value: 0.9, enforced: true }, blockOnDetection: { value: true } },
    });
    expect((await storedWorkspace()).spec.defaults?.auditorSettings?.toxicity).toEqual({
      threshold: { value: 0.6 },
      severeThreshold: { value: 0.9, enforced: true },
    });
    expect(await storedAgentSettings()).toEqual({ toxicity: { insultThreshold: { value: 0.3 } } });
  });

  it('shows the agent tier LOCKED by org and by workspace, INHERITED and DIRECT (a viewer may read)', async () => {
    const r = await get('viewer', 'agent');
    ok(r);
    expect(item(r, 'injection', 'threshold')).toMatchObject({
      badge: 'LOCKED (Set by Org Admin)',
      value: 0.9,
      editable: false,
    });
    expect(item(r, 'toxicity', 'severeThreshold')).toMatchObject({ badge: 'LOCKED (Set by Workspace)' });
    expect(item(r, 'injection', 'blockOnDetection')).toMatchObject({
      badge: 'INHERITED (from: org)',
      editable: true,
    });
    expect(item(r, 'toxicity', 'threshold')).toMatchObject({
      badge: 'INHERITED (from: workspace)',
      value: 0.6,
    });
    expect(item(r, 'toxicity', 'insultThreshold')).toMatchObject({ badge: 'DIRECT', source: 'agent' });
  });

  it('shows the workspace tier OVERRIDDEN with the org default, and its own lock as locked', async () => {
    const r = await get('stranger', 'workspace');
    ok(r);
    expect(item(r, 'toxicity', 'threshold')).toMatchObject({
      badge: 'OVERRIDDEN (org default: 0.8)',
      parent_value: 0.8,
      parent_scope: 'org',
    });
    expect(item(r, 'toxicity', 'severeThreshold')).toMatchObject({ badge: 'DIRECT', locked: true });
    expect(item(r, 'toxicity', 'insultThreshold')).toBeUndefined();
  });
});

describe('override and reset', () => {
  it('overrides at the agent, then resets so the agent inherits again', async () => {
    const saved = await put('editor', 'agent', 'toxicity.threshold', 0.4);
    ok(saved);
    expect(saved.body.setting).toMatchObject({ value: 0.4, badge: 'OVERRIDDEN (workspace default: 0.6)' });
    const gone = await reset('owner', 'agent', 'toxicity', 'threshold');
    ok(gone);
    expect(gone.body).toMatchObject({
      removed: true,
      setting: { badge: 'INHERITED (from: workspace)', value: 0.6 },
    });
    expect((await storedAgentSettings())?.toxicity).toEqual({ insultThreshold: { value: 0.3 } });
    const again = await reset('owner', 'agent', 'toxicity', 'threshold');
    ok(again);
    expect(again.body.removed).toBe(false);
  });
});

describe('locks', () => {
  it('refuses a lower tier changing or resetting a locked setting, naming the lock, nothing written', async () => {
    const before = await storedAgentSettings();
    const byOrg = await put('owner', 'agent', 'injection.threshold', 0.1);
    expect(byOrg.status).toBe(409);
    expect(byOrg.body).toMatchObject({ code: 'setting_locked' });
    expect(byOrg.body.detail).toContain('injection.threshold is LOCKED (Set by Org Admin)');
    const byWorkspace = await reset('owner', 'agent', 'toxicity', 'severe_threshold');
    expect(byWorkspace.status).toBe(409);
    expect(byWorkspace.body.detail).toContain('LOCKED (Set by Workspace)');
    const wsAdmin = await put('workspace_admin', 'workspace', 'injection.threshold', 0.1);
    expect(wsAdmin.status).toBe(409);
    expect(await storedAgentSettings()).toEqual(before);
    expect((await storedWorkspace()).spec.defaults?.auditorSettings?.injection).toBeUndefined();
  });
});

describe('bad input', () => {
  it('answers 422 naming the field for a value the auditor’s schema refuses, nothing written', async () => {
    const before = await storedAgentSettings();
    const cases: [string, string, unknown, string][] = [
      ['toxicity', 'threshold', 5, 'toxicity.threshold: must be <= 1; got 5'],
      ['toxicity', 'threshold', 'high', 'toxicity.threshold: must be of type number'],
      ['toxicity', 'colour', 1, 'toxicity.colour: auditor toxicity has no setting colour'],
      ['no-such-auditor', 'threshold', 1, 'auditor_id: no auditor no-such-auditor'],
    ];
    for (const [auditor, setting, value, detail] of cases) {
      const r = await put('owner', 'agent', `${auditor}.${setting}`, value);
      expect(r.status, `${auditor}.${setting}`).toBe(422);
      expect(r.body.detail).toContain(detail);
    }
    const lockAtAgent = await lock('owner', 'agent', 'toxicity.threshold', 0.5);
    expect(lockAtAgent.status).toBe(422);
    expect(lockAtAgent.body.detail).toContain('locked');
    expect(await storedAgentSettings()).toEqual(before);
  });

  it('answers 400 for a missing or unknown scope and 404 for a tier that does not exist', async () => {
    expect((await fx.call('GET', PATH, { key: fx.keys.viewer })).status).toBe(400);
    expect((await fx.call('GET', `${PATH}?scope=galaxy`, { key: fx.keys.viewer })).status).toBe(400);
    expect((await fx.call('GET', `${PATH}?scope=org`, { key: fx.keys.viewer })).status).toBe(400);
    const missing = await fx.call('GET', `${PATH}?scope=org&organization=nope-${ns.name}`, {
      key: fx.keys.viewer,
    });
    expect(missing.status).toBe(404);
    const badId = await fx.call('GET', `${PATH}?scope=agent&agent_id=nodot`, { key: fx.keys.viewer });
    expect(badId.status).toBe(400);
    const bodyless = await fx.call('PUT', PATH, { key: fx.keys.owner, body: { scope: 'agent' } });
    expect(bodyless.status).toBe(400);
  });
});

describe('who may write which tier', () => {
  it('org tier: org admins only', async () => {
    for (const who of ['workspace_admin', 'owner', 'stranger'] as const) {
      expect((await put(who, 'org', 'toxicity.threshold', 0.5)).status, who).toBe(403);
    }
  });

  it('workspace tier: its admins, not agent owners', async () => {
    expect((await put('owner', 'workspace', 'toxicity.threshold', 0.5)).status).toBe(403);
    ok(await put('org_admin', 'workspace', 'toxicity.threshold', 0.6));
  });

  it('agent tier: the agent’s changers; a viewer or stranger is refused, a stranger may not read it', async () => {
    expect((await put('viewer', 'agent', 'toxicity.threshold', 0.5)).status).toBe(403);
    expect((await put('stranger', 'agent', 'toxicity.threshold', 0.5)).status).toBe(403);
    expect((await reset('viewer', 'agent', 'toxicity', 'insult_threshold')).status).toBe(403);
    expect((await get('stranger', 'agent')).status).toBe(403);
    expect((await fx.call('GET', `${PATH}?scope=agent&agent_id=${names.agentId}`)).status).toBe(401);
  });
});

// Decision 123: AuditorPolicy enforcement modes of the tiers above bound a save.
describe('enforcement modes of the policies above a tier', () => {
  const policy = (name: string, scope: 'org' | 'workspace', scopeId: string, detection: unknown) =>
    custom().createNamespacedCustomObject({
      ...ref(PLURAL.policy),
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AuditorPolicy',
        metadata: { name },
        spec: { scope, scopeId, detection },
      },
    });

  beforeAll(async () => {
    await policy('org-policy', 'org', names.org, {
      'toxicity.threat': { threat_threshold: { value: 0.7, enforcement: 'ceiling' } },
    });
    await policy('ws-policy', 'workspace', 'ws', {
      'toxicity.identity_attack': { identity_attack_threshold: { value: 0.5, enforcement: 'floor' } },
    });
  });

  afterAll(async () => {
    for (const name of ['org-policy', 'ws-policy']) {
      await custom()
        .deleteNamespacedCustomObject({ ...ref(PLURAL.policy), namespace: ns.name, name })
        .catch(() => undefined);
    }
  });

  it('refuses a workspace value over the org policy’s ceiling, naming setting, policy and rule; nothing written', async () => {
    const before = (await storedWorkspace()).spec.defaults?.auditorSettings;
    const r = await put('workspace_admin', 'workspace', 'toxicity.threat_threshold', 0.9);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('enforcement_violation');
    expect(r.body.detail).toContain('toxicity.threatThreshold breaks an AuditorPolicy enforcement mode');
    expect(r.body.detail).toContain(
      `detection.toxicity.threat.threat_threshold: enforcement mode 'ceiling' set by policy '${ns.name}.org-policy' requires a value <= 0.7; got 0.9`,
    );
    expect((await storedWorkspace()).spec.defaults?.auditorSettings).toEqual(before);
    ok(await put('workspace_admin', 'workspace', 'toxicity.threat_threshold', 0.6));
  });

  it('lets the org tier itself go beyond its own policies, and refuses a reset below that would inherit it', async () => {
    ok(await put('org_admin', 'org', 'toxicity.threat_threshold', 0.9));
    const before = (await storedWorkspace()).spec.defaults?.auditorSettings;
    const r = await reset('workspace_admin', 'workspace', 'toxicity', 'threat_threshold');
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('enforcement_violation');
    expect(r.body.detail).toMatch(/^a reset would inherit 0.9 from the org tier: toxicity.threatThreshold/);
    expect((await storedWorkspace()).spec.defaults?.auditorSettings).toEqual(before);
  });

  it('bounds the agent tier by its workspace’s policy (floor) too', async () => {
    const before = await storedAgentSettings();
    const low = await put('owner', 'agent', 'toxicity.identity_attack_threshold', 0.2);
    expect(low.status).toBe(422);
    expect(low.body.detail).toContain(`'floor' set by policy '${ns.name}.ws-policy' requires a value >= 0.5`);
    expect(await storedAgentSettings()).toEqual(before);
    ok(await put('owner', 'agent', 'toxicity.identity_attack_threshold', 0.6));
    expect((await storedAgentSettings())?.toxicity?.identityAttackThreshold).toEqual({ value: 0.6 });
  });
});

// Decision 124: a workspace-generated agent's tier is its workspace entry's.
describe('an agent a workspace generates', () => {
  const agentId = () => `${ns.name}.gen-bot`;
  const storedGen = async () =>
    (await custom().getNamespacedCustomObject({
      ...ref(PLURAL.workspace),
      namespace: ns.name,
      name: 'gen',
    })) as PlatformWorkspace;

  beforeAll(async () => {
    const gen = (await custom().createNamespacedCustomObject({
      ...ref(PLURAL.workspace),
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformWorkspace',
        metadata: { name: 'gen' },
        spec: { organization: names.org, agents: [{ name: 'gen-bot', owners: defaultOwners() }] },
      },
    })) as PlatformWorkspace;
    const ownerRef = {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'PlatformWorkspace',
      name: 'gen',
      uid: gen.metadata.uid,
      controller: true,
    };
    await custom().createNamespacedCustomObject({
      ...ref(PLURAL.agent),
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformAgent',
        metadata: { name: 'gen-bot', ownerReferences: [ownerRef] },
        spec: { owners: defaultOwners(), workspace: 'gen' },
      },
    });
  });

  it('saves and resets its agent-tier settings in the workspace entry the controller writes from', async () => {
    const body = { scope: 'agent', agent_id: agentId(), auditor_id: 'toxicity', setting: 'threshold' };
    ok(await fx.call('PUT', PATH, { key: fx.keys.owner, body: { ...body, value: 0.4 } }));
    const entry = (await storedGen()).spec.agents?.[0];
    expect(entry?.auditorSettings).toEqual({ toxicity: { threshold: { value: 0.4 } } });
    const seen = await fx.call('GET', `${PATH}?scope=agent&agent_id=${agentId()}`, { key: fx.keys.owner });
    expect(item(seen, 'toxicity', 'threshold')).toMatchObject({ value: 0.4, source: 'agent' });
    const query = new URLSearchParams(body).toString();
    ok(await fx.call('DELETE', `${PATH}?${query}`, { key: fx.keys.owner }));
    expect((await storedGen()).spec.agents?.[0]?.auditorSettings).toBeUndefined();
  });
});
