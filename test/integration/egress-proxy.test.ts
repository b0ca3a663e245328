// The credential proxy (`platform run proxy`, a real child process) against
// the real Verifier and apiserver (issue 19): it reads the agent's egress
// bundle with the agent's own Gateway key and, for calls to loopback targets,
// injects the org credential the cascade gives the agent (never showing it to
// the agent), holds a DELETE until an Owner approves (an Editor cannot),
// exchanges a user's token for a delegation token while that user's grant
// is active and refuses the next call once it is revoked, takes a
// client_credentials token from the platform's authorization server with the
// agent's SVID, and records every call in the agent's data-access log.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MintRequest } from '../../api/auth/key-store.ts';
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import { freePort, spawnPlatform, type AuditorChild } from '../process/fixtures/loopback.ts';
import { SUBJECTS, createTiers, defaultOwners, useApi } from './api-harness.ts';
import { eventually, useNamespace } from './harness.ts';
import { makeClient, trustKey } from './oauth-client.ts';
import { useOidcIssuer } from './oidc-issuer.ts';

const TD = 'proxy.test';
const CANARY = 'canary-proxy-91d4e2-secret';
const idp = useOidcIssuer();
const ns = useNamespace('egress-proxy');
const home = useNamespace('egress-proxy-org');
const fx = useApi(ns, () => ({
  ...idp.env(),
  PLATFORM_TRUST_DOMAIN: TD,
  PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
}));

interface Seen {
  method: string;
  host: string;
  url: string;
  authorization: string;
}
const seen: Seen[] = [];
let target: Server;
let targetPort = 0;
let proxy: AuditorChild;
let proxyPort = 0;
const agentId = (): string => `${ns.name}.worker`;
let credentialName = '';

function record(req: IncomingMessage): Seen {
  const s = {
    method: req.method ?? '',
    host: req.headers.host ?? '',
    url: req.url ?? '',
    authorization: req.headers.authorization ?? '',
  };
  seen.push(s);
  return s;
}

/** One request through the proxy as an HTTP_PROXY client (absolute-form); status and body. */
async function viaProxy(
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: proxyPort,
        method: init.method ?? 'GET',
        path: `http://${host}:${targetPort}${path}`,
        headers: { host: `${host}:${targetPort}`, ...init.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  target = createServer((req, res) => {
    const s = record(req);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, method: s.method, authorized: s.authorization !== '' }));
  });
  await new Promise<void>((resolve) => target.listen(0, '0.0.0.0', resolve));
  targetPort = (target.address() as AddressInfo).port;

  const key = await trustKey(ns.name, TD);
  const org = `org-${ns.name}`;
  await createTiers({ org, homeNamespace: home.name, namespace: ns.name });
  const cred = await fx.call('POST', '/v1/scoped-credentials', {
    key: fx.keys.org_admin,
    body: { scope: 'org', scope_id: org, service: 'files', material: CANARY },
  });
  expect(cred.status, JSON.stringify(cred.body)).toBe(201);
  credentialName = String(cred.body.id).slice(home.name.length + 1);
  await fx.createAgent('worker', defaultOwners(), {
    workspace: 'ws',
    environment: {
      credentialRouting: [
        { destination: 'localhost', credentialRef: credentialName },
        { destination: '127.0.0.1', injectionMethod: 'token_exchange' },
        { destination: '127.0.0.2', injectionMethod: 'client_credentials', ttl: '10m' },
      ],
    },
  });
  const spiffeId = await makeClient(fx, agentId(), TD);
  const minted = await fx.api.deps.keys.mint(
    {
      subject: `gateway:${agentId()}`,
      role: 'gateway',
      workspaces: [],
      agents: [agentId()],
      description: 'proxy test',
    } as MintRequest,
    'test',
  );
  // The SVID the operator would mount, addressed to the platform's token endpoint (as its issuer names it).
  const svidDir = mkdtempSync(join(tmpdir(), 'proxy-svid-'));
  writeFileSync(
    join(svidDir, 'svid.jwt'),
    await issueJwtSvid({
      spiffeId,
      audience: `http://platform-verifier.${ns.name}.svc:8000/oauth/token`,
      ttlSeconds: 900,
      key,
    }),
  );
  proxyPort = await freePort();
  proxy = spawnPlatform(
    ['proxy'],
    {
      PLATFORM_PROXY_HOST: '127.0.0.1',
      PLATFORM_VERIFIER_URL: fx.api.url,
      PLATFORM_API_KEY: minted.key,
      PLATFORM_AGENT_ID: agentId(),
      PLATFORM_PROXY_MANIFEST_REFRESH: '1s',
      PLATFORM_PROXY_CA_DIR: mkdtempSync(join(tmpdir(), 'proxy-ca-')),
      PLATFORM_SVID_DIR: svidDir,
      PLATFORM_OAUTH_TOKEN_URL: `${fx.api.url}/oauth/token`,
      MCP_GATEWAY_ENABLED: 'false',
    },
    proxyPort,
  );
  await eventually(
    async () => (await fetch(`${proxy.url}/readyz`).catch(() => undefined))?.ok,
    'the proxy ready',
  );
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  target?.close();
});

describe('the credential proxy against the real Verifier', () => {
  it("injects the org credential the cascade gives the agent, drops the agent's own, and never shows it", async () => {
    const r = await eventually(async () => {
      const got = await viaProxy('localhost', '/files?x=1', {
        headers: { authorization: 'Bearer agent-made' },
      });
      return got.status === 200 ? got : undefined;
    }, 'a routed call through the proxy');
    expect(r.text).not.toContain(CANARY);
    expect(seen.at(-1)).toMatchObject({ url: '/files?x=1', authorization: `Bearer ${CANARY}` });
    expect(proxy.output()).not.toContain(CANARY);
  });

  it('holds a DELETE until an Owner approves; an Editor cannot; nothing reaches the target before', async () => {
    const before = seen.length;
    const call = viaProxy('localhost', '/files/9', { method: 'DELETE' });
    const pending = await fx.until(
      '/v1/approvals',
      (r) => (r.body.items ?? []).some((a) => String(a.target).includes('/files/9')),
      'owner',
    );
    const approval = (pending.body.items ?? []).find((a) => String(a.target).includes('/files/9'))!;
    expect(approval).toMatchObject({ action: 'delete', agent_id: agentId() });
    expect(seen.length).toBe(before);
    const byEditor = await fx.call('POST', `/v1/approvals/${String(approval.id)}/approve`, {
      key: fx.keys.editor,
      body: {},
    });
    expect(byEditor.status).toBe(403);
    const byOwner = await fx.call('POST', `/v1/approvals/${String(approval.id)}/approve`, {
      key: fx.keys.owner,
      body: {},
    });
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(200);
    expect((await call).status).toBe(200);
    expect(seen.slice(before).map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /files/9']);
  });

  it("exchanges the user's token while their grant is active, and refuses the next call once it is revoked", async () => {
    const base = `/v1/agents/${agentId()}/delegations`;
    const consent = await fx.call('POST', `${base}/pending`, {
      key: fx.keys.owner,
      body: { user: SUBJECTS.editor, service: '127.0.0.1', scopes: ['files:read'] },
    });
    expect(consent.status, JSON.stringify(consent.body)).toBe(201);
    const grant = await fx.call('POST', base, { key: fx.keys.editor, body: { consent_id: consent.body.id } });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    const userToken = await idp.token({ sub: SUBJECTS.editor });
    const headers = { 'x-platform-subject-token': userToken };
    const ok = await eventually(async () => {
      const got = await viaProxy('127.0.0.1', '/mail', { headers });
      return got.status === 200 ? got : undefined;
    }, 'the delegated call');
    expect(ok.text).not.toContain('eyJ');
    const delegated = decodeJwt(seen.at(-1)!.authorization.replace(/^Bearer /, ''));
    expect(delegated.sub).toBe(SUBJECTS.editor);
    expect((delegated.act as { sub?: string }).sub).toContain(agentId());
    expect(seen.some((s) => s.authorization.includes(userToken))).toBe(false);

    const revoked = await fx.call('DELETE', `${base}/${String(grant.body.id)}`, { key: fx.keys.editor });
    expect(revoked.status, JSON.stringify(revoked.body)).toBeLessThan(300);
    const refused = await eventually(async () => {
      const got = await viaProxy('127.0.0.1', '/mail', { headers });
      return got.status === 403 ? got : undefined;
    }, 'the call refused after the revocation');
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'egress_denied' });
  });

  it("takes a client_credentials token from the platform's authorization server with the agent's SVID", async () => {
    const got = await eventually(async () => {
      const r = await viaProxy('127.0.0.2', '/partner');
      return r.status === 200 ? r : undefined;
    }, 'the autonomous call');
    expect(got.status).toBe(200);
    const token = decodeJwt(seen.at(-1)!.authorization.replace(/^Bearer /, ''));
    expect(String(token.sub)).toContain(agentId());
  });

  it("records the calls in the agent's data-access log", async () => {
    const log = await fx.until(
      `/v1/agents/${agentId()}/accesses?limit=100`,
      (r) => (r.body.items ?? []).some((a) => a.approval_id !== null && a.method === 'DELETE'),
      'owner',
    );
    const items = log.body.items ?? [];
    expect(items.some((a) => a.injection_method === 'sidecar' && a.outcome === 'forwarded')).toBe(true);
    expect(items.some((a) => a.outcome === 'denied' && a.injection_method === 'token_exchange')).toBe(true);
    expect(JSON.stringify(items)).not.toContain(CANARY);
  });
});
