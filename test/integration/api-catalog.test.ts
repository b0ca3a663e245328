// The app catalog over HTTP (in-process API, real apiserver) with a running
// operator: list and filters, details, install (an AgentInstalledApp owned
// by the agent, the install count, the auditor in the agent's chain),
// reinstall, uninstall reversing it all, who may do what, and bad input
// answered with a clear 4xx and nothing written; for an agent in a workspace
// of an organization, the tool cascade (a blocked tool refused 403, a
// required one pre-installed and not removable 409), secrets in overrides
// refused 422, and its MCP tools and A2A connections in its status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentInstalledApp, AppCatalogEntry } from '../../crds/generated/types.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { createTiers, defaultOwners, useApi, type Reply } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator } from './operator-process.ts';
import { issueCa } from '../../base/tls/certs.ts';
import { startResourceServer, type ResourceServerFixture } from './oauth-servers.ts';

const ns = useNamespace('api-catalog');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const CATALOG = { group: GROUP, version: VERSION, plural: PLURAL.appCatalogEntry };
const INSTALLS = { group: GROUP, version: VERSION, plural: PLURAL.installedApp };
const names = {
  scanner: '',
  github: '',
  auditor: '',
  plain: '',
  keyed: '',
  agent: '',
  org: '',
  jira: '',
  banned: '',
  planner: '',
};

const entry = (name: string, spec: AppCatalogEntry['spec']): AppCatalogEntry => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'AppCatalogEntry',
  metadata: { name },
  spec,
});

const installsInCluster = async (): Promise<AgentInstalledApp[]> =>
  (
    (await custom().listNamespacedCustomObject({ ...INSTALLS, namespace: ns.name })) as {
      items: AgentInstalledApp[];
    }
  ).items;

const storedCount = async (name: string): Promise<number | undefined> =>
  ((await custom().getClusterCustomObject({ ...CATALOG, name })) as AppCatalogEntry).status?.installCount;

const chainOf = (r: Reply): string[] => (r.body.status as { chain?: string[] } | undefined)?.chain ?? [];

beforeAll(async () => {
  names.scanner = `${ns.name}-scanner`;
  names.github = `${ns.name}-github`;
  names.auditor = `scan-${ns.name}`.slice(0, 63);
  names.keyed = `keyed-${ns.name}`.slice(0, 63);
  names.plain = `plain-${ns.name}`.slice(0, 63);
  await custom().createClusterCustomObject({
    ...CATALOG,
    body: entry(names.scanner, {
      displayName: 'Secrets scanner',
      description: 'Flags credentials',
      category: 'Auditors',
      type: 'auditor',
      auditorId: names.auditor,
      auditorRequirements: ['injection'],
      trustTier: 'key_authenticated',
    }),
  });
  await custom().createClusterCustomObject({
    ...CATALOG,
    body: entry(names.github, {
      displayName: 'GitHub',
      category: 'MCP Servers',
      type: 'mcp_server',
      requiredPermissions: ['repo:read'],
      mcpMetadata: { scopes: ['repo'], authorizationServers: ['https://auth.example.com'] },
    }),
  });
  // A registered auditor: the agent's chain is written to its status only when every auditor is known.
  const reg = await fx.call('POST', '/v1/auditors/register', {
    key: fx.keys.org_admin,
    body: {
      auditor_id: names.auditor,
      endpoint: 'https://scan.example.com',
      deployment_mode: 'external',
      auth: { type: 'none' },
    },
  });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  // One the injected gateway cannot reach yet (mTLS: no client certificate in the pod).
  const keyed = await fx.call('POST', '/v1/auditors/register', {
    key: fx.keys.org_admin,
    body: {
      auditor_id: names.keyed,
      endpoint: 'https://keyed.example.com',
      deployment_mode: 'external',
      auth: { type: 'mtls', cert_pem: issueCa(new Date(), 30).certPem },
    },
  });
  expect(keyed.status, JSON.stringify(keyed.body)).toBe(200);
  // One no AppCatalogEntry lists: the catalog derives its app (decision 131).
  const plain = await fx.call('POST', '/v1/auditors/register', {
    key: fx.keys.org_admin,
    body: {
      auditor_id: names.plain,
      endpoint: 'https://plain.example.com',
      deployment_mode: 'external',
      auth: { type: 'none' },
    },
  });
  expect(plain.status, JSON.stringify(plain.body)).toBe(200);
  const operator = await startOperator({
    namespace: ns.name,
    identity: 'api-catalog-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
  names.agent = await fx.createAgent('cataloged');
  await fx.until(`/v1/app-catalog/${names.github}`, (r) => r.status === 200, 'viewer');
  await fx.until(`/v1/app-catalog/${names.scanner}`, (r) => r.status === 200, 'viewer');
});

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ ...CATALOG, plural: PLURAL.organization, name: names.org })
    .catch(() => undefined);
  for (const name of [names.scanner, names.github, names.jira, names.banned, names.planner])
    await custom()
      .deleteClusterCustomObject({ ...CATALOG, name })
      .catch(() => undefined);
  for (const name of [names.auditor, names.keyed, names.plain])
    await custom()
      .deleteClusterCustomObject({ ...CATALOG, plural: PLURAL.auditor, name })
      .catch(() => undefined);
});

describe('the catalog', () => {
  it('lists the built-in auditors beside the entries, filtered by type, category and search', async () => {
    const all = await fx.call('GET', '/v1/app-catalog', { key: fx.keys.stranger });
    expect(all.status).toBe(200);
    const ids = all.body.items!.map((a) => a.app_id);
    expect(ids).toEqual(
      expect.arrayContaining(['builtin-injection', 'builtin-llm-judge', names.scanner, names.github]),
    );
    const auditors = await fx.call('GET', '/v1/app-catalog?type=auditor', { key: fx.keys.viewer });
    expect(auditors.body.items!.map((a) => a.app_id)).toContain(names.scanner);
    expect(auditors.body.items!.map((a) => a.app_id)).not.toContain(names.github);
    const mcp = await fx.call('GET', `/v1/app-catalog?category=MCP%20Servers&search=${ns.name}`, {
      key: fx.keys.viewer,
    });
    expect(mcp.body.items!.map((a) => a.app_id)).toEqual([names.github]);
    const bad = await fx.call('GET', '/v1/app-catalog?type=plugin', { key: fx.keys.viewer });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_query' } });
    expect(bad.body.detail).toContain('unknown type');
    expect((await fx.call('GET', '/v1/app-catalog')).status).toBe(401);
  });

  it('shows one app with its permissions and MCP metadata; an unknown one is 404', async () => {
    const got = await fx.call('GET', `/v1/app-catalog/${names.github}`, { key: fx.keys.viewer });
    expect(got.body).toMatchObject({
      app_id: names.github,
      name: 'GitHub',
      type: 'mcp_server',
      category: 'MCP Servers',
      trust_tier: 'unverified',
      builtin: false,
      required_permissions: ['repo:read'],
      install_count: 0,
      mcp_metadata: { scopes: ['repo'], authorization_servers: ['https://auth.example.com'] },
    });
    const builtin = await fx.call('GET', '/v1/app-catalog/builtin-toxicity', { key: fx.keys.viewer });
    expect(builtin.body).toMatchObject({ type: 'auditor', builtin: true, auditor_id: 'toxicity' });
    const missing = await fx.call('GET', `/v1/app-catalog/${ns.name}-nope`, { key: fx.keys.viewer });
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});

describe('installing on an agent', () => {
  const path = (): string => `/v1/app-catalog/agents/${names.agent}`;

  it('refuses a Viewer and bad bodies, writing nothing', async () => {
    const viewer = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.viewer,
      body: { app_id: names.scanner },
    });
    expect(viewer.status).toBe(403);
    for (const body of [
      {},
      { app_id: names.scanner, extra: 1 },
      { app_id: 'Bad Id' },
      { app_id: names.scanner, configuration: 'x' },
    ]) {
      const r = await fx.call('POST', `${path()}/install`, { key: fx.keys.editor, body });
      expect(r, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
      expect(r.body.detail).toContain('body');
    }
    const unknown = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.editor,
      body: { app_id: `${ns.name}-nope` },
    });
    expect(unknown).toMatchObject({ status: 422, body: { code: 'unknown_app' } });
    expect(await installsInCluster()).toEqual([]);
    const noApp = await fx.call('DELETE', `${path()}/uninstall`, { key: fx.keys.editor });
    expect(noApp).toMatchObject({ status: 400, body: { code: 'invalid_query' } });
  });

  it("installs an auditor app: an owned install, its count, and the auditor in the agent's chain", async () => {
    const r = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.editor,
      body: { app_id: names.scanner, configuration: { threshold: 0.7 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      agent_id: names.agent,
      app_id: names.scanner,
      type: 'auditor',
      configuration: { threshold: 0.7 },
    });
    const [stored] = await installsInCluster();
    expect(stored?.spec).toMatchObject({ agent: 'cataloged', app: names.scanner });
    expect(stored?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformAgent', name: 'cataloged' });
    expect(await storedCount(names.scanner)).toBe(1);
    await fx.until(`/v1/app-catalog/${names.scanner}`, (g) => g.body.install_count === 1, 'viewer');
    const listed = await fx.until(`${path()}/installed`, (g) => (g.body.items ?? []).length === 1, 'viewer');
    expect(listed.body.items![0]).toMatchObject({ app_id: names.scanner, configuration: { threshold: 0.7 } });
    const agent = await fx.until(
      `/v1/agents/${names.agent}`,
      (g) => chainOf(g).includes(names.auditor),
      'owner',
    );
    expect(chainOf(agent)).toEqual(expect.arrayContaining(['injection', names.auditor]));

    const again = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.owner,
      body: { app_id: names.scanner, configuration: { threshold: 0.9 } },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.configuration).toEqual({ threshold: 0.9 });
    expect(await installsInCluster()).toHaveLength(1);
  });

  it('uninstalls: the install, the count and the auditor go; a second uninstall is 404', async () => {
    const viewer = await fx.call('DELETE', `${path()}/uninstall?app_id=${names.scanner}`, {
      key: fx.keys.viewer,
    });
    expect(viewer.status).toBe(403);
    const r = await fx.call('DELETE', `${path()}/uninstall?app_id=${names.scanner}`, { key: fx.keys.editor });
    expect(r).toMatchObject({ status: 200, body: { app_id: names.scanner, uninstalled: true } });
    await eventually(
      async () => ((await installsInCluster()).length === 0 ? true : undefined),
      'install gone',
    );
    expect(await storedCount(names.scanner)).toBe(0);
    await fx.until(`/v1/agents/${names.agent}`, (g) => !chainOf(g).includes(names.auditor), 'owner');
    await fx.until(`${path()}/installed`, (g) => (g.body.items ?? []).length === 0, 'viewer');
    const twice = await fx.call('DELETE', `${path()}/uninstall?app_id=${names.scanner}`, {
      key: fx.keys.editor,
    });
    expect(twice).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
  it('says why an installed auditor the pod cannot reach blocks the chain (ChainValid AuditorNotWireable)', async () => {
    const appId = `registered-${names.keyed}`;
    const r = await fx.call('POST', `${path()}/install`, { key: fx.keys.editor, body: { app_id: appId } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const conditionOf = (g: Reply): { reason?: string; message?: string } | undefined =>
      (
        g.body.status as { conditions?: { type: string; reason?: string; message?: string }[] } | undefined
      )?.conditions?.find((c) => c.type === 'ChainValid');
    const agent = await fx.until(
      `/v1/agents/${names.agent}`,
      (g) => conditionOf(g)?.reason === 'AuditorNotWireable',
      'owner',
    );
    expect(conditionOf(agent)?.message).toMatch(
      new RegExp(`auditor ${names.keyed} is reached with mtls auth`),
    );
    const gone = await fx.call('DELETE', `${path()}/uninstall?app_id=${appId}`, { key: fx.keys.editor });
    expect(gone.status).toBe(200);
    await fx.until(
      `/v1/agents/${names.agent}`,
      (g) => conditionOf(g)?.reason !== 'AuditorNotWireable',
      'owner',
    );
  });

  it('lists a registered auditor as the app registered-<id>, and installing it puts the auditor in the chain', async () => {
    const appId = `registered-${names.plain}`;
    const listed = await fx.call('GET', `/v1/app-catalog?type=auditor`, { key: fx.keys.viewer });
    const ids = (listed.body.items as { app_id: string }[]).map((a) => a.app_id);
    // The auditor the curated entry lists appears once, under that entry's name.
    expect(ids).toContain(names.scanner);
    expect(ids).not.toContain(`registered-${names.auditor}`);
    const app = (listed.body.items as { app_id: string }[]).find((a) => a.app_id === appId);
    expect(app).toMatchObject({
      type: 'auditor',
      category: 'Auditors',
      auditor_id: names.plain,
      builtin: false,
    });
    const r = await fx.call('POST', `${path()}/install`, { key: fx.keys.editor, body: { app_id: appId } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await fx.until(`/v1/agents/${names.agent}`, (g) => chainOf(g).includes(names.plain), 'owner');
    const gone = await fx.call('DELETE', `${path()}/uninstall?app_id=${appId}`, { key: fx.keys.editor });
    expect(gone.status).toBe(200);
    await fx.until(`/v1/agents/${names.agent}`, (g) => !chainOf(g).includes(names.plain), 'owner');
  });
});

describe('the tool cascade, secrets and connections of an agent in a workspace', () => {
  const wsAgent = (): string => `${ns.name}.worker`;
  const path = (): string => `/v1/app-catalog/agents/${wsAgent()}`;
  const workerInstalls = async (): Promise<AgentInstalledApp[]> =>
    (await installsInCluster()).filter((i) => i.spec.agent === 'worker');
  const tool = (name: string, scope: 'org' | 'workspace', enforcement: string) =>
    custom().createNamespacedCustomObject({
      ...CATALOG,
      plural: PLURAL.toolInstall,
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'ScopedToolInstall',
        metadata: { name: `${scope}-${name}`.slice(0, 63) },
        spec: { scope, scopeId: scope === 'org' ? names.org : 'ws', tool: name, enforcement },
      },
    });
  type Status = { tools?: Record<string, unknown>[]; a2aConnections?: Record<string, unknown>[] };
  // Jira's MCP server: on loopback, without RFC 9728 metadata (its install asks for a connect step).
  let jiraServer: ResourceServerFixture | undefined;
  const jiraUrl = (): string => jiraServer?.serverUrl ?? '';
  afterAll(async () => {
    await jiraServer?.close();
  });
  const statusOf = (r: Reply): Status => (r.body.status as Status | undefined) ?? {};

  beforeAll(async () => {
    names.org = `org-${ns.name}`;
    names.jira = `${ns.name}-jira`;
    names.banned = `${ns.name}-banned`;
    names.planner = `${ns.name}-planner`;
    jiraServer = await startResourceServer(undefined);
    const mcp = { category: 'MCP Servers', type: 'mcp_server' } as const;
    for (const [name, spec] of [
      [names.jira, { displayName: 'Jira', ...mcp, serverUrl: jiraUrl() }],
      [names.banned, { displayName: 'Banned', ...mcp }],
      [
        names.planner,
        {
          displayName: 'Planner',
          category: 'A2A Agents',
          type: 'a2a_agent',
          serverUrl: 'https://a2a.example/',
        },
      ],
    ] as const) {
      await custom().createClusterCustomObject({ ...CATALOG, body: entry(name, spec) });
    }
    await createTiers({ org: names.org, homeNamespace: ns.name, namespace: ns.name });
    await tool(names.jira, 'org', 'required');
    await tool(names.banned, 'workspace', 'blocked');
    await fx.createAgent('worker', defaultOwners(), { workspace: 'ws' });
    await fx.until(`/v1/app-catalog/${names.planner}`, (r) => r.status === 200, 'viewer');
    await fx.until(`/v1/agents/${wsAgent()}`, (r) => r.status === 200);
  });

  it('refuses a tool its workspace blocks: 403 tool_blocked, nothing written', async () => {
    const r = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.editor,
      body: { app_id: names.banned },
    });
    expect(r).toMatchObject({ status: 403, body: { code: 'tool_blocked' } });
    expect(r.body.detail).toContain(`blocked by workspace ws`);
    expect(await workerInstalls()).toEqual([]);
  });

  it('refuses a secret in the overrides: 422, the key named, the value never echoed, nothing written', async () => {
    for (const configuration of [
      { auth: { apiKey: 'hunter2-value' } },
      { header: 'Bearer abcdefghijklmnop123' },
    ]) {
      const r = await fx.call('POST', `${path()}/install`, {
        key: fx.keys.editor,
        body: { app_id: names.github, configuration },
      });
      expect(r).toMatchObject({ status: 422, body: { code: 'secret_in_configuration' } });
      expect(r.body.detail).toContain('ScopedCredential');
      expect(JSON.stringify(r.body)).not.toMatch(/hunter2|abcdefghijklmnop123/);
    }
    expect(await workerInstalls()).toEqual([]);
  });

  it('lists its MCP tools (installed and required by the org) and A2A connections in status', async () => {
    for (const app_id of [names.github, names.planner]) {
      const r = await fx.call('POST', `${path()}/install`, { key: fx.keys.editor, body: { app_id } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const agent = await fx.until(
      `/v1/agents/${wsAgent()}`,
      (g) => (statusOf(g).tools ?? []).length === 2 && (statusOf(g).a2aConnections ?? []).length === 1,
      'owner',
    );
    expect(statusOf(agent).tools).toEqual([
      { name: names.github, source: 'app', app: names.github },
      { name: names.jira, serverUrl: jiraUrl(), source: 'org', app: names.jira },
    ]);
    expect(statusOf(agent).a2aConnections).toEqual([
      { name: names.planner, app: names.planner, url: 'https://a2a.example/' },
    ]);
    const gone = await fx.call('DELETE', `${path()}/uninstall?app_id=${names.planner}`, {
      key: fx.keys.editor,
    });
    expect(gone.status).toBe(200);
    await fx.until(
      `/v1/agents/${wsAgent()}`,
      (g) => (statusOf(g).a2aConnections ?? []).length === 0,
      'owner',
    );
  });

  it('refuses to uninstall a tool its organization requires: 409 app_required, the install kept', async () => {
    const installed = await fx.call('POST', `${path()}/install`, {
      key: fx.keys.editor,
      body: { app_id: names.jira },
    });
    expect(installed.status).toBe(201);
    const r = await fx.call('DELETE', `${path()}/uninstall?app_id=${names.jira}`, { key: fx.keys.owner });
    expect(r).toMatchObject({ status: 409, body: { code: 'app_required' } });
    expect(r.body.detail).toContain(`required by organization ${names.org}`);
    expect((await workerInstalls()).map((i) => i.spec.app)).toContain(names.jira);
  });
});
