// The Verifier side of egress (issue 19) over HTTP, against a real apiserver:
// the bundle of an agent with a rule of its own, an install rule and a
// token_exchange rule; its Cedar policy following grants and shares; the
// credential material and JWT-SVID only for the agent's own Gateway key
// (never in a log line or an audit entry); held calls and their approvals.
import { PassThrough } from 'node:stream';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MintRequest } from '../../api/auth/key-store.ts';
import type { AccessQuestion } from '../../contract/egress.ts';
import { decideEgress, egressPolicies, egressRequest } from '../../policy/egress-cedar.ts';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { SUBJECTS, createTiers, defaultOwners, useApi, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { makeClient, trustKey } from './oauth-client.ts';

const TD = 'egress.test';
const CANARY = 'canary-egress-3f9a1c-secret';
const ns = useNamespace('api-egress');
const home = useNamespace('api-egress-org');
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
const auditPath = join(mkdtempSync(join(tmpdir(), 'api-egress-audit-')), 'audit.jsonl');
const fx = useApi(
  ns,
  () => ({
    PLATFORM_TRUST_DOMAIN: TD,
    PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
    PLATFORM_API_AUDIT_LOG: auditPath,
  }),
  { logTo: logStream },
);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const REF = { group: GROUP, version: VERSION };
const names = {
  org: '',
  app: '',
  files: '',
  vault: '',
  crm: '',
  boundKey: '',
  wsKey: '',
  otherKey: '',
  spiffeId: '',
};
const agentId = (): string => `${ns.name}.worker`;
const egress = (): string => `/v1/agents/${agentId()}/egress`;

async function mintGateway(subject: string, scope: { workspaces?: string[]; agents?: string[] }) {
  const request = { subject, role: 'gateway', workspaces: [], agents: [], description: 'test', ...scope };
  return (await fx.api.deps.keys.mint(request as MintRequest, 'test')).key;
}

/** Connects an org credential with the canary as material; its name. */
async function orgCredential(service: string, sharing_mode: string): Promise<string> {
  const r = await fx.call('POST', '/v1/scoped-credentials', {
    key: fx.keys.org_admin,
    body: { scope: 'org', scope_id: names.org, service, sharing_mode, material: CANARY },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return String(r.body.id).slice(home.name.length + 1);
}

const bundle = (key = names.boundKey): Promise<Reply> => fx.call('GET', egress(), { key });

/** Whether the bundle's Cedar lets the agent call mail.test on behalf of `user`. */
function mailAllowed(b: Reply, user: string): boolean {
  const rules = b.body.rules as { destination: string; service: string }[];
  const rule = rules.find((r) => r.destination === 'mail.test');
  const q: AccessQuestion = {
    host: 'mail.test',
    port: 443,
    action: 'read',
    method: 'GET',
    user,
    rule: { ...rule!, injectionMethod: 'token_exchange', approval: 'auto', source: 'agent' },
  };
  return decideEgress(egressPolicies(String(b.body.cedar)), egressRequest(agentId(), q)).allow;
}

async function grantFor(persona: 'editor' | 'viewer'): Promise<string> {
  const base = `/v1/agents/${agentId()}/delegations`;
  const c = await fx.call('POST', `${base}/pending`, {
    key: fx.keys.owner,
    body: { user: SUBJECTS[persona], service: 'mail.test', scopes: ['mail:read'] },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  const g = await fx.call('POST', base, { key: fx.keys[persona], body: { consent_id: c.body.id } });
  expect(g.status, JSON.stringify(g.body)).toBe(201);
  return String(g.body.id);
}

beforeAll(async () => {
  await trustKey(ns.name, TD);
  names.org = `org-${ns.name}`;
  names.app = `${ns.name}-crm`;
  await custom().createClusterCustomObject({
    ...REF,
    plural: PLURAL.appCatalogEntry,
    body: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'AppCatalogEntry',
      metadata: { name: names.app },
      spec: {
        displayName: 'crm',
        category: 'MCP Servers',
        type: 'mcp_server',
        serverUrl: 'https://mcp.crm.test/mcp',
        service: 'crm',
      },
    },
  });
  await createTiers({ org: names.org, homeNamespace: home.name, namespace: ns.name });
  names.files = await orgCredential('files', 'inherit');
  names.vault = await orgCredential('vault', 'isolated');
  names.crm = await orgCredential('crm', 'enforce');
  await fx.createAgent('worker', defaultOwners(), {
    workspace: 'ws',
    environment: {
      credentialRouting: [
        { destination: 'files.test', credentialRef: names.files },
        { destination: 'vault.test', credentialRef: names.vault },
        { destination: 'mail.test', injectionMethod: 'token_exchange', approval: 'owner' },
        { destination: 'api.partner.test', injectionMethod: 'client_credentials' },
      ],
    },
  });
  names.spiffeId = await makeClient(fx, agentId(), TD);
  await fx.until(`/v1/app-catalog/${names.app}`, (r) => r.status === 200);
  const installed = await fx.call('POST', `/v1/app-catalog/agents/${agentId()}/install`, {
    key: fx.keys.owner,
    body: { app_id: names.app },
  });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  names.boundKey = await mintGateway(`gateway:${agentId()}`, { agents: [agentId()] });
  names.wsKey = await mintGateway('gateway:ws', { workspaces: [ns.name] });
  names.otherKey = await mintGateway('gateway:other', { agents: [`${ns.name}.other`] });
}, 60_000);

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ ...REF, plural: PLURAL.appCatalogEntry, name: names.app })
    .catch(() => undefined);
  await custom()
    .deleteClusterCustomObject({ ...REF, plural: PLURAL.organization, name: names.org })
    .catch(() => undefined);
});

describe('the egress bundle', () => {
  it('merges the agent’s rules and its install’s, each with its service, and lists the MCP server', async () => {
    const r = await fx.until(
      egress(),
      (g) => (g.body.rules as unknown[] | undefined)?.length === 5,
      'viewer',
    );
    expect(r.body.agent_id).toBe(agentId());
    expect(r.body.version).toMatch(/^[a-f0-9]{64}$/);
    const rules = r.body.rules as Record<string, unknown>[];
    expect(rules.map((x) => [x.destination, x.injection_method, x.service, x.source])).toEqual([
      ['files.test', 'sidecar', 'files', 'agent'],
      ['vault.test', 'sidecar', 'vault', 'agent'],
      ['mail.test', 'token_exchange', 'mail.test', 'agent'],
      ['api.partner.test', 'client_credentials', 'api.partner.test', 'agent'],
      ['mcp.crm.test', 'sidecar', 'crm', `install:${names.app}`],
    ]);
    expect(rules[2]).toMatchObject({ approval: 'owner', credential_ref: null, token_endpoint: null });
    expect(r.body.mcp_servers).toEqual([{ name: names.app, url: 'https://mcp.crm.test/mcp' }]);
    expect(String(r.body.cedar)).toContain('credential.unavailable:vault');
    expect(JSON.stringify(r.body)).not.toContain(CANARY);
  });

  it('is read by the agent’s sharers and Gateway keys serving it, not by a stranger or another agent’s key', async () => {
    expect((await bundle()).status).toBe(200);
    expect((await bundle(names.wsKey)).status).toBe(200);
    expect((await bundle(names.otherKey)).status).toBe(403);
    expect((await fx.call('GET', egress(), { key: fx.keys.stranger })).status).toBe(403);
  });

  it('lets the agent act for a user only while their grant is active and they share the agent', async () => {
    const viewerGrant = await grantFor('viewer');
    await grantFor('editor');
    const both = await fx.until(
      egress(),
      (g) => mailAllowed(g, SUBJECTS.viewer) && mailAllowed(g, SUBJECTS.editor),
    );
    expect(mailAllowed(both, SUBJECTS.owner)).toBe(false);

    const revoked = await fx.call('DELETE', `/v1/agents/${agentId()}/delegations/${viewerGrant}`, {
      key: fx.keys.viewer,
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBeLessThan(300);
    const afterRevoke = await fx.until(egress(), (g) => !mailAllowed(g, SUBJECTS.viewer));
    expect(afterRevoke.body.version).not.toBe(both.body.version);
    expect(mailAllowed(afterRevoke, SUBJECTS.editor)).toBe(true);

    const unshared = await fx.call(
      'DELETE',
      `/v1/agents/${agentId()}/shares/${encodeURIComponent(SUBJECTS.editor)}`,
      {
        key: fx.keys.owner,
      },
    );
    expect(unshared.status, JSON.stringify(unshared.body)).toBeLessThan(300);
    await fx.until(egress(), (g) => !mailAllowed(g, SUBJECTS.editor));
  });
});

describe('the credential material', () => {
  const path = (name: string) => `/v1/agents/${agentId()}/egress/credentials/${name}`;

  it('goes to the agent’s own Gateway key, uncached', async () => {
    const r = await fx.call('GET', path(names.files), { key: names.boundKey });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ credential: names.files, service: 'files', type: 'api_key', value: CANARY });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('is refused to its owner, an administrator, a workspace-wide key and another agent’s key', async () => {
    for (const key of [
      fx.keys.owner,
      fx.keys.org_admin,
      fx.keys.workspace_admin,
      names.wsKey,
      names.otherKey,
    ]) {
      const r = await fx.call('GET', path(names.files), { key });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain(CANARY);
    }
  });

  it('is 404 for a credential the cascade withholds or that does not exist', async () => {
    for (const name of [names.vault, 'no-such-credential']) {
      const r = await fx.call('GET', path(name), { key: names.boundKey });
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      expect(r.body.code).toBe('credential_not_available');
    }
  });
});

describe('the agent’s SVID', () => {
  const svid = (audience: string, key = names.boundKey) =>
    fx.call('POST', `/v1/agents/${agentId()}/svid`, { key, body: { audience } });

  it('is issued for the platform’s token endpoint, for 300 s', async () => {
    const audience = `${fx.api.deps.oauthIssuer}/oauth/token`;
    const r = await svid(audience);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const payload = JSON.parse(Buffer.from(String(r.body.token).split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      aud: string;
      exp: number;
      iat: number;
    };
    expect(payload).toMatchObject({ sub: names.spiffeId, aud: audience });
    expect(payload.exp - payload.iat).toBe(300);
    expect(Date.parse(String(r.body.expires_at)) / 1000).toBe(payload.exp);
  });

  it('refuses an audience no rule names, and any caller but the agent’s own key', async () => {
    const r = await svid('https://evil.test/token');
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.code).toBe('audience_not_permitted');
    expect((await svid(fx.api.deps.oauthIssuer, names.wsKey)).status).toBe(403);
    expect((await svid(fx.api.deps.oauthIssuer, fx.keys.owner)).status).toBe(403);
  });
});

describe('held calls', () => {
  it('are requested by the agent’s Gateway key, which reads their approval; another agent’s key cannot', async () => {
    const r = await fx.call('POST', `/v1/agents/${agentId()}/actions`, {
      key: names.boundKey,
      body: {
        action: 'read',
        target: 'GET https://mail.test:443/inbox',
        description: 'approval: owner rule',
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = (r.body.approval as { id: string }).id;
    expect((await fx.call('GET', `/v1/approvals/${id}`, { key: names.boundKey })).status).toBe(200);
    expect((await fx.call('GET', `/v1/approvals/${id}`, { key: names.otherKey })).status).toBe(403);
    const other = await fx.call('POST', `/v1/agents/${agentId()}/actions`, {
      key: names.otherKey,
      body: { action: 'write', target: 'POST https://files.test/x' },
    });
    expect(other.status).toBe(403);
  });
});

describe('the canary', () => {
  it('is in no log line and no audit entry', () => {
    const audit = readFileSync(auditPath, 'utf8');
    expect(audit).toContain('egress');
    expect(logLines.length).toBeGreaterThan(0);
    for (const [what, text] of [
      ['log', logLines.join('')],
      ['audit', audit],
    ] as const) {
      expect(text.includes(CANARY), `canary in ${what}`).toBe(false);
      expect(text.includes(Buffer.from(CANARY).toString('base64')), `canary (base64) in ${what}`).toBe(false);
    }
  });
});
