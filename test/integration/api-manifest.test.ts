// The Access Manifest enforced over the API (decisions 139, 140, 153): an
// Organization's manifest, narrowed by its workspace, refuses consent requests
// beyond its account domain, caps the grant's TTL, keeps apps outside its
// tools, data and network domains from being installed, rules the actions an
// agent asks approval for, and is readable by the agent's sharers and its own
// Gateway key (which the credential proxy uses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MintRequest } from '../../api/auth/key-store.ts';
import type { AppCatalogEntry, ConsentRequest } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { SUBJECTS, createTiers, defaultOwners, useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-manifest');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const REF = { group: GROUP, version: VERSION };
const names = { org: '', allowedApp: '', deniedApp: '', piiApp: '', pasteApp: '', gatewayKey: '' };
const agentId = (): string => `${ns.name}.worker`;
const delegations = (): string => `/v1/agents/${agentId()}/delegations`;

const ask = (body: Record<string, unknown>) =>
  fx.call('POST', `${delegations()}/pending`, {
    key: fx.keys.editor,
    body: { user: SUBJECTS.viewer, ...body },
  });

const consentsInCluster = async (): Promise<ConsentRequest[]> =>
  (
    (await custom().listNamespacedCustomObject({ ...REF, plural: PLURAL.consent, namespace: ns.name })) as {
      items: ConsentRequest[];
    }
  ).items;

const app = (name: string, extra: Partial<AppCatalogEntry['spec']> = {}): AppCatalogEntry => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'AppCatalogEntry',
  metadata: { name },
  spec: { displayName: name, category: 'MCP Servers', type: 'mcp_server', ...extra },
});
const appNames = () => [names.allowedApp, names.deniedApp, names.piiApp, names.pasteApp];

beforeAll(async () => {
  names.org = `org-${ns.name}`;
  names.allowedApp = `${ns.name}-wiki`;
  names.deniedApp = `${ns.name}-shell`;
  names.piiApp = `${ns.name}-crm`;
  names.pasteApp = `${ns.name}-paste`;
  const specs: Record<string, Partial<AppCatalogEntry['spec']>> = {
    [names.piiApp]: { dataClasses: ['source-code', 'pii'] },
    [names.pasteApp]: { serverUrl: 'https://paste.evil.example/mcp' },
  };
  for (const name of appNames())
    await custom().createClusterCustomObject({
      ...REF,
      plural: PLURAL.appCatalogEntry,
      body: app(name, specs[name]),
    });
  await createTiers({
    org: names.org,
    homeNamespace: ns.name,
    namespace: ns.name,
    orgSpec: {
      accessManifest: {
        account: {
          services: [
            {
              service: 'slack',
              allowedScopes: ['chat:read', 'chat:write'],
              deniedScopes: ['chat:write'],
              maxDelegationTtl: '8h',
            },
          ],
        },
        tools: { denied: [names.deniedApp] },
        data: { deniedClasses: ['pii'] },
        network: { deniedHosts: ['*.evil.example'] },
        actions: { approvalRequired: ['publish'], denied: ['merge'] },
      },
    },
    // Narrowing only: a shorter TTL holds; the denied app stays denied.
    workspaceSpec: {
      accessManifest: {
        account: { services: [{ service: 'slack', maxDelegationTtl: '30m' }] },
        tools: { allowed: appNames() },
      },
    },
  });
  await fx.createAgent('worker', defaultOwners(), { workspace: 'ws' });
  await fx.until(`/v1/agents/${agentId()}`, (r) => r.status === 200);
  for (const name of appNames()) await fx.until(`/v1/app-catalog/${name}`, (r) => r.status === 200, 'viewer');
  const minted = await fx.api.deps.keys.mint(
    {
      subject: `gateway:${agentId()}`,
      role: 'gateway',
      workspaces: [],
      agents: [agentId()],
      description: 'test',
    } as MintRequest,
    'test',
  );
  names.gatewayKey = minted.key;
});

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ ...REF, plural: PLURAL.organization, name: names.org })
    .catch(() => undefined);
  for (const name of appNames())
    await custom()
      .deleteClusterCustomObject({ ...REF, plural: PLURAL.appCatalogEntry, name })
      .catch(() => undefined);
});

describe('the account domain', () => {
  it('refuses a consent request beyond it with 422 and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ service: 'slack', scopes: ['chat:read', 'chat:write'] }, 'scope_not_permitted'],
      [{ service: 'slack', scopes: ['admin'] }, 'scope_not_permitted'],
      [{ service: 'github', scopes: ['repo'] }, 'service_not_permitted'],
      [{ service: 'slack', scopes: ['chat:read'], ttl: '1h' }, 'ttl_too_long'],
    ];
    for (const [body, code] of cases) {
      const r = await ask(body);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.code).toBe(code);
    }
    expect(await consentsInCluster()).toEqual([]);
  });

  it("caps the grant's TTL at the workspace's narrower maximum", async () => {
    const asked = await ask({ service: 'slack', scopes: ['chat:read'] });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const id = String(asked.body.id);
    await fx.until(
      `${delegations()}/pending`,
      (g) => (g.body.items ?? []).some((c) => c.id === id),
      'viewer',
    );
    const granted = await fx.call('POST', delegations(), { key: fx.keys.viewer, body: { consent_id: id } });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    expect(granted.body).toMatchObject({
      service: 'slack',
      scopes: ['chat:read'],
      ttl: '30m',
      phase: 'active',
    });
    const span = Date.parse(String(granted.body.expires_at)) - Date.parse(String(granted.body.granted_at));
    expect(span).toBe(30 * 60_000);
  });
});

describe('the tools domain', () => {
  const install = (appId: string) =>
    fx.call('POST', `/v1/app-catalog/agents/${agentId()}/install`, {
      key: fx.keys.editor,
      body: { app_id: appId },
    });

  it('refuses an app the organization denies, though the workspace lists it: 403 tool_not_permitted', async () => {
    const r = await install(names.deniedApp);
    expect(r).toMatchObject({ status: 403, body: { code: 'tool_not_permitted' } });
    expect(r.body.detail).toContain(names.deniedApp);
  });

  it('installs an app both tiers permit', async () => {
    const r = await install(names.allowedApp);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });
});

describe('the data and network domains, at install', () => {
  const install = (appId: string) =>
    fx.call('POST', `/v1/app-catalog/agents/${agentId()}/install`, {
      key: fx.keys.editor,
      body: { app_id: appId },
    });

  it('refuses an app that reads a data class the manifest denies: 403 data_class_not_permitted', async () => {
    const r = await install(names.piiApp);
    expect(r).toMatchObject({ status: 403, body: { code: 'data_class_not_permitted' } });
    expect(r.body.detail).toContain('pii');
  });

  it('refuses an app whose server is on a host the manifest denies: 403 host_not_permitted', async () => {
    const r = await install(names.pasteApp);
    expect(r).toMatchObject({ status: 403, body: { code: 'host_not_permitted' } });
    expect(r.body.detail).toContain('paste.evil.example');
  });
});

describe('the actions domain', () => {
  const act = (action: string) =>
    fx.call('POST', `/v1/agents/${agentId()}/actions`, {
      key: fx.keys.editor,
      body: { action, target: 'repo/main' },
    });

  it('refuses a denied action outright (403 action_not_permitted) and writes no request', async () => {
    const r = await act('merge');
    expect(r).toMatchObject({ status: 403, body: { code: 'action_not_permitted' } });
    const approvals = await fx.call('GET', '/v1/approvals?status=all', { key: fx.keys.owner });
    expect((approvals.body.items ?? []).filter((a) => a.action === 'merge')).toEqual([]);
  });

  it('asks an Owner for an action the manifest names, like a high-risk one', async () => {
    for (const action of ['publish', 'delete']) {
      const r = await act(action);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body.approval).toMatchObject({ action, phase: 'pending' });
    }
  });

  it('answers 422 approval_not_required for an action that needs no approval', async () => {
    const r = await act('read');
    expect(r).toMatchObject({ status: 422, body: { code: 'approval_not_required' } });
  });
});

describe('GET /v1/agents/{agent_id}/access-manifest', () => {
  const path = () => `/v1/agents/${agentId()}/access-manifest`;

  it('shows each tier as written and the combined bounds', async () => {
    const r = await fx.call('GET', path(), { key: fx.keys.viewer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      agent_id: agentId(),
      organization: { name: names.org, access_manifest: { data: { deniedClasses: ['pii'] } } },
      workspace: { name: 'ws' },
      effective: {
        network: { allowed: [], denied: ['*.evil.example'] },
        tools: { allowed: [appNames()], denied: [names.deniedApp] },
        actions: { approval_required: ['publish'], denied: ['merge'] },
        account: {
          services: [{ service: 'slack', max_delegation_ttl_seconds: 1800, consent_required: true }],
        },
      },
    });
  });

  it("is readable by the agent's own Gateway key and by no other agent's", async () => {
    const own = await fx.call('GET', path(), { key: names.gatewayKey });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const other = await fx.api.deps.keys.mint(
      {
        subject: 'gateway:elsewhere',
        role: 'gateway',
        workspaces: [],
        agents: [`${ns.name}.other`],
        description: 'test',
      } as MintRequest,
      'test',
    );
    const r = await fx.call('GET', path(), { key: other.key });
    expect(r.status).toBe(403);
  });
});
