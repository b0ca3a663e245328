// The credential proxy's token_exchange injection against the real API's
// RFC 8693 endpoint (a real apiserver, a loopback OIDC issuer): each user's
// token becomes a delegation token for that user (sub) and this agent (act),
// kept per user, so one user's request never carries another's token; a user
// without a grant gets 403 with the endpoint's OAuth code.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { API_VERSION, GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { InjectionError, type EgressRule, type Injector } from '../../contract/egress.ts';
import { createInjector } from '../../proxy/egress/injector.ts';
import { defaultOwners, useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { makeClient, svid, trustKey } from './oauth-client.ts';
import { useOidcIssuer } from './oidc-issuer.ts';

const TD = 'proxy-exchange.test';
const [ALICE, BOB, CAROL] = ['alice@example.com', 'bob@example.com', 'carol@example.com'];

const idp = useOidcIssuer();
const ns = useNamespace('proxy-exchange');
const fx = useApi(ns, () => ({ ...idp.env(), PLATFORM_TRUST_DOMAIN: TD }));
const issuer = (): string => `http://platform-verifier.${ns.name}.svc:8000`;
let agentId = '';
let spiffeId = '';
let injector: Injector;

const SLACK: EgressRule = {
  destination: 'slack.com',
  injectionMethod: 'token_exchange',
  approval: 'auto',
  service: 'slack',
  source: 'agent',
};

async function writeGrant(user: string, service: string): Promise<void> {
  const now = Date.now();
  const name = `g-${service}-${user.split('@')[0]}`;
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL.grant,
      namespace: ns.name,
      body: {
        apiVersion: API_VERSION,
        kind: 'DelegationGrant',
        metadata: { name },
        spec: {
          user,
          agent: 'alpha',
          service,
          scopes: ['chat:read'],
          grantedAt: new Date(now - 60_000).toISOString(),
          expiresAt: new Date(now + 3_600_000).toISOString(),
          consentRef: 'direct',
        },
      },
    });
  await eventually(() => (fx.api.deps.grants.get(`${ns.name}/${name}`) ? true : undefined), name);
}

const ctx = (subjectToken: string) => ({ subjectToken, signal: new AbortController().signal });

async function tokenFor(user: string, rule = SLACK): Promise<string> {
  const injection = await injector.inject(rule, ctx(await idp.token({ sub: user })));
  return (injection.set.authorization ?? '').replace(/^Bearer /, '');
}

beforeAll(async () => {
  const owners = [...defaultOwners(), ...[ALICE, BOB].map((subject) => ({ subject, role: 'Viewer' }))];
  agentId = await fx.createAgent('alpha', owners);
  spiffeId = await makeClient(fx, agentId, TD);
  await writeGrant(ALICE, 'slack');
  await writeGrant(BOB, 'slack');
  // The pod's mounted JWT-SVID, as the operator writes it: audience the platform's issuer.
  const svidDir = mkdtempSync(join(tmpdir(), 'svid-'));
  writeFileSync(join(svidDir, 'svid.jwt'), await svid(spiffeId, issuer(), await trustKey(ns.name, TD)));
  injector = createInjector({
    verifierUrl: fx.api.url,
    agentId,
    tokenExchangeUrl: `${fx.api.url}/v1/token-exchange`,
    svidDir,
  });
}, 90_000);

describe('token_exchange injection against the platform', () => {
  it('injects a delegation token for each user, never one user’s token for another', async () => {
    const jwks = createLocalJWKSet((await fx.call('GET', '/oauth/jwks')).body as unknown as JSONWebKeySet);
    const aliceToken = await tokenFor(ALICE);
    const bobToken = await tokenFor(BOB);
    const { payload: alice } = await jwtVerify(aliceToken, jwks, { issuer: issuer(), audience: 'slack' });
    expect(alice).toMatchObject({ sub: ALICE, act: { sub: spiffeId } });
    expect(decodeJwt(bobToken)).toMatchObject({ sub: BOB, act: { sub: spiffeId }, aud: 'slack' });
    const aliceSubject = await idp.token({ sub: ALICE });
    const first = await injector.inject(SLACK, ctx(aliceSubject));
    expect(decodeJwt(first.set.authorization!.slice(7)).sub).toBe(ALICE);
    expect((await injector.inject(SLACK, ctx(aliceSubject))).set).toEqual(first.set);
  });

  it('gives 403 with the OAuth code to a user without a grant and for a service not delegated', async () => {
    // Both run at once; each gets its handler at once, so the second's refusal is never unhandled.
    const attempts = [tokenFor(CAROL), tokenFor(ALICE, { ...SLACK, service: 'github' })].map((p) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    for (const attempt of attempts) {
      const err = await attempt;
      expect(err).toBeInstanceOf(InjectionError);
      expect(err).toMatchObject({ status: 403, code: 'invalid_grant' });
    }
  });
});
