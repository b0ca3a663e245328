// RFC 8693 token exchange against a real apiserver and a loopback OIDC
// issuer (decision 142): a user's token and an agent's own JWT-SVID become a
// delegation token (sub the user, act.sub the agent) only while an active
// grant covers the service and scopes and the Access Manifest permits them;
// every other request is an RFC 6749 error without a token, and every use is
// in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, generateKeyPair, jwtVerify, type JSONWebKeySet } from 'jose';
import type { DelegationGrant } from '../../crds/generated/types.ts';
import { generateTrustKey, signingKeyOf } from '../../base/identity/trust-keys.ts';
import { k8s } from '../../base/kube.ts';
import { API_VERSION, GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { defaultOwners, useApi, type Reply } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { FORM_HEADERS, form, makeClient, svid, trustKey } from './oauth-client.ts';
import { useOidcIssuer } from './oidc-issuer.ts';

const TD = 'exchange.test';
const USER = 'ursula@example.com';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';
const ACCESS = 'urn:ietf:params:oauth:token-type:access_token';

const idp = useOidcIssuer();
const ns = useNamespace('api-exchange');
const fx = useApi(ns, () => ({ ...idp.env(), PLATFORM_TRUST_DOMAIN: TD }));
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const issuer = (): string => `http://platform-verifier.${ns.name}.svc:8000`;
const agents = { alpha: '', beta: '', capped: '' };
const spiffe = { alpha: '', beta: '', capped: '' };
const org = (): string => `org-${ns.name}`;

const post = (body: string, headers: Record<string, string> = FORM_HEADERS): Promise<Reply> =>
  fx.call('POST', '/v1/token-exchange', { raw: body, headers });

async function actorToken(who: keyof typeof spiffe): Promise<string> {
  return svid(spiffe[who], `${issuer()}/v1/token-exchange`, await trustKey(ns.name, TD));
}

interface Ask {
  who?: keyof typeof spiffe;
  subject?: string;
  service?: string;
  extra?: Record<string, string>;
}

async function exchange(a: Ask = {}): Promise<Reply> {
  return post(
    form({
      grant_type: GRANT_TYPE,
      subject_token: a.subject ?? (await idp.token({ sub: USER })),
      subject_token_type: ACCESS,
      actor_token: await actorToken(a.who ?? 'alpha'),
      actor_token_type: JWT,
      audience: a.service ?? 'slack',
      ...a.extra,
    }),
  );
}

function expectOAuthError(r: Reply, error: string, status = 400): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ error });
  expect(r.body).not.toHaveProperty('access_token');
  expect(r.headers.get('cache-control')).toBe('no-store');
}

/** Writes a grant past the API (so its times may be anything) and waits until the API's cache has it. */
async function writeGrant(agent: string, spec: Partial<DelegationGrant['spec']>): Promise<string> {
  const now = Date.now();
  const name = `g-${spec.service}-${agent}`.slice(0, 60);
  await custom().createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.grant,
    namespace: ns.name,
    body: {
      apiVersion: API_VERSION,
      kind: 'DelegationGrant',
      metadata: { name },
      spec: {
        user: USER,
        agent,
        service: 'slack',
        scopes: ['chat:read'],
        grantedAt: new Date(now - 60_000).toISOString(),
        expiresAt: new Date(now + 3_600_000).toISOString(),
        consentRef: 'direct',
        ...spec,
      },
    },
  });
  await eventually(() => (fx.api.deps.grants.get(`${ns.name}/${name}`) ? true : undefined), name);
  return name;
}

/** A grant through the API: the Editor asks, the user allows with their OIDC token. */
async function grantViaApi(service: string, scopes: string[]): Promise<string> {
  const base = `/v1/agents/${agents.alpha}/delegations`;
  const asked = await fx.call('POST', `${base}/pending`, {
    key: fx.keys.editor,
    body: { user: USER, service, scopes, ttl: '1h' },
  });
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  const userKey = await idp.token({ sub: USER });
  await fx.until(`${base}/pending`, (g) => (g.body.items ?? []).some((c) => c.id === asked.body.id));
  const allowed = await fx.call('POST', base, { key: userKey, body: { consent_id: asked.body.id } });
  expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  const name = String(allowed.body.id);
  await eventually(() => (fx.api.deps.grants.get(`${ns.name}/${name}`) ? true : undefined), name);
  return name;
}

async function createManifestTiers(): Promise<void> {
  await custom().createClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.organization,
    body: {
      apiVersion: API_VERSION,
      kind: 'Organization',
      metadata: { name: org() },
      spec: {
        homeNamespace: ns.name,
        accessManifest: { account: { services: [{ service: 'slack', maxDelegationTtl: '5m' }] } },
      },
    },
  });
  await custom().createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.workspace,
    namespace: ns.name,
    body: {
      apiVersion: API_VERSION,
      kind: 'PlatformWorkspace',
      metadata: { name: 'ws' },
      spec: { organization: org() },
    },
  });
}

beforeAll(async () => {
  const owners = [...defaultOwners(), { subject: USER, role: 'Viewer' }];
  agents.alpha = await fx.createAgent('alpha', owners);
  agents.beta = await fx.createAgent('beta', owners);
  await createManifestTiers();
  const r = await fx.call('POST', '/v1/agents', {
    key: fx.keys.org_admin,
    body: { namespace: ns.name, name: 'capped', spec: { owners, model: { id: 'm' }, workspace: 'ws' } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  agents.capped = `${ns.name}.capped`;
  for (const who of ['alpha', 'beta', 'capped'] as const) spiffe[who] = await makeClient(fx, agents[who], TD);
}, 90_000);

afterAll(async () => {
  await custom()
    .deleteClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL.organization, name: org() })
    .catch(() => undefined);
});

describe('token exchange', () => {
  it('issues a delegation token with act, for the grant’s service and scopes, and audits it', async () => {
    await grantViaApi('slack', ['chat:read', 'chat:write']);
    const r = await exchange({ extra: { scope: 'chat:read', requested_token_type: ACCESS } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({ issued_token_type: ACCESS, token_type: 'Bearer', scope: 'chat:read' });
    expect(r.body.expires_in).toBeGreaterThan(3000);
    expect(r.body.expires_in).toBeLessThanOrEqual(3600);
    const jwks = (await fx.call('GET', '/oauth/jwks')).body as unknown as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(
      String(r.body.access_token),
      createLocalJWKSet(jwks),
      {
        issuer: issuer(),
        audience: 'slack',
      },
    );
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({
      sub: USER,
      act: { sub: spiffe.alpha },
      scope: 'chat:read',
      client_id: `${agents.alpha}.c1`,
    });
    const all = await exchange();
    expect(all.body.scope).toBe('chat:read chat:write');

    const entries = await fx.api.deps.audit.query({ action: 'delegation.token_exchange', limit: 10 });
    expect(entries[0]).toMatchObject({
      subject: USER,
      method: 'oidc',
      status: 200,
      outcome: 'allowed',
      details: { user: USER, agent: spiffe.alpha, service: 'slack', outcome: 'issued' },
    });
    expect(JSON.stringify(entries)).not.toContain(String(all.body.access_token).split('.')[2]);
  });

  it('refuses without a grant, beyond its scopes, and another agent’s exchange of it', async () => {
    expectOAuthError(await exchange({ service: 'github' }), 'invalid_grant');
    expectOAuthError(await exchange({ extra: { scope: 'chat:read admin' } }), 'invalid_scope');
    // beta presents its own SVID, but the user delegated slack to alpha only.
    expectOAuthError(await exchange({ who: 'beta' }), 'unauthorized_client');
    const entries = await fx.api.deps.audit.query({ action: 'delegation.token_exchange', limit: 1 });
    expect(entries[0]).toMatchObject({
      subject: USER,
      outcome: 'failed',
      details: { agent: spiffe.beta, service: 'slack', outcome: 'unauthorized_client' },
    });
  });

  it('refuses once the grant is revoked, and a grant past its expiry', async () => {
    const grant = await grantViaApi('calendar', ['events:read']);
    expect((await exchange({ service: 'calendar' })).status).toBe(200);
    const userKey = await idp.token({ sub: USER });
    const revoked = await fx.call('DELETE', `/v1/agents/${agents.alpha}/delegations/${grant}`, {
      key: userKey,
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    const after = await exchange({ service: 'calendar' });
    expectOAuthError(after, 'invalid_grant');
    expect(after.body.error_description).toMatch(/revoked/);

    const past = Date.now() - 120_000;
    await writeGrant('alpha', {
      service: 'drive',
      grantedAt: new Date(past - 60_000).toISOString(),
      expiresAt: new Date(past).toISOString(),
    });
    const expired = await exchange({ service: 'drive' });
    expectOAuthError(expired, 'invalid_grant');
    expect(expired.body.error_description).toMatch(/expired/);
  });

  it('caps the lifetime at the Access Manifest’s maximum and refuses a service it does not list', async () => {
    await writeGrant('capped', { service: 'slack' });
    await writeGrant('capped', { service: 'github' });
    const r = await exchange({ who: 'capped', extra: { expires_in: '3600' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.expires_in).toBe(300);
    expect((await exchange({ who: 'capped', extra: { expires_in: '42' } })).body.expires_in).toBe(42);
    expectOAuthError(await exchange({ who: 'capped', service: 'github' }), 'invalid_target');
  });

  it('refuses forged, expired, wrong-audience and replayed subject tokens with invalid_grant', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const bad = [
      await idp.token({ sub: USER, key: privateKey }),
      await idp.token({ sub: USER, expSeconds: -30 }),
      await idp.token({ sub: USER, aud: 'someone-else' }),
      fx.keys.viewer,
    ];
    for (const subject of bad) expectOAuthError(await exchange({ subject }), 'invalid_grant');

    await writeGrant('alpha', { service: 'mail' });
    await writeGrant('beta', { service: 'mail' });
    for (const jti of ['replayed', null]) {
      const subject = await idp.token({ sub: USER, jti });
      expect((await exchange({ subject, service: 'mail' })).status).toBe(200);
      expect((await exchange({ subject, service: 'mail' })).status).toBe(200);
      const replay = await exchange({ subject, service: 'mail', who: 'beta' });
      expectOAuthError(replay, 'invalid_grant');
      expect(replay.body.error_description).toMatch(/already exchanged/);
    }
    expect((await exchange({ service: 'mail', who: 'beta' })).status).toBe(200);
  });

  it('refuses forged actor tokens and suspended agents with unauthorized_client', async () => {
    const key = await trustKey(ns.name, TD);
    const forger = (await signingKeyOf([
      { ...(await generateTrustKey(TD, Date.now(), 3_600_000)), kid: key.kid },
    ]))!;
    const forged = await svid(spiffe.alpha, `${issuer()}/v1/token-exchange`, forger);
    const wrongAud = await svid(spiffe.alpha, 'https://elsewhere', key);
    for (const actor of [forged, wrongAud, 'not-a-jwt']) {
      const r = await exchange({ extra: { actor_token: actor } });
      expectOAuthError(r, 'unauthorized_client');
    }
    const suspended = await fx.call('POST', `/v1/agents/${agents.beta}/suspend`, { key: fx.keys.owner });
    expect(suspended.status, JSON.stringify(suspended.body)).toBeLessThan(300);
    await eventually(
      () => (fx.api.deps.agents.agent(`${ns.name}/beta`)?.spec.suspend ? true : undefined),
      'beta suspended in the cache',
    );
    expectOAuthError(await exchange({ who: 'beta', service: 'mail' }), 'unauthorized_client');
  });

  it('answers malformed requests with invalid_request or their own code, never a token', async () => {
    const subject = await idp.token({ sub: USER });
    const actor = await actorToken('alpha');
    const good = {
      grant_type: GRANT_TYPE,
      subject_token: subject,
      subject_token_type: JWT,
      actor_token: actor,
      actor_token_type: JWT,
      audience: 'slack',
    };
    const { actor_token: _, ...noActor } = good;
    const cases: [string, string][] = [
      [form(noActor), 'invalid_request'],
      [form({ ...good, subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' }), 'invalid_request'],
      [form({ ...good, actor_token_type: ACCESS }), 'invalid_request'],
      [form({ ...good, requested_token_type: JWT }), 'invalid_request'],
      [form({ ...good, grant_type: 'client_credentials' }), 'unsupported_grant_type'],
      [form({ ...good, audience: 'slack', resource: 'https://other' }), 'invalid_target'],
      [form({ ...good, expires_in: 'soon' }), 'invalid_request'],
      [`${form(good)}&audience=github`, 'invalid_request'],
      ['grant_type=%zz', 'invalid_request'],
    ];
    for (const [body, error] of cases) expectOAuthError(await post(body), error);
    const json = await post(JSON.stringify(good), { 'content-type': 'application/json' });
    expectOAuthError(json, 'invalid_request', 415);
  });
});
