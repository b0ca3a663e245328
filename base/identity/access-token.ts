// Access tokens of the platform's authorization server (client_credentials
// and token exchange): JWTs in the RFC 9068 profile (`typ: at+jwt`; iss, sub,
// aud, exp, iat, jti, client_id, scope; `act` for a delegation, RFC 8693 §4.1),
// signed by the current trust-domain key, so the trust bundle's JWT
// authorities verify them. Pure apart from the clock and the random jti.
import { randomUUID } from 'node:crypto';
import { SignJWT, createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { SVID_ALGORITHMS } from './jwt-svid.ts';
import type { SigningKey } from './trust-keys.ts';

/** The longest access token the server issues. */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface AccessTokenRequest {
  issuer: string;
  /** Who the token is for: the agent's SPIFFE ID (client_credentials) or the human (token exchange). */
  subject: string;
  audience: string | string[];
  /** Space-separated scopes (RFC 6749 §3.3); '' for none. */
  scope: string;
  clientId: string;
  /** The acting party of a delegation (RFC 8693 `act`): the agent's SPIFFE ID. */
  actor?: string;
  ttlSeconds: number;
  key: SigningKey;
  /** Seconds since the epoch; the current time by default. */
  now?: number;
}

export interface IssuedAccessToken {
  access_token: string;
  expires_in: number;
  jti: string;
}

export async function issueAccessToken(r: AccessTokenRequest): Promise<IssuedAccessToken> {
  if (!(r.ttlSeconds > 0 && r.ttlSeconds <= MAX_ACCESS_TOKEN_TTL_SECONDS))
    throw new Error(`ttl must be between 1 and ${MAX_ACCESS_TOKEN_TTL_SECONDS} seconds`);
  const iat = r.now ?? Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const claims: JWTPayload = {
    client_id: r.clientId,
    ...(r.scope ? { scope: r.scope } : {}),
    ...(r.actor ? { act: { sub: r.actor } } : {}),
  };
  const access_token = await new SignJWT(claims)
    .setProtectedHeader({ alg: r.key.alg, kid: r.key.kid, typ: 'at+jwt' })
    .setIssuer(r.issuer)
    .setSubject(r.subject)
    .setAudience(r.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + r.ttlSeconds)
    .setJti(jti)
    .sign(r.key.privateKey);
  return { access_token, expires_in: r.ttlSeconds, jti };
}

export interface AccessTokenCheck {
  issuer: string;
  audience?: string;
  /** The trust bundle's JWT authorities. */
  bundle: JSONWebKeySet;
  now?: number;
}

/** The verified claims, or throws (jose's error) when the signature, type, issuer, audience or time is wrong. */
export async function verifyAccessToken(token: string, o: AccessTokenCheck): Promise<JWTPayload> {
  const keys = o.bundle.keys.map(({ use: _use, ...jwk }) => jwk);
  const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), {
    algorithms: SVID_ALGORITHMS,
    issuer: o.issuer,
    typ: 'at+jwt',
    requiredClaims: ['sub', 'exp', 'iat', 'jti', 'client_id'],
    ...(o.audience ? { audience: o.audience } : {}),
    ...(o.now !== undefined ? { currentDate: new Date(o.now * 1000) } : {}),
  });
  return payload;
}
