// Scoped credentials and tools over HTTP (in-process API, real apiserver):
// an organization whose home namespace holds the org tier, a workspace in
// the file's namespace, an agent in it. Credentials: connect (material
// envelope-encrypted into an owned Secret), list, the cascade for the agent,
// rotate, revoke; tools: available / required / blocked at both tiers, the
// workspace refining the org, what that does to installs. Who may do what,
// bad input answered 4xx with nothing written, and a canary planted in every
// credential found in no response, log line, audit entry or resource.
import { PassThrough } from 'node:stream';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { decrypt, keyringFromData } from '../../base/crypto/envelope.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import {
  createTiers,
  defaultOwners,
  useApi,
  type CallOptions,
  type Persona,
  type Reply,
} from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-scoped');
const home = useNamespace('api-scoped-org');
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
const auditPath = join(mkdtempSync(join(tmpdir(), 'api-scoped-audit-')), 'audit.jsonl');
const fx = useApi(
  ns,
  () => ({ PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`, PLATFORM_API_AUDIT_LOG: auditPath }),
  { logTo: logStream },
);

const CANARIES = ['canary-org-8d1f0e-secret', 'canary-ws-51ab9c-secret', 'canary-rotated-77e0a2-secret'];
const answers: string[] = [];
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const RES = { group: GROUP, version: VERSION };
const names = { org: '', jira: '', wiki: '', banned: '', agent: '', ws: '' };

/** Every answer is kept, with its headers, for the canary scan. */
async function call(persona: Persona, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const r = await fx.call(method, path, { key: fx.keys[persona], ...o });
  answers.push(JSON.stringify({ status: r.status, body: r.body, headers: [...r.headers.entries()] }));
  return r;
}

const credential = (scope: 'org' | 'workspace', service: string, extra: Record<string, unknown> = {}) => ({
  scope,
  scope_id: scope === 'org' ? names.org : names.ws,
  service,
  ...extra,
});

beforeAll(async () => {
  names.org = `org-${ns.name}`;
  names.ws = `${ns.name}.ws`;
  names.jira = `${ns.name}-jira`;
  names.wiki = `${ns.name}-wiki`;
  names.banned = `${ns.name}-banned`;
  for (const name of [names.jira, names.wiki, names.banned]) {
    await custom().createClusterCustomObject({
      ...RES,
      plural: PLURAL.appCatalogEntry,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AppCatalogEntry',
        metadata: { name },
        spec: { displayName: name, category: 'MCP Servers', type: 'mcp_server' },
      },
    });
  }
  await createTiers({ org: names.org, homeNamespace: home.name, namespace: ns.name });
  names.agent = await fx.createAgent('worker', defaultOwners(), { workspace: 'ws' });
  await fx.until(`/v1/app-catalog/${names.banned}`, (r) => r.status === 200);
});

afterAll(async () => {
  for (const name of [names.jira, names.wiki, names.banned]) {
    await custom()
      .deleteClusterCustomObject({ ...RES, plural: PLURAL.appCatalogEntry, name })
      .catch(() => undefined);
  }
  await custom()
    .deleteClusterCustomObject({ ...RES, plural: PLURAL.organization, name: names.org })
    .catch(() => undefined);
});

describe('scoped credentials', () => {
  const ids = { orgJira: '', wsWiki: '' };

  it('connects an org credential: metadata back, the material encrypted in a Secret it owns', async () => {
    const r = await call('org_admin', 'POST', '/v1/scoped-credentials', {
      body: credential('org', 'jira', { sharing_mode: 'enforce', material: CANARIES[0] }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      scope: 'org',
      scope_id: names.org,
      service: 'jira',
      type: 'api_key',
      sharing_mode: 'enforce',
      auth_status: 'connected',
    });
    expect(r.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    ids.orgJira = String(r.body.id);
    const [namespace, name] = [home.name, ids.orgJira.slice(home.name.length + 1)];
    expect(ids.orgJira.startsWith(`${home.name}.`)).toBe(true);
    const secret = await core().readNamespacedSecret({ namespace, name });
    const record = Buffer.from(secret.data?.material ?? '', 'base64').toString('utf8');
    expect(record).toMatch(/^v1\./);
    expect(record).not.toContain(CANARIES[0]);
    expect(secret.metadata?.ownerReferences?.[0]?.kind).toBe('ScopedCredential');
    const ring = await core().readNamespacedSecret({ namespace: ns.name, name: 'platform-keyring' });
    const data = Object.fromEntries(
      Object.entries(ring.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
    );
    expect(decrypt(keyringFromData(data), record, `${namespace}/${name}/material`).toString()).toBe(
      CANARIES[0],
    );
  });

  it('refuses a workspace credential for a service the org enforces: 409, nothing written', async () => {
    const r = await call('workspace_admin', 'POST', '/v1/scoped-credentials', {
      body: credential('workspace', 'jira', { sharing_mode: 'enforce', material: CANARIES[1] }),
    });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('credential_enforced');
    expect(r.body.detail).toContain(`organization ${names.org} enforces`);
    const listed = await call(
      'workspace_admin',
      'GET',
      `/v1/scoped-credentials?scope=workspace&scope_id=${names.ws}`,
    );
    expect(listed.body.items).toEqual([]);
  });

  it('lets a workspace admin connect a workspace credential, once per service', async () => {
    const body = credential('workspace', 'wiki', {
      material: CANARIES[1],
      destinations: ['wiki.example.com'],
    });
    const r = await call('workspace_admin', 'POST', '/v1/scoped-credentials', { body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      scope_id: names.ws,
      sharing_mode: 'inherit',
      destinations: ['wiki.example.com'],
    });
    ids.wsWiki = String(r.body.id);
    const again = await call('workspace_admin', 'POST', '/v1/scoped-credentials', { body });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('credential_exists');
  });

  it('keeps the org tier to org admins and every tier from non-administrators', async () => {
    const org = credential('org', 'slack', { material: CANARIES[1] });
    expect((await call('workspace_admin', 'POST', '/v1/scoped-credentials', { body: org })).status).toBe(403);
    expect((await call('owner', 'POST', '/v1/scoped-credentials', { body: org })).status).toBe(403);
    const list = `/v1/scoped-credentials?scope=workspace&scope_id=${names.ws}`;
    expect((await call('stranger', 'GET', list)).status).toBe(403);
    expect((await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${ids.orgJira}`)).status).toBe(
      403,
    );
    const listed = await call('workspace_admin', 'GET', list);
    expect(listed.body.items?.map((i) => i.service)).toEqual(['wiki']);
  });

  it('resolves the cascade for the agent: the org enforce credential and the workspace default', async () => {
    const r = await call('viewer', 'GET', `/v1/scoped-credentials/effective?agent_id=${names.agent}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const items = r.body.items as { service: string; enforced: boolean; credential: { id: string } }[];
    expect(items.map((i) => [i.service, i.enforced, i.credential.id])).toEqual([
      ['jira', true, ids.orgJira],
      ['wiki', false, ids.wsWiki],
    ]);
    expect(
      (await call('stranger', 'GET', `/v1/scoped-credentials/effective?agent_id=${names.agent}`)).status,
    ).toBe(403);
  });

  it('rotates the material in place', async () => {
    const r = await call('workspace_admin', 'POST', `/v1/scoped-credentials/${ids.wsWiki}/rotate`, {
      body: { material: CANARIES[2] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.last_rotated_at).toMatch(/^\d{4}-/);
    const name = ids.wsWiki.slice(ns.name.length + 1);
    const secret = await core().readNamespacedSecret({ namespace: ns.name, name });
    expect(Buffer.from(secret.data?.material ?? '', 'base64').toString()).not.toContain(CANARIES[2]);
  });

  it('answers bad input with a clear 4xx and writes nothing', async () => {
    const post = (body: unknown) => call('org_admin', 'POST', '/v1/scoped-credentials', { body });
    const unknownScope = await post({
      ...credential('org', 'x', { material: CANARIES[0] }),
      scope: 'galaxy',
    });
    expect([unknownScope.status, unknownScope.body.code]).toEqual([400, 'invalid_body']);
    expect(unknownScope.body.detail).toContain('scope');
    const badId = await post({
      ...credential('workspace', 'x', { material: CANARIES[0] }),
      scope_id: 'no-dot',
    });
    expect([badId.status, badId.body.code]).toEqual([422, 'invalid_scope_id']);
    const noOrg = await post({
      ...credential('org', 'x', { material: CANARIES[0] }),
      scope_id: 'no-such-org',
    });
    expect(noOrg.status).toBe(404);
    const noMaterial = await post(credential('org', 'x'));
    expect([noMaterial.status, noMaterial.body.code]).toEqual([422, 'material_required']);
    const extra = await post({ ...credential('org', 'x', { material: CANARIES[0] }), value: CANARIES[0] });
    expect(extra.status).toBe(400);
    expect((await call('org_admin', 'GET', '/v1/scoped-credentials?scope=planet&scope_id=x')).status).toBe(
      422,
    );
    expect((await call('org_admin', 'DELETE', '/v1/scoped-credentials/not-an-id')).status).toBe(404);
    expect((await call('org_admin', 'DELETE', `/v1/scoped-credentials/${ns.name}.cred-nothing`)).status).toBe(
      404,
    );
    const rotateNothing = await call('org_admin', 'POST', `/v1/scoped-credentials/${ns.name}.cred-x/rotate`, {
      body: { material: CANARIES[0] },
    });
    expect(rotateNothing.status).toBe(404);
    const listed = await call('org_admin', 'GET', `/v1/scoped-credentials?scope=org&scope_id=${names.org}`);
    expect(listed.body.items?.map((i) => i.service)).toEqual(['jira']);
  });
});

describe('scoped tools', () => {
  const tool = (
    persona: Persona,
    scope: 'org' | 'workspace',
    name: string,
    enforcement: string | { enforcement: string; service: string },
  ) =>
    call(persona, 'POST', '/v1/scoped-tools', {
      body: {
        scope,
        scope_id: scope === 'org' ? names.org : names.ws,
        tool: name,
        ...(typeof enforcement === 'string' ? { enforcement } : enforcement),
      },
    });
  let wikiId = '';

  it('installs tools at the org tier and lets a workspace refine, never loosen, them', async () => {
    expect(
      (await tool('org_admin', 'org', names.jira, { enforcement: 'required', service: 'jira' })).status,
    ).toBe(201);
    expect((await tool('org_admin', 'org', names.banned, 'blocked')).status).toBe(201);
    const block = await tool('workspace_admin', 'workspace', names.jira, 'blocked');
    expect([block.status, block.body.code]).toEqual([409, 'tool_required']);
    const lift = await tool('workspace_admin', 'workspace', names.banned, 'available');
    expect([lift.status, lift.body.code]).toEqual([409, 'tool_blocked']);
    const wiki = await tool('workspace_admin', 'workspace', names.wiki, 'blocked');
    expect(wiki.status, JSON.stringify(wiki.body)).toBe(201);
    wikiId = String(wiki.body.id);
    expect((await tool('workspace_admin', 'org', names.wiki, 'available')).status).toBe(403);
  });

  it('shows the agent each tool as available, required or blocked, with auth status', async () => {
    const r = await call('viewer', 'GET', `/v1/scoped-tools/effective?agent_id=${names.agent}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items?.map((i) => [i.tool, i.state, i.scope, i.auth_status])).toEqual([
      [names.banned, 'blocked', 'org', null],
      [names.jira, 'required', 'org', 'connected'],
      [names.wiki, 'blocked', 'workspace', null],
    ]);
  });

  it('makes the agent refuse a blocked tool (403 tool_blocked) and keep a required one (409)', async () => {
    const install = await call('editor', 'POST', `/v1/app-catalog/agents/${names.agent}/install`, {
      body: { app_id: names.wiki },
    });
    expect([install.status, install.body.code]).toEqual([403, 'tool_blocked']);
    const uninstall = await call(
      'editor',
      'DELETE',
      `/v1/app-catalog/agents/${names.agent}/uninstall?app_id=${names.jira}`,
    );
    expect([uninstall.status, uninstall.body.code]).toEqual([409, 'app_required']);
  });

  it("hides blocked tools from the agent's catalog view, for those who may see the agent", async () => {
    const ids = (r: Reply): unknown[] => (r.body.items ?? []).map((i) => i.app_id);
    const all = await call('viewer', 'GET', '/v1/app-catalog?type=mcp_server');
    expect(ids(all)).toEqual(expect.arrayContaining([names.banned, names.wiki, names.jira]));
    const view = await call('viewer', 'GET', `/v1/app-catalog?type=mcp_server&agent_id=${names.agent}`);
    expect(view.status).toBe(200);
    expect(ids(view)).toContain(names.jira);
    expect(ids(view)).not.toContain(names.banned);
    expect(ids(view)).not.toContain(names.wiki);
    expect((await call('stranger', 'GET', `/v1/app-catalog?agent_id=${names.agent}`)).status).toBe(403);
  });

  it('changes an install on a second POST and removes it on DELETE', async () => {
    const again = await tool('workspace_admin', 'workspace', names.wiki, 'available');
    expect([again.status, again.body.id, again.body.enforcement]).toEqual([200, wikiId, 'available']);
    expect((await call('owner', 'DELETE', `/v1/scoped-tools/${wikiId}`)).status).toBe(403);
    expect((await call('workspace_admin', 'DELETE', `/v1/scoped-tools/${wikiId}`)).status).toBe(200);
    expect((await call('workspace_admin', 'DELETE', `/v1/scoped-tools/${wikiId}`)).status).toBe(404);
  });

  it('refuses tools outside the catalog and unknown scopes', async () => {
    const unknown = await tool('org_admin', 'org', `${ns.name}-nope`, 'available');
    expect([unknown.status, unknown.body.code]).toEqual([422, 'unknown_app']);
    const scope = await call('org_admin', 'POST', '/v1/scoped-tools', {
      body: { scope: 'team', scope_id: names.org, tool: names.jira },
    });
    expect([scope.status, scope.body.code]).toEqual([400, 'invalid_body']);
  });
});

describe('revoking and the canary', () => {
  it('revokes a credential: it and its Secret are gone', async () => {
    const listed = await call('org_admin', 'GET', `/v1/scoped-credentials?scope=org&scope_id=${names.org}`);
    const id = String(listed.body.items?.[0]?.id);
    const r = await call('org_admin', 'DELETE', `/v1/scoped-credentials/${id}`);
    expect(r.body).toMatchObject({ revoked: true, service: 'jira' });
    const name = id.slice(home.name.length + 1);
    const gone = await core()
      .readNamespacedSecret({ namespace: home.name, name })
      .then(() => false)
      .catch(() => true);
    expect(gone).toBe(true);
  });

  it('never shows the material in an answer, a log line, an audit entry or a stored resource', async () => {
    const stored = await Promise.all(
      [ns.name, home.name].map((namespace) =>
        custom().listNamespacedCustomObject({ ...RES, plural: PLURAL.credential, namespace }),
      ),
    );
    const audit = readFileSync(auditPath, 'utf8');
    expect(answers.length).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(0);
    expect(audit).toContain('scoped');
    for (const canary of CANARIES) {
      for (const [what, text] of [
        ['answers', answers.join('\n')],
        ['log', logLines.join('')],
        ['audit', audit],
        ['resources', JSON.stringify(stored)],
      ] as const) {
        expect(text.includes(canary), `${canary} in ${what}`).toBe(false);
        expect(text.includes(Buffer.from(canary).toString('base64')), `${canary} (base64) in ${what}`).toBe(
          false,
        );
      }
    }
  });
});

describe('the tier picker (GET /v1/scopes)', () => {
  type Scopes = {
    organizations: { name: string; home_namespace: string | null; can_write: boolean }[];
    workspaces: { scope_id: string; organization: string | null; can_write: boolean }[];
  };
  const scopesOf = async (persona: Persona): Promise<Scopes> => {
    const r = await call(persona, 'GET', '/v1/scopes');
    expect(r.status).toBe(200);
    return r.body as unknown as Scopes;
  };

  it('shows an org admin every tier, writable, with the org home namespace', async () => {
    const s = await scopesOf('org_admin');
    expect(s.organizations).toContainEqual({ name: names.org, home_namespace: home.name, can_write: true });
    expect(s.workspaces).toContainEqual(
      expect.objectContaining({ scope_id: names.ws, organization: names.org, can_write: true }),
    );
  });

  it('shows a workspace admin its workspace writable and its organization read-only', async () => {
    const s = await scopesOf('workspace_admin');
    expect(s.workspaces.find((w) => w.scope_id === names.ws)?.can_write).toBe(true);
    expect(s.organizations.find((o) => o.name === names.org)?.can_write).toBe(false);
  });

  it("shows an agent's Viewer the tiers above it, read-only, and a stranger none of them", async () => {
    const viewer = await scopesOf('viewer');
    expect(viewer.workspaces.find((w) => w.scope_id === names.ws)?.can_write).toBe(false);
    expect(viewer.organizations.map((o) => o.name)).toContain(names.org);
    const stranger = await scopesOf('stranger');
    expect(stranger.workspaces.map((w) => w.scope_id)).not.toContain(names.ws);
    expect(stranger.organizations.map((o) => o.name)).not.toContain(names.org);
  });

  it('needs a credential', async () => {
    expect((await fx.call('GET', '/v1/scopes', { key: '' })).status).toBe(401);
  });
});
