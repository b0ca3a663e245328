// The MCP tool install flow over HTTP (in-process API, real apiserver) against
// a loopback OAuth authorization server and loopback MCP servers: a blocked
// tool is refused (step 1); an enforced ScopedCredential is routed without
// registration (step 2); RFC 9728 + RFC 8414 metadata lead to an RFC 7591
// registration with the agent's SVID and a client_credentials rule, the
// registered client then obtaining a token with its SVID (step 3); no metadata
// asks for a connect step (step 4). Metadata that lies, registration errors,
// and floods are a clear 5xx with nothing written; a client secret the AS
// issues anyway is kept encrypted beside the agent, never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentInstalledApp } from '../../crds/generated/types.ts';
import { decrypt, keyringFromData } from '../../base/crypto/envelope.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { defaultOwners, useApi, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { JWT_SPIFFE, form, makeClient, svid, trustKey } from './oauth-client.ts';
import {
  metadataOf,
  startAuthorizationServer,
  startResourceServer,
  type AuthorizationServerFixture,
  type ResourceServerFixture,
} from './oauth-servers.ts';

const TD = 'install.test';
const ns = useNamespace('api-install-flow');
const fx = useApi(ns, () => ({
  PLATFORM_TRUST_DOMAIN: TD,
  PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
}));
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const ref = (plural: string) => ({ group: GROUP, version: VERSION, plural });
const AGENT = 'tooled';
const agentId = (): string => `${ns.name}.${AGENT}`;
const installPath = (): string => `/v1/app-catalog/agents/${agentId()}/install`;
const servers: {
  as?: AuthorizationServerFixture;
  mcp?: ResourceServerFixture;
  bare?: ResourceServerFixture;
} = {};
const apps: string[] = [];
let spiffeId = '';

const meta = (kind: string, name: string, namespace?: string) => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
});

/** A catalog entry for an MCP server at `serverUrl`, waited for in the API's cache; its id. */
async function mcpApp(suffix: string, serverUrl: string, service?: string): Promise<string> {
  const name = `${ns.name}-${suffix}`;
  await custom().createClusterCustomObject({
    ...ref(PLURAL.appCatalogEntry),
    body: {
      ...meta('AppCatalogEntry', name),
      spec: {
        displayName: suffix,
        category: 'MCP Servers',
        type: 'mcp_server',
        serverUrl,
        ...(service ? { service } : {}),
      },
    },
  });
  apps.push(name);
  await fx.until(`/v1/app-catalog/${name}`, (r) => r.status === 200);
  return name;
}

const install = (appId: string): Promise<Reply> =>
  fx.call('POST', installPath(), { key: fx.keys.editor, body: { app_id: appId } });

async function storedInstall(appId: string): Promise<AgentInstalledApp | undefined> {
  const list = (await custom().listNamespacedCustomObject({
    ...ref(PLURAL.installedApp),
    namespace: ns.name,
  })) as { items: AgentInstalledApp[] };
  return list.items.find((i) => i.spec.app === appId);
}

async function expectRefusedAndNothingWritten(appId: string, status: number, code: string): Promise<Reply> {
  const r = await install(appId);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
  expect(await storedInstall(appId)).toBeUndefined();
  return r;
}

beforeAll(async () => {
  await trustKey(ns.name, TD);
  const org = `org-${ns.name}`;
  await custom().createClusterCustomObject({
    ...ref(PLURAL.organization),
    body: { ...meta('Organization', org), spec: { homeNamespace: ns.name } },
  });
  await custom().createNamespacedCustomObject({
    ...ref(PLURAL.workspace),
    namespace: ns.name,
    body: { ...meta('PlatformWorkspace', 'ws', ns.name), spec: { organization: org } },
  });
  await fx.createAgent(AGENT, defaultOwners(), { workspace: 'ws' });
  spiffeId = await makeClient(fx, agentId(), TD);
  servers.as = await startAuthorizationServer({ trustJwksUrl: `${fx.api.url}/oauth/jwks`, trustDomain: TD });
  servers.mcp = await startResourceServer(servers.as.issuer);
  servers.bare = await startResourceServer(undefined);
}, 60_000);

afterAll(async () => {
  for (const s of Object.values(servers)) await s?.close();
  for (const name of apps)
    await custom()
      .deleteClusterCustomObject({ ...ref(PLURAL.appCatalogEntry), name })
      .catch(() => undefined);
  await custom()
    .deleteClusterCustomObject({ ...ref(PLURAL.organization), name: `org-${ns.name}` })
    .catch(() => undefined);
});

describe('the MCP tool install flow', () => {
  it('step 1: refuses a tool the workspace blocks (403 tool_blocked) without contacting its server', async () => {
    const app = await mcpApp('blocked', servers.mcp!.serverUrl);
    await custom().createNamespacedCustomObject({
      ...ref(PLURAL.toolInstall),
      namespace: ns.name,
      body: {
        ...meta('ScopedToolInstall', 'ws-blocked', ns.name),
        spec: { scope: 'workspace', scopeId: 'ws', tool: app, enforcement: 'blocked' },
      },
    });
    const hits = servers.mcp!.hits.length;
    await expectRefusedAndNothingWritten(app, 403, 'tool_blocked');
    expect(servers.mcp!.hits.length).toBe(hits);
  });

  it('step 2: routes an enforced credential of the service, skipping registration and discovery', async () => {
    const service = `svc-${ns.name}`;
    await custom().createNamespacedCustomObject({
      ...ref(PLURAL.credential),
      namespace: ns.name,
      body: {
        ...meta('ScopedCredential', 'enforced-key', ns.name),
        spec: {
          scope: 'workspace',
          scopeId: 'ws',
          service,
          type: 'oauth_flow',
          sharingMode: 'enforce',
        },
      },
    });
    const app = await mcpApp('enforced', servers.mcp!.serverUrl, service);
    const [asHits, mcpHits] = [servers.as!.hits.length, servers.mcp!.hits.length];
    const r = await install(app);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.auth).toEqual({
      method: 'enforced_credential',
      status: 'connected',
      credential_ref: 'enforced-key',
      credential_scope: 'workspace',
    });
    expect(r.body.credential_routing).toEqual([
      {
        destination: '127.0.0.1',
        credential_ref: 'enforced-key',
        injection_method: 'sidecar',
        approval: 'auto',
      },
    ]);
    expect([servers.as!.hits.length, servers.mcp!.hits.length]).toEqual([asHits, mcpHits]);
    expect((await storedInstall(app))?.spec.credentialRouting).toEqual([
      {
        destination: '127.0.0.1',
        credentialRef: 'enforced-key',
        injectionMethod: 'sidecar',
        approval: 'auto',
      },
    ]);
  });

  it('step 3: registers the agent with its SVID and routes client_credentials to the token endpoint', async () => {
    const app = await mcpApp('registered', servers.mcp!.serverUrl);
    const r = await install(app);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const auth = r.body.auth as Record<string, string>;
    const issuer = servers.as!.issuer;
    expect(auth).toMatchObject({
      method: 'client_credentials',
      status: 'connected',
      token_endpoint: `${issuer}/token`,
    });
    expect(servers.as!.clients.get(auth.client_id!)).toBe(spiffeId);
    expect(r.body.credential_routing).toEqual([
      { destination: '127.0.0.1', injection_method: 'client_credentials', approval: 'auto' },
    ]);
    expect(r.body.mcp_metadata).toEqual({
      authorization_servers: [issuer],
      scopes: ['tools.read'],
      resource_indicators: [servers.mcp!.serverUrl],
      token_endpoint: `${issuer}/token`,
    });
    const stored = await storedInstall(app);
    expect(stored?.spec.auth).toMatchObject({ method: 'client_credentials', clientId: auth.client_id });
    expect(stored?.spec.mcpMetadata).toMatchObject({ issuer, registrationEndpoint: `${issuer}/register` });
    // The rule is usable: the registered client gets a token with the agent's SVID.
    const assertion = await svid(spiffeId, issuer, await trustKey(ns.name, TD));
    const token = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({
        grant_type: 'client_credentials',
        client_id: auth.client_id!,
        client_assertion_type: JWT_SPIFFE,
        client_assertion: assertion,
      }),
    });
    expect(token.status).toBe(200);
  });

  it('step 4: asks for a connect step when the server publishes no metadata, with no rule', async () => {
    const app = await mcpApp('bare', servers.bare!.serverUrl);
    const r = await install(app);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.auth).toEqual({
      method: 'connect_required',
      status: 'connect_required',
      connect_options: ['oauth_pkce', 'api_key'],
    });
    expect(r.body.credential_routing).toEqual([]);
    expect(r.body.mcp_metadata).toBeNull();
    expect(servers.bare!.hits).toContain('GET /.well-known/oauth-protected-resource');
    expect((await storedInstall(app))?.spec.credentialRouting).toBeUndefined();
  });
});

describe('metadata that lies and authorization servers that fail: a clear 5xx, nothing written', () => {
  const registrations = (): number => servers.as!.clients.size;

  it('refuses protected-resource metadata naming another resource', async () => {
    const lying = await startResourceServer(servers.as!.issuer);
    lying.override.metadata = {
      status: 200,
      body: { resource: 'https://elsewhere.example/mcp', authorization_servers: [servers.as!.issuer] },
    };
    const app = await mcpApp('lying-resource', lying.serverUrl);
    const r = await expectRefusedAndNothingWritten(app, 502, 'mcp_metadata_invalid');
    expect(r.body.detail).toContain('is not the server');
    await lying.close();
  });

  it('refuses authorization server metadata with another issuer or no registration endpoint', async () => {
    const before = registrations();
    const app = await mcpApp('lying-issuer', servers.mcp!.serverUrl);
    const honest = metadataOf(servers.as!.issuer);
    servers.as!.override.metadata = { status: 200, body: { ...honest, issuer: 'https://impostor.example' } };
    try {
      await expectRefusedAndNothingWritten(app, 502, 'as_metadata_invalid');
      servers.as!.override.metadata = { status: 200, body: { ...honest, registration_endpoint: undefined } };
      const r = await expectRefusedAndNothingWritten(app, 502, 'as_metadata_invalid');
      expect(r.body.detail).toContain('registration_endpoint');
    } finally {
      servers.as!.override.metadata = undefined;
    }
    expect(registrations()).toBe(before);
  });

  it('refuses when the authorization server rejects the registration', async () => {
    const app = await mcpApp('refused', servers.mcp!.serverUrl);
    servers.as!.override.register = {
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: 'no thanks' },
    };
    try {
      const r = await expectRefusedAndNothingWritten(app, 502, 'client_registration_failed');
      expect(r.body.detail).toContain('invalid_client_metadata');
    } finally {
      servers.as!.override.register = undefined;
    }
  });

  it('keeps a client secret the AS issues anyway encrypted beside the agent, never showing it', async () => {
    const app = await mcpApp('secret', servers.mcp!.serverUrl);
    const canary = 'canary-5e6f7a8b9c0d1e2f';
    servers.as!.override.register = { status: 201, body: { client_id: 'c-secret', client_secret: canary } };
    try {
      const r = await install(app);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(JSON.stringify(r.body)).not.toContain(canary);
      const stored = await storedInstall(app);
      const ref = stored?.spec.auth?.clientSecretRef;
      expect(ref?.name).toMatch(/-oauth-client$/);
      const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
      const secret = await core.readNamespacedSecret({ namespace: ns.name, name: ref!.name });
      const record = Buffer.from(secret.data?.[ref!.key] ?? '', 'base64').toString('utf8');
      expect(record).toMatch(/^v1\./);
      expect(record).not.toContain(canary);
      expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformAgent', name: AGENT });
      const ring = await core.readNamespacedSecret({ namespace: ns.name, name: 'platform-keyring' });
      const data = Object.fromEntries(
        Object.entries(ring.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      expect(decrypt(keyringFromData(data), record, `${ns.name}/${ref!.name}/material`).toString()).toBe(
        canary,
      );
      const listed = await fx.call('GET', `/v1/app-catalog/agents/${agentId()}/installed`, {
        key: fx.keys.viewer,
      });
      expect(JSON.stringify(listed.body)).not.toContain(canary);
      const gone = await fx.call('DELETE', `/v1/app-catalog/agents/${agentId()}/uninstall?app_id=${app}`, {
        key: fx.keys.editor,
      });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      await expect(core.readNamespacedSecret({ namespace: ns.name, name: ref!.name })).rejects.toThrow();
    } finally {
      servers.as!.override.register = undefined;
    }
  });

  it('refuses an oversized metadata document', async () => {
    const flood = await startResourceServer(servers.as!.issuer);
    flood.override.metadata = { status: 200, raw: `{"resource":"${'x'.repeat(200_000)}"}` };
    const app = await mcpApp('flood', flood.serverUrl);
    await expectRefusedAndNothingWritten(app, 502, 'upstream_too_large');
    await flood.close();
  });
});
