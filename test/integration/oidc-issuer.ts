// A real OIDC issuer on loopback for tests: its discovery document and JWKS
// over HTTP, and ID/access tokens it signs (ES256). Register it with
// `useOidcIssuer()` before `useApi`, so it listens before the API starts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export const OIDC_AUDIENCE = 'platform-api';

export interface UserTokenOptions {
  sub: string;
  aud?: string;
  expSeconds?: number;
  /** The token's jti: a fresh one by default; `null` for none. */
  jti?: string | null;
  key?: CryptoKey;
}

export interface OidcIssuer {
  url: string;
  token(o: UserTokenOptions): Promise<string>;
  /** The API's settings for this issuer. */
  env(): Record<string, string>;
}

export function useOidcIssuer(): OidcIssuer {
  const state = { server: undefined as Server | undefined, key: undefined as CryptoKey | undefined };
  const issuer: OidcIssuer = {
    url: '',
    token: (o) => {
      const now = Math.floor(Date.now() / 1000);
      const jti = o.jti === undefined ? randomUUID() : o.jti;
      const jwt = new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(issuer.url)
        .setSubject(o.sub)
        .setAudience(o.aud ?? OIDC_AUDIENCE)
        .setIssuedAt(now - 60)
        .setExpirationTime(now + (o.expSeconds ?? 300));
      return (jti === null ? jwt : jwt.setJti(jti)).sign(o.key ?? (state.key as CryptoKey));
    },
    env: () => ({ PLATFORM_OIDC_ISSUER: issuer.url, PLATFORM_OIDC_AUDIENCE: OIDC_AUDIENCE }),
  };
  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    state.key = privateKey;
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    state.server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        return res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/jwks` }));
      }
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => state.server!.listen(0, '127.0.0.1', r));
    issuer.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    state.server?.closeAllConnections();
    await new Promise((r) => state.server?.close(r));
  });
  return issuer;
}
