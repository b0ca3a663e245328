import { generateKeyPair, exportJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import type { SigningKey } from '../../base/identity/trust-keys.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { authenticateClient, clientAssertionOf, clientRefusal } from './client-auth.ts';
import { oauthErrorBody, OAuthError } from './errors.ts';
import { HttpError } from '../../base/http-error.ts';
import { ASSERTION_JWT_BEARER, ASSERTION_JWT_SPIFFE, authorizationServerMetadata } from './metadata.ts';
import { clientCredentialsRequest } from './token-request.ts';

const ISSUER = 'https://verifier.test';
const TD = 'td.test';
const SUB = `spiffe://${TD}/agent/ns.alpha`;

async function trust(): Promise<{ key: SigningKey; bundle: { keys: Record<string, unknown>[] } }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'jwt-svid' };
  return { key: { kid: 'k1', alg: 'ES256', privateKey }, bundle: { keys: [jwk] } };
}

const agent = (over: Partial<PlatformAgent['spec']> = {}, phase = 'running'): PlatformAgent =>
  ({
    metadata: { namespace: 'ns', name: 'alpha' },
    spec: { owners: [{ subject: 'o@x', role: 'Owner' }], ...over },
    status: { spiffeId: SUB, oauthClientId: 'ns.alpha.abc', phase },
  }) as PlatformAgent;

describe('clientAssertionOf', () => {
  const form = { client_assertion: 'x', client_assertion_type: ASSERTION_JWT_SPIFFE };
  it('takes an assertion of either type', () => {
    expect(clientAssertionOf(form, 'Bearer api-key')).toEqual({ assertion: 'x' });
    expect(
      clientAssertionOf({ ...form, client_assertion_type: ASSERTION_JWT_BEARER, client_id: 'c' }, ''),
    ).toEqual({ assertion: 'x', clientId: 'c' });
  });
  it('refuses secrets (Basic with WWW-Authenticate), no assertion, an unknown or missing type', () => {
    expect(() => clientAssertionOf(form, 'Basic Zm9vOmJhcg==')).toThrow(
      expect.objectContaining({
        status: 401,
        code: 'invalid_client',
        headers: expect.objectContaining({ 'www-authenticate': expect.stringMatching(/^Basic/) }),
      }),
    );
    expect(() => clientAssertionOf({ ...form, client_secret: 's' }, '')).toThrow(
      expect.objectContaining({ code: 'invalid_client' }),
    );
    expect(() => clientAssertionOf({}, '')).toThrow(
      expect.objectContaining({ status: 401, code: 'invalid_client' }),
    );
    expect(() => clientAssertionOf({ client_assertion: 'x' }, '')).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_request' }),
    );
    expect(() => clientAssertionOf({ ...form, client_assertion_type: 'urn:x' }, '')).toThrow(
      expect.objectContaining({ code: 'invalid_client' }),
    );
  });
});

describe('authenticateClient', () => {
  it('accepts an SVID for the token endpoint or the issuer; refuses other audiences, expired, forged, HS256 and none', async () => {
    const { key, bundle } = await trust();
    const ctx = {
      issuer: ISSUER,
      trustDomain: TD,
      bundle,
      agentAt: (k: string) => (k === 'ns/alpha' ? agent() : undefined),
    };
    for (const aud of [`${ISSUER}/oauth/token`, ISSUER]) {
      const svid = await issueJwtSvid({ spiffeId: SUB, audience: aud, ttlSeconds: 60, key });
      await expect(
        authenticateClient({ assertion: svid, clientId: 'ns.alpha.abc' }, ctx),
      ).resolves.toMatchObject({ spiffeId: SUB, clientId: 'ns.alpha.abc' });
    }
    const refused = async (assertion: string): Promise<void> =>
      expect(authenticateClient({ assertion }, ctx)).rejects.toMatchObject({
        status: 401,
        code: 'invalid_client',
      });
    await refused(await issueJwtSvid({ spiffeId: SUB, audience: 'https://elsewhere', ttlSeconds: 60, key }));
    await refused(await issueJwtSvid({ spiffeId: SUB, audience: ISSUER, ttlSeconds: 60, key, now: 1_000 }));
    const other = await trust();
    await refused(await issueJwtSvid({ spiffeId: SUB, audience: ISSUER, ttlSeconds: 60, key: other.key }));
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setSubject(SUB)
      .setAudience(ISSUER)
      .setExpirationTime('1m')
      .sign(new Uint8Array(32));
    await refused(hs);
    const none = `${Buffer.from('{"alg":"none","kid":"k1"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: SUB, aud: ISSUER, exp: 9e9 })).toString('base64url')}.`;
    await refused(none);
  });

  it("refuses another agent's client_id, an unknown agent, one whose status holds another ID", async () => {
    const { key, bundle } = await trust();
    const svid = await issueJwtSvid({ spiffeId: SUB, audience: ISSUER, ttlSeconds: 60, key });
    const base = { issuer: ISSUER, trustDomain: TD, bundle };
    const err = expect.objectContaining({ code: 'invalid_client' });
    await expect(
      authenticateClient({ assertion: svid, clientId: 'ns.beta.def' }, { ...base, agentAt: () => agent() }),
    ).rejects.toThrow(err);
    await expect(
      authenticateClient({ assertion: svid }, { ...base, agentAt: () => undefined }),
    ).rejects.toThrow(err);
    const moved = { ...agent(), status: { spiffeId: `spiffe://${TD}/agent/ns.beta` } } as PlatformAgent;
    await expect(authenticateClient({ assertion: svid }, { ...base, agentAt: () => moved })).rejects.toThrow(
      err,
    );
  });

  it('refuses a suspended agent, one without an Owner or without an OAuth client', () => {
    expect(clientRefusal(agent())).toBeUndefined();
    expect(clientRefusal(agent({ suspend: true }))).toMatch(/suspended/);
    expect(clientRefusal(agent({}, 'suspended'))).toMatch(/suspended/);
    expect(clientRefusal(agent({ owners: [{ subject: 'e@x', role: 'Editor' }] }))).toMatch(/no Owner/);
    expect(clientRefusal({ ...agent(), status: { spiffeId: SUB } } as PlatformAgent)).toMatch(
      /no OAuth client/,
    );
  });
});

describe('clientCredentialsRequest', () => {
  it('reads scope and audience; the issuer by default', () => {
    expect(clientCredentialsRequest({ grant_type: 'client_credentials' }, ISSUER)).toEqual({
      scope: '',
      audience: ISSUER,
    });
    expect(
      clientCredentialsRequest(
        { grant_type: 'client_credentials', scope: 'b a b', resource: 'https://r/x' },
        ISSUER,
      ),
    ).toEqual({ scope: 'b a', audience: 'https://r/x' });
  });
  it.each([
    [{}, 'invalid_request'],
    [{ grant_type: 'password' }, 'unsupported_grant_type'],
    [{ grant_type: 'client_credentials', scope: 'a  b' }, 'invalid_scope'],
    [{ grant_type: 'client_credentials', scope: 'a"b' }, 'invalid_scope'],
    [{ grant_type: 'client_credentials', resource: 'relative' }, 'invalid_target'],
    [{ grant_type: 'client_credentials', resource: 'https://r#f' }, 'invalid_target'],
    [{ grant_type: 'client_credentials', resource: 'https://r', audience: 'x' }, 'invalid_target'],
  ])('%j is %s', (params, code) => {
    expect(() => clientCredentialsRequest(params, ISSUER)).toThrow(
      expect.objectContaining({ code, status: 400 }),
    );
  });
});

describe('errors and metadata', () => {
  it('shapes errors as RFC 6749 §5.2 with only allowed characters', () => {
    expect(oauthErrorBody(new OAuthError('invalid_scope', 'bad "x"'))).toEqual({
      error: 'invalid_scope',
      error_description: "bad 'x'",
    });
    expect(oauthErrorBody(new HttpError(415, 'send form', 'unsupported_media_type'))).toMatchObject({
      error: 'invalid_request',
    });
    expect(oauthErrorBody(new HttpError(503, 'later'))).toMatchObject({ error: 'temporarily_unavailable' });
  });
  it('names the endpoints under the issuer', () => {
    expect(authorizationServerMetadata(ISSUER)).toMatchObject({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/oauth/token`,
      jwks_uri: `${ISSUER}/oauth/jwks`,
      grant_types_supported: ['client_credentials'],
      token_exchange_endpoint: expect.stringMatching(/\/v1\/token-exchange$/),
    });
  });
});
