// OIDC bearer tokens against a real loopback issuer (discovery document and
// JWKS served over HTTP): valid tokens name the user, groups grant admin
// roles, and expired, wrong-audience, foreign-key and unsigned tokens are 401.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { useApi } from './api-harness.ts';
import { useNamespace } from './harness.ts';

const issuer = {
  url: '',
  server: undefined as Server | undefined,
  key: undefined as CryptoKey | undefined,
  fetches: 0,
};

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  issuer.key = privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuer.server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      return res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/jwks` }));
    }
    issuer.fetches++;
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => issuer.server!.listen(0, '127.0.0.1', r));
  issuer.url = `http://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  issuer.server?.closeAllConnections();
  await new Promise((r) => issuer.server?.close(r));
});

const ns = useNamespace('api-oidc');
const fx = useApi(ns, () => ({ PLATFORM_OIDC_ISSUER: issuer.url, PLATFORM_OIDC_AUDIENCE: 'platform-api' }));

interface TokenOptions {
  sub?: string;
  aud?: string;
  expSeconds?: number;
  groups?: string[];
  key?: CryptoKey;
}

async function token(o: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ groups: o.groups ?? [] })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer.url)
    .setSubject(o.sub ?? 'olga@example.com')
    .setAudience(o.aud ?? 'platform-api')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (o.expSeconds ?? 300))
    .sign(o.key ?? (issuer.key as CryptoKey));
}

describe('OIDC bearer tokens', () => {
  it('accepts a valid token and names its subject', async () => {
    const r = await fx.call('POST', '/v1/api-keys', { key: await token(), body: {} });
    expect(r.status).toBe(201);
    expect(r.body.subject).toBe('olga@example.com');
    expect(issuer.fetches).toBeGreaterThan(0);
  });

  it('maps the platform:org-admins group to an org administrator', async () => {
    const admin = await token({ sub: 'root@example.com', groups: ['platform:org-admins'] });
    expect((await fx.call('GET', '/v1/audit/verify', { key: admin })).status).toBe(200);
    expect((await fx.call('GET', '/v1/audit/verify', { key: await token() })).status).toBe(403);
  });

  it('401 for expired, wrong-audience, foreign-key and unsigned tokens', async () => {
    const expired = await fx.call('GET', '/v1/agents', { key: await token({ expSeconds: -30 }) });
    expect(expired).toMatchObject({ status: 401, body: { detail: 'OIDC token expired' } });
    const aud = await fx.call('GET', '/v1/agents', { key: await token({ aud: 'someone-else' }) });
    expect(aud.status).toBe(401);
    expect(aud.body.detail).toContain('aud');
    const { privateKey } = await generateKeyPair('ES256');
    expect((await fx.call('GET', '/v1/agents', { key: await token({ key: privateKey }) })).status).toBe(401);
    const [h, p] = (await token()).split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect((await fx.call('GET', '/v1/agents', { key: none })).status).toBe(401);
    expect((await fx.call('GET', '/v1/agents', { key: `${h}.${p}.AAAA` })).status).toBe(401);
  });
});
