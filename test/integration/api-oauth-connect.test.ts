// Connecting a scoped credential by OAuth popup, over HTTP against a loopback
// authorization-code server of our own (oauth-servers.ts `startCodeServer`):
// start → the authorization endpoint (followed as a browser would) → the
// callback's page → the credential with its token encrypted (read as the
// operator would, and reported MaterialReady by a real operator) → the
// session. Then every bad case: replayed, unknown and expired states, a
// provider's refusal, a failing, slow, flooding or non-JSON token endpoint,
// start refused, the starter's key revoked before the callback. A canary
// token, the client secret and the codes are in no answer, page, log line,
// audit entry or event.
import { PassThrough } from 'node:stream';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { decrypt, encrypt, keyringFromData } from '../../base/crypto/envelope.ts';
import { sessionSecretName } from '../../api/scoped/oauth-flow.ts';
import { CALLBACK_PATH } from '../../api/scoped/oauth-providers.ts';
import {
  agentGatewayKey,
  createTiers,
  defaultOwners,
  useApi,
  type CallOptions,
  type Persona,
  type Reply,
} from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startCodeServer, type CodeServerFixture } from './oauth-servers.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition } from './platform-client.ts';

const ns = useNamespace('api-oauth');
const home = useNamespace('api-oauth-org');
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
const dir = mkdtempSync(join(tmpdir(), 'api-oauth-'));
const auditPath = join(dir, 'audit.jsonl');
const providersPath = join(dir, 'providers.yaml');
const fx = useApi(
  ns,
  () => ({
    PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
    PLATFORM_API_AUDIT_LOG: auditPath,
    PLATFORM_OAUTH_PROVIDERS_FILE: providersPath,
  }),
  { logTo: logStream },
);

const CANARY = 'canary-oauth-access-3f9c2d71';
const REFRESH_CANARY = 'canary-oauth-refresh-a81e44';
const REFRESHED = 'canary-oauth-refreshed-5b20c9';
const REFRESHED_REFRESH = 'canary-oauth-refresh-2-77d1e0';
const RECONNECTED = 'canary-oauth-reconnected-c4e19a';
const RECONNECTED_REFRESH = 'canary-oauth-refresh-3-0b7f52';
const secrets: string[] = [
  CANARY,
  REFRESH_CANARY,
  REFRESHED,
  REFRESHED_REFRESH,
  RECONNECTED,
  RECONNECTED_REFRESH,
];
const answers: string[] = [];
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
let as: CodeServerFixture;
let operator: OperatorProcess;
const names = { org: '', ws: '' };

async function call(persona: Persona, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const r = await fx.call(method, path, { key: fx.keys[persona], ...o });
  answers.push(JSON.stringify({ status: r.status, body: r.body, headers: [...r.headers.entries()] }));
  return r;
}

const startBody = (extra: Record<string, unknown> = {}) => ({
  scope: 'workspace',
  scope_id: names.ws,
  service: 'docs',
  ...extra,
});

async function start(persona: Persona = 'workspace_admin', body = startBody(), key?: string): Promise<Reply> {
  return call(persona, 'POST', '/v1/scoped-credentials/oauth/start', { body, ...(key ? { key } : {}) });
}

interface Page {
  status: number;
  headers: Headers;
  html: string;
  message: Record<string, unknown> & { error?: { code: string; message: string } };
  origin: string | null;
}

/** Opens a callback URL as the popup would and reads the page's outcome. */
async function open(url: string): Promise<Page> {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  answers.push(JSON.stringify({ html, headers: [...res.headers.entries()] }));
  const data = /<script type="application\/json" id="outcome">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
  const { message, origin } = JSON.parse(data) as { message: Page['message']; origin: string | null };
  return { status: res.status, headers: res.headers, html, message, origin };
}

/** Follows the authorization URL as the browser would: the provider redirects to the callback. */
async function authorize(authorizationUrl: string): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location') ?? '';
  expect(location.startsWith(`${fx.api.url}${CALLBACK_PATH}?`)).toBe(true);
  secrets.push(new URL(location).searchParams.get('code') ?? 'no-code');
  return location;
}

async function connect(persona: Persona = 'workspace_admin'): Promise<{ state: string; page: Page }> {
  const started = await start(persona);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const page = await open(await authorize(String(started.body.authorization_url)));
  return { state: String(started.body.state), page };
}

const credentials = async (): Promise<Record<string, unknown>[]> =>
  (await call('workspace_admin', 'GET', `/v1/scoped-credentials?scope=workspace&scope_id=${names.ws}`)).body
    .items ?? [];

async function keyring(): Promise<ReturnType<typeof keyringFromData>> {
  const ring = await core().readNamespacedSecret({ namespace: ns.name, name: 'platform-keyring' });
  const data = Object.fromEntries(
    Object.entries(ring.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
  return keyringFromData(data);
}

beforeAll(async () => {
  names.org = `org-${ns.name}`;
  names.ws = `${ns.name}.ws`;
  await createTiers({ org: names.org, homeNamespace: home.name, namespace: ns.name });
  as = await startCodeServer();
  as.client.redirectUri = `${fx.api.url}${CALLBACK_PATH}`;
  as.issue = { accessToken: CANARY, refreshToken: REFRESH_CANARY, expiresIn: 3600 };
  secrets.push(as.client.secret);
  const secretFile = join(dir, 'docs-client-secret');
  writeFileSync(secretFile, `${as.client.secret}\n`);
  writeFileSync(
    providersPath,
    [
      'providers:',
      '  - service: docs',
      '    display_name: Docs Cloud',
      `    authorization_endpoint: ${as.origin}/authorize`,
      `    token_endpoint: ${as.origin}/token`,
      `    client_id: ${as.client.id}`,
      `    client_secret_file: ${secretFile}`,
      '    scopes: [docs.read, docs.write]',
      `    redirect_uri: ${as.client.redirectUri}`,
      '',
    ].join('\n'),
  );
  operator = await startOperator({
    namespace: ns.name,
    identity: 'oauth-connect-operator',
    env: { PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`, PLATFORM_API_NAMESPACE: ns.name },
  });
}, 60_000);

afterAll(async () => {
  await operator?.stop();
  await as?.close();
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .deleteClusterCustomObject({
      group: 'platform.io',
      version: 'v1alpha1',
      plural: 'organizations',
      name: names.org,
    })
    .catch(() => undefined);
});

describe('connect by OAuth', () => {
  it('lists the configured providers without endpoints, client or secret', async () => {
    const r = await call('workspace_admin', 'GET', '/v1/scoped-credentials/oauth/providers');
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      { service: 'docs', display_name: 'Docs Cloud', scopes: ['docs.read', 'docs.write'] },
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/authorize|token|platform-test-client/);
  });

  it('connects: start, authorize, callback page, credential with its token encrypted, session connected', async () => {
    const started = await start();
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const url = new URL(String(started.body.authorization_url));
    expect(`${url.origin}${url.pathname}`).toBe(`${as.origin}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(started.body.state);
    expect(url.searchParams.get('scope')).toBe('docs.read docs.write');
    expect(Date.parse(String(started.body.expires_at)) - Date.now()).toBeGreaterThan(9 * 60_000);
    const state = String(started.body.state);
    expect(
      (await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`)).body,
    ).toEqual({
      status: 'pending',
    });

    const page = await open(await authorize(url.toString()));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);
    expect(page.html).toContain('The credential is connected');
    expect(page.origin).toBe(fx.api.url);
    expect(page.message).toMatchObject({ type: 'platform-oauth', state, status: 'connected' });
    const id = String(page.message.credential_id);
    // The provider was sent the verifier of the challenge (it checked) and the client's Basic auth.
    expect(as.lastTokenRequest?.form.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(as.lastTokenRequest?.authorization).toMatch(/^Basic /);

    // The operator may first see the credential before its Secret (written just after it): then it says
    // `pending` and looks again within 2 s of a new credential (controllers/credential/controller.ts).
    const listed = await eventually(async () => {
      const items = await credentials();
      return items[0]?.auth_status === 'connected' ? items : undefined;
    }, 'the credential connected');
    expect(listed).toMatchObject([{ id, service: 'docs', type: 'oauth_token', auth_status: 'connected' }]);
    const session = await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`);
    expect(session.body).toEqual({ status: 'connected', credential_id: id });
    expect((await call('org_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`)).status).toBe(
      404,
    );

    const name = id.slice(ns.name.length + 1);
    const secret = await core().readNamespacedSecret({ namespace: ns.name, name });
    const read = (key: string) => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
    const ring = await keyring();
    expect(decrypt(ring, read('material'), `${ns.name}/${name}/material`).toString()).toBe(CANARY);
    const extra = JSON.parse(decrypt(ring, read('oauth'), `${ns.name}/${name}/oauth`).toString()) as Record<
      string,
      unknown
    >;
    expect(extra.refresh_token).toBe(REFRESH_CANARY);
    expect(Number(extra.expires_at)).toBeGreaterThan(Date.now());
    const p = new Platform(() => ns.name);
    const ready = await eventually(async () => {
      const c = await p.get('ScopedCredential', name);
      return condition(c, 'MaterialReady')?.status === 'True' ? c : undefined;
    }, 'MaterialReady');
    expect(ready.status?.authStatus).toBe('connected');
  });

  it('refuses a replayed state: the page says so, no second credential', async () => {
    const used = (await credentials())[0]?.id;
    await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${String(used)}`);
    const { state, page } = await connect();
    expect(page.message.status).toBe('connected');
    const again = await open(`${fx.api.url}${CALLBACK_PATH}?code=whatever&state=${state}`);
    expect(again.status).toBe(200);
    expect(again.message).toMatchObject({ status: 'error', state, error: { code: 'state_used' } });
    expect(again.html).toContain('was not connected');
    expect(await credentials()).toHaveLength(1);
    // The connected session stays connected.
    const s = await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`);
    expect(s.body.status).toBe('connected');
    await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${String(page.message.credential_id)}`);
  });

  it('refuses unknown and malformed states', async () => {
    const unknown = await open(`${fx.api.url}${CALLBACK_PATH}?code=x&state=${'A'.repeat(43)}`);
    expect(unknown.message.error?.code).toBe('state_unknown');
    const malformed = await open(`${fx.api.url}${CALLBACK_PATH}?state=%3Cscript%3E`);
    expect(malformed.message).toMatchObject({ state: '', error: { code: 'state_unknown' } });
    expect(malformed.html).not.toContain('<script>alert');
    const none = await open(`${fx.api.url}${CALLBACK_PATH}`);
    expect(none.message.error?.code).toBe('state_unknown');
  });
});

/** The credential's Secret, decrypted: the access token and the refresh token beside it. */
async function storedTokens(name: string): Promise<{ material: string; refresh: string | undefined }> {
  const secret = await core().readNamespacedSecret({ namespace: ns.name, name });
  const ring = await keyring();
  const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const extra = secret.data?.oauth
    ? (JSON.parse(decrypt(ring, text('oauth'), `${ns.name}/${name}/oauth`).toString()) as {
        refresh_token?: string;
      })
    : undefined;
  return {
    material: decrypt(ring, text('material'), `${ns.name}/${name}/material`).toString(),
    refresh: extra?.refresh_token,
  };
}

const reconnect = (persona: Persona, id: string): Promise<Reply> =>
  call(persona, 'POST', `/v1/scoped-credentials/${id}/reconnect`);

describe('reconnect by OAuth', () => {
  it('puts new tokens in the same credential: same id, new material and refresh token, rotated now', async () => {
    as.issue = { accessToken: CANARY, refreshToken: REFRESH_CANARY, expiresIn: 3600 };
    const { page } = await connect();
    const id = String(page.message.credential_id);
    const name = id.slice(ns.name.length + 1);
    expect((await credentials())[0]).toMatchObject({ id, last_rotated_at: null });

    as.issue = { accessToken: RECONNECTED, refreshToken: RECONNECTED_REFRESH, expiresIn: 3600 };
    const started = await reconnect('workspace_admin', id);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const state = String(started.body.state);
    const again = await open(await authorize(String(started.body.authorization_url)));
    expect(again.message).toMatchObject({ status: 'connected', state, credential_id: id });
    const session = await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`);
    expect(session.body).toEqual({ status: 'connected', credential_id: id });
    expect(await storedTokens(name)).toEqual({ material: RECONNECTED, refresh: RECONNECTED_REFRESH });
    const listed = await credentials();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, type: 'oauth_token', auth_status: 'connected' });
    expect(Date.now() - Date.parse(String(listed[0]!.last_rotated_at))).toBeLessThan(60_000);
    await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${id}`);
  });

  it('gives an OAuth-flow credential (no material yet) its first tokens', async () => {
    const made = await call('workspace_admin', 'POST', '/v1/scoped-credentials', {
      body: startBody({ type: 'oauth_flow' }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = String(made.body.id);
    expect(made.body.auth_status).not.toBe('connected');
    as.issue = { accessToken: RECONNECTED, refreshToken: RECONNECTED_REFRESH, expiresIn: 3600 };
    const started = await reconnect('workspace_admin', id);
    const page = await open(await authorize(String(started.body.authorization_url)));
    expect(page.message).toMatchObject({ status: 'connected', credential_id: id });
    expect(await storedTokens(id.slice(ns.name.length + 1))).toMatchObject({ material: RECONNECTED });
    expect((await credentials())[0]).toMatchObject({ id, type: 'oauth_flow', auth_status: 'connected' });
    await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${id}`);
  });

  it('refuses an API key, a service without a provider, a caller without the right, an unknown id', async () => {
    const key = await call('workspace_admin', 'POST', '/v1/scoped-credentials', {
      body: startBody({ service: 'plain', material: 'not-a-token' }),
    });
    const keyId = String(key.body.id);
    const r = await reconnect('workspace_admin', keyId);
    expect([r.status, r.body.code]).toEqual([422, 'credential_not_oauth']);
    expect(r.body.detail).toContain('rotate it');
    const flow = await call('workspace_admin', 'POST', '/v1/scoped-credentials', {
      body: startBody({ service: 'nowhere', type: 'oauth_flow' }),
    });
    const nowhere = await reconnect('workspace_admin', String(flow.body.id));
    expect([nowhere.status, nowhere.body.code]).toEqual([422, 'oauth_provider_unknown']);
    expect(nowhere.body.detail).toContain('rotate it with a token instead');
    expect((await reconnect('stranger', String(flow.body.id))).status).toBe(403);
    expect((await reconnect('workspace_admin', `${ns.name}.cred-none`)).status).toBe(404);
    expect((await reconnect('workspace_admin', 'no-dot')).status).toBe(404);
    const anonymous = await fx.call('POST', `/v1/scoped-credentials/${keyId}/reconnect`);
    expect(anonymous.status).toBe(401);
    const body = await call('workspace_admin', 'POST', `/v1/scoped-credentials/${keyId}/reconnect`, {
      body: { material: 'x' },
    });
    expect(body.status).toBe(400);
    for (const c of await credentials()) {
      await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${String(c.id)}`);
    }
  });

  it('stores nothing when the credential is revoked while its owner signs in', async () => {
    const { page } = await connect();
    const id = String(page.message.credential_id);
    const started = await reconnect('workspace_admin', id);
    expect(started.status).toBe(201);
    await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${id}`);
    const after = await open(await authorize(String(started.body.authorization_url)));
    expect(after.message).toMatchObject({ status: 'error', error: { code: 'credential_gone' } });
    expect(await credentials()).toEqual([]);
  });
});

/** Starts a flow, makes the provider or its token endpoint misbehave, and returns the page. */
async function failingFlow(set: () => void): Promise<{ state: string; page: Page }> {
  set();
  try {
    return await connect();
  } finally {
    as.override = {};
  }
}

describe('connect by OAuth: failures', () => {
  it('shows a provider refusal with its code only, and the session as error', async () => {
    const { state, page } = await failingFlow(() => (as.override.deny = 'access_denied'));
    expect(page.message).toMatchObject({ status: 'error', error: { code: 'provider_error' } });
    expect(page.message.error?.message).toContain('access_denied');
    expect(page.html).not.toContain('the user said no');
    const s = await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`);
    expect(s.body).toMatchObject({ status: 'error', error: { code: 'provider_error' } });
  });

  it.each([
    [
      'a 5xx',
      () => (as.override.token = { status: 503, body: { error: 'temporarily_unavailable' } }),
      'token_endpoint_failed',
    ],
    [
      'a refusal',
      () => (as.override.token = { status: 400, body: { error: 'invalid_grant' } }),
      'token_refused',
    ],
    ['no answer within 5 s', () => (as.override.tokenDelayMs = 6_000), 'token_endpoint_timeout'],
    [
      'an oversized answer',
      () => (as.override.token = { status: 200, raw: 'x'.repeat(100_000) }),
      'token_answer_too_large',
    ],
    [
      'a non-JSON answer',
      () => (as.override.token = { status: 200, raw: '<html>ok</html>' }),
      'token_answer_invalid',
    ],
    [
      'JSON without a token',
      () => (as.override.token = { status: 200, body: { token_type: 'Bearer' } }),
      'token_answer_invalid',
    ],
  ])(
    'answers a token endpoint with %s as a clear error, never a 500, nothing stored',
    async (_what, set, code) => {
      const { state, page } = await failingFlow(set);
      expect(page.status).toBe(200);
      expect(page.message).toMatchObject({ status: 'error', state, error: { code } });
      expect(await credentials()).toEqual([]);
    },
    20_000,
  );

  it('refuses an expired state', async () => {
    const started = await start();
    const state = String(started.body.state);
    // Age the stored session as a clock would, through its Secret (read and written as the operator could).
    const name = sessionSecretName(state);
    const stored = await core().readNamespacedSecret({ namespace: ns.name, name });
    const context = `${ns.name}/${name}/session`;
    const ring = await keyring();
    const record = Buffer.from(stored.data?.session ?? '', 'base64').toString('utf8');
    const session = JSON.parse(decrypt(ring, record, context).toString()) as Record<string, number>;
    const aged = { ...session, expires_at: Date.now() - 1000 };
    await core().replaceNamespacedSecret({
      namespace: ns.name,
      name,
      body: {
        ...stored,
        data: undefined,
        stringData: { session: encrypt(ring, JSON.stringify(aged), context) },
      },
    });
    const s = await call('workspace_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`);
    expect(s.body).toMatchObject({ status: 'error', error: { code: 'state_expired' } });
    const page = await open(await authorize(String(started.body.authorization_url)));
    expect(page.message.error?.code).toBe('state_expired');
    expect(await credentials()).toEqual([]);
  });

  it('checks the starter again at the callback: a revoked key connects nothing', async () => {
    const minted = await call('org_admin', 'POST', '/v1/api-keys', {
      body: { subject: 'walt@example.com', role: 'workspace_admin', workspaces: [ns.name] },
    });
    const key = String(minted.body.key);
    const started = await start('workspace_admin', startBody(), key);
    expect(started.status).toBe(201);
    expect((await call('org_admin', 'DELETE', `/v1/api-keys/${String(minted.body.id)}`)).status).toBe(204);
    const page = await open(await authorize(String(started.body.authorization_url)));
    expect(page.message.error?.code).toBe('caller_revoked');
    expect(await credentials()).toEqual([]);
  });

  it('refuses to start for an unconfigured service, a bad body, a caller without the right, an existing credential', async () => {
    const unknown = await start('workspace_admin', startBody({ service: 'nowhere' }));
    expect([unknown.status, unknown.body.code]).toEqual([422, 'oauth_provider_unknown']);
    expect(unknown.body.detail).toContain('nowhere');
    const material = await start('workspace_admin', startBody({ material: 'x' }));
    expect([material.status, material.body.code]).toEqual([400, 'invalid_body']);
    expect((await start('stranger')).status).toBe(403);
    const org = await start('workspace_admin', { scope: 'org', scope_id: names.org, service: 'docs' });
    expect(org.status).toBe(403);
    expect((await fx.call('POST', '/v1/scoped-credentials/oauth/start', { body: startBody() })).status).toBe(
      401,
    );
    const { page } = await connect();
    expect(page.message.status).toBe('connected');
    const exists = await start();
    expect([exists.status, exists.body.code]).toEqual([409, 'credential_exists']);
  });

  it('answers sessions only to their starter, and 404 for a malformed state', async () => {
    const started = await start();
    const state = String(started.body.state);
    expect((await call('stranger', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`)).status).toBe(
      403,
    );
    expect((await call('org_admin', 'GET', `/v1/scoped-credentials/oauth/sessions/${state}`)).status).toBe(
      404,
    );
    expect((await call('workspace_admin', 'GET', '/v1/scoped-credentials/oauth/sessions/nope')).status).toBe(
      404,
    );
  });

  it('refreshes a token about to expire when the credential proxy reads it, and keeps serving it', async () => {
    for (const c of await credentials()) {
      await call('workspace_admin', 'DELETE', `/v1/scoped-credentials/${String(c.id)}`);
    }
    as.issue = { accessToken: CANARY, refreshToken: REFRESH_CANARY, expiresIn: 30 };
    const { page } = await connect();
    const id = String(page.message.credential_id);
    const name = id.slice(ns.name.length + 1);
    as.issue = { accessToken: REFRESHED, refreshToken: REFRESHED_REFRESH, expiresIn: 3600 };
    const agent = await fx.createAgent('worker', defaultOwners(), { workspace: 'ws' });
    const key = await agentGatewayKey(fx, agent, true);
    const path = `/v1/agents/${agent}/egress/credentials/${name}`;
    // The proxy's read is the one answer that carries the material (to the agent's own Gateway key).
    const read = await fx.call('GET', path, { key });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ service: 'docs', type: 'oauth_token', value: REFRESHED });
    expect(as.lastTokenRequest?.form).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: REFRESH_CANARY,
    });
    const secret = await core().readNamespacedSecret({ namespace: ns.name, name });
    const ring = await keyring();
    const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
    expect(decrypt(ring, text('material'), `${ns.name}/${name}/material`).toString()).toBe(REFRESHED);
    const extra = JSON.parse(decrypt(ring, text('oauth'), `${ns.name}/${name}/oauth`).toString()) as {
      refresh_token: string;
    };
    expect(extra.refresh_token).toBe(REFRESHED_REFRESH);
    const tokenCalls = as.hits.filter((h) => h === 'POST /token').length;
    expect((await fx.call('GET', path, { key })).body.value).toBe(REFRESHED);
    expect(as.hits.filter((h) => h === 'POST /token').length).toBe(tokenCalls);
  });

  it('never shows a token, the client secret or a code in an answer, page, log line, audit entry or event', async () => {
    const audit = readFileSync(auditPath, 'utf8');
    expect(audit).toContain('scoped.oauth_callback');
    const events = await core().listNamespacedEvent({ namespace: ns.name });
    const texts = [
      ['answers and pages', answers.join('\n')],
      ['log', logLines.join('')],
      ['operator log', JSON.stringify(operator.logs)],
      ['audit', audit],
      ['events', JSON.stringify(events.items)],
    ] as const;
    expect(answers.length).toBeGreaterThan(20);
    for (const secret of secrets) {
      for (const [what, text] of texts) {
        expect(text.includes(secret), `${secret.slice(0, 12)}… in ${what}`).toBe(false);
      }
    }
  });
});
