// The platform's OAuth authorization server against a real apiserver: the
// metadata and JWKS are public; an agent authenticating with its own JWT-SVID
// (either assertion type) gets an access token the JWKS verifies; forged,
// expired, wrong-audience SVIDs, another agent's client_id, secrets and
// malformed bodies get RFC 6749 errors and never a token.
import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { generateTrustKey, signingKeyOf } from '../../base/identity/trust-keys.ts';
import { useApi, type Reply } from './api-harness.ts';
import { useNamespace } from './harness.ts';
import { FORM_HEADERS, form, JWT_BEARER, JWT_SPIFFE, makeClient, svid, trustKey } from './oauth-client.ts';

const TD = 'oauth.test';
const ns = useNamespace('api-oauth');
const fx = useApi(ns, () => ({ PLATFORM_TRUST_DOMAIN: TD }));
const issuer = (): string => `http://platform-verifier.${ns.name}.svc:8000`;
const tokenUrl = (): string => `${issuer()}/oauth/token`;

const post = (body: string, headers: Record<string, string> = FORM_HEADERS): Promise<Reply> =>
  fx.call('POST', '/oauth/token', { raw: body, headers });

function expectOAuthError(r: Reply, status: number, error: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ error });
  expect(r.body).not.toHaveProperty('access_token');
  expect(r.headers.get('cache-control')).toBe('no-store');
}

describe('OAuth authorization server', () => {
  it('serves RFC 8414 metadata and the signing keys as a JWKS, without credentials', async () => {
    const meta = await fx.call('GET', '/.well-known/oauth-authorization-server');
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({
      issuer: issuer(),
      token_endpoint: tokenUrl(),
      jwks_uri: `${issuer()}/oauth/jwks`,
    });
    const key = await trustKey(ns.name, TD);
    const jwks = await fx.until('/oauth/jwks', (r) => r.status === 200);
    const keys = (jwks.body as unknown as JSONWebKeySet).keys;
    expect(keys.map((k) => [k.kid, k.use])).toContainEqual([key.kid, 'sig']);
    expect(JSON.stringify(keys)).not.toMatch(/"d":/);
  });

  it('issues a token to an agent presenting its own SVID, with either assertion type', async () => {
    const id = await fx.createAgent('alpha');
    const spiffeId = await makeClient(fx, id, TD);
    const key = await trustKey(ns.name, TD);
    for (const type of [JWT_BEARER, JWT_SPIFFE]) {
      const assertion = await svid(spiffeId, tokenUrl(), key);
      const r = await post(
        form({
          grant_type: 'client_credentials',
          scope: 'read write',
          audience: 'https://svc',
          client_assertion_type: type,
          client_assertion: assertion,
          client_id: `${id}.c1`,
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'read write' });
      const jwks = (await fx.call('GET', '/oauth/jwks')).body as unknown as JSONWebKeySet;
      const { payload, protectedHeader } = await jwtVerify(
        String(r.body.access_token),
        createLocalJWKSet(jwks),
        { issuer: issuer(), audience: 'https://svc' },
      );
      expect(protectedHeader.typ).toBe('at+jwt');
      expect(payload).toMatchObject({ sub: spiffeId, client_id: `${id}.c1`, scope: 'read write' });
    }
  });

  it('refuses forged, expired, wrong-audience SVIDs and another agent’s client_id with invalid_client', async () => {
    const alpha = `${ns.name}.alpha`;
    const beta = await fx.createAgent('beta');
    await makeClient(fx, beta, TD);
    const spiffeId = `spiffe://${TD}/agent/${alpha}`;
    const key = await trustKey(ns.name, TD);
    const forger = (await signingKeyOf([
      { ...(await generateTrustKey(TD, Date.now(), 3_600_000)), kid: key.kid },
    ]))!;
    const bad = [
      await svid(spiffeId, tokenUrl(), forger),
      await svid(spiffeId, tokenUrl(), key, Math.floor(Date.now() / 1000) - 3600),
      await svid(spiffeId, 'https://elsewhere', key),
    ];
    for (const assertion of bad) {
      expectOAuthError(
        await post(
          form({
            grant_type: 'client_credentials',
            client_assertion_type: JWT_BEARER,
            client_assertion: assertion,
          }),
        ),
        401,
        'invalid_client',
      );
    }
    const own = await svid(spiffeId, tokenUrl(), key);
    expectOAuthError(
      await post(
        form({
          grant_type: 'client_credentials',
          client_assertion_type: JWT_BEARER,
          client_assertion: own,
          client_id: `${beta}.c1`,
        }),
      ),
      401,
      'invalid_client',
    );
  });

  it('answers bad requests in the RFC 6749 shape: secrets, grant types, scopes, malformed bodies', async () => {
    const basic = await post(form({ grant_type: 'client_credentials' }), {
      ...FORM_HEADERS,
      authorization: 'Basic YTpi',
    });
    expectOAuthError(basic, 401, 'invalid_client');
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
    const key = await trustKey(ns.name, TD);
    const assertion = await svid(`spiffe://${TD}/agent/${ns.name}.alpha`, tokenUrl(), key);
    const auth = { client_assertion_type: JWT_SPIFFE, client_assertion: assertion };
    expectOAuthError(await post(form({ grant_type: 'password', ...auth })), 400, 'unsupported_grant_type');
    expectOAuthError(
      await post(form({ grant_type: 'client_credentials', scope: 'a\\b', ...auth })),
      400,
      'invalid_scope',
    );
    expectOAuthError(await post(form(auth)), 400, 'invalid_request');
    expectOAuthError(await post('grant_type=client_credentials&grant_type=x'), 400, 'invalid_request');
    expectOAuthError(await post('grant_type=%zz'), 400, 'invalid_request');
    expectOAuthError(await post('grant_type=\u0001'), 422, 'invalid_request');
    expectOAuthError(
      await post('{"grant_type":"client_credentials"}', { 'content-type': 'application/json' }),
      415,
      'invalid_request',
    );
  });
});
