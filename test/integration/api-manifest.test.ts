// The Access Manifest enforced over the API (decisions 139, 140): an
// Organization's manifest, narrowed by its workspace, refuses consent requests
// beyond its account domain, caps the grant's TTL, and keeps apps outside its
// tools domain from being installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCatalogEntry, ConsentRequest } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { SUBJECTS, defaultOwners, useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-manifest');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const REF = { group: GROUP, version: VERSION };
const names = { org: '', allowedApp: '', deniedApp: '' };
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

const app = (name: string): AppCatalogEntry => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'AppCatalogEntry',
  metadata: { name },
  spec: { displayName: name, category: 'MCP Servers', type: 'mcp_server' },
});

beforeAll(async () => {
  names.org = `org-${ns.name}`;
  names.allowedApp = `${ns.name}-wiki`;
  names.deniedApp = `${ns.name}-shell`;
  for (const name of [names.allowedApp, names.deniedApp])
    await custom().createClusterCustomObject({ ...REF, plural: PLURAL.appCatalogEntry, body: app(name) });
  await custom().createClusterCustomObject({
    ...REF,
    plural: PLURAL.organization,
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'Organization',
      metadata: { name: names.org },
      spec: {
        homeNamespace: ns.name,
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
        },
      },
    },
  });
  await custom().createNamespacedCustomObject({
    ...REF,
    plural: PLURAL.workspace,
    namespace: ns.name,
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'PlatformWorkspace',
      metadata: { name: 'ws' },
      spec: {
        organization: names.org,
        // Narrowing only: a shorter TTL holds; the denied app stays denied.
        accessManifest: {
          account: { services: [{ service: 'slack', maxDelegationTtl: '30m' }] },
          tools: { allowed: [names.allowedApp, names.deniedApp] },
        },
      },
    },
  });
  await fx.createAgent('worker', defaultOwners(), { workspace: 'ws' });
  await fx.until(`/v1/agents/${agentId()}`, (r) => r.status === 200);
  for (const name of [names.allowedApp, names.deniedApp])
    await fx.until(`/v1/app-catalog/${name}`, (r) => r.status === 200, 'viewer');
});

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ ...REF, plural: PLURAL.organization, name: names.org })
    .catch(() => undefined);
  for (const name of [names.allowedApp, names.deniedApp])
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
