// JWT-SVIDs (https://github.com/spiffe/spiffe/blob/main/standards/JWT-SVID.md):
// signed with a trust-domain key (RS/ES/PS only, `kid` in the header), `sub`
// the SPIFFE ID, `aud` and `exp` required. Verification refuses any other
// algorithm (none, HS*), unknown key ids, a `sub` of another trust domain.
import { SignJWT, createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { trustDomainOf } from './spiffe-id.ts';
import type { SigningKey } from './trust-keys.ts';

/** The algorithms SPIFFE allows for JWT-SVIDs. */
export const SVID_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
];

/** The longest JWT-SVID or X.509-SVID lifetime: a retired key stays in the bundle at least this long. */
export const MAX_SVID_TTL_SECONDS = 24 * 3600;

export interface JwtSvidRequest {
  spiffeId: string;
  audience: string | string[];
  ttlSeconds: number;
  key: SigningKey;
  /** Seconds since the epoch; the current time by default. */
  now?: number;
}

export async function issueJwtSvid(r: JwtSvidRequest): Promise<string> {
  if (!trustDomainOf(r.spiffeId)) throw new Error('sub must be a SPIFFE ID with a path');
  const audiences = Array.isArray(r.audience) ? r.audience : [r.audience];
  if (audiences.length === 0 || audiences.some((a) => !a)) throw new Error('aud is required');
  if (!(r.ttlSeconds > 0 && r.ttlSeconds <= MAX_SVID_TTL_SECONDS)) {
    throw new Error(`ttl must be between 1 and ${MAX_SVID_TTL_SECONDS} seconds`);
  }
  const iat = r.now ?? Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: r.key.alg, kid: r.key.kid, typ: 'JWT' })
    .setSubject(r.spiffeId)
    .setAudience(r.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + r.ttlSeconds)
    .sign(r.key.privateKey);
}

export interface VerifyOptions {
  /** The trust domain's JWT authorities. */
  bundle: JSONWebKeySet;
  /** One audience, or several of which the token must name one. */
  audience: string | string[];
  trustDomain: string;
  /** Seconds since the epoch; the current time by default. */
  now?: number;
}

export type VerifyOutcome =
  { ok: true; spiffeId: string; claims: JWTPayload } | { ok: false; reason: string };

/** Why jose refused a token, in a word a caller may show (never the token). */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWKSNoMatchingKey) return 'unknown key id';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (err instanceof errors.JWTClaimValidationFailed) return `claim ${err.claim} invalid`;
  return 'malformed token';
}

/**
 * The key set of a bundle, kept while the bundle object lives: jose imports
 * each key once per set, and the import costs more than the verification
 * (decision 143). Bundles mark JWT authorities `use: jwt-svid`; jose matches
 * only `sig` or none, so `use` is left out.
 */
const keySets = new WeakMap<JSONWebKeySet, ReturnType<typeof createLocalJWKSet>>();
function keySetOf(bundle: JSONWebKeySet): ReturnType<typeof createLocalJWKSet> {
  let jwks = keySets.get(bundle);
  if (!jwks) {
    jwks = createLocalJWKSet({ keys: bundle.keys.map(({ use: _use, ...jwk }) => jwk) });
    keySets.set(bundle, jwks);
  }
  return jwks;
}

export async function verifyJwtSvid(token: string, o: VerifyOptions): Promise<VerifyOutcome> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keySetOf(o.bundle), {
      algorithms: SVID_ALGORITHMS,
      audience: o.audience,
      requiredClaims: ['sub', 'aud', 'exp'],
      ...(o.now !== undefined ? { currentDate: new Date(o.now * 1000) } : {}),
    });
    if (!protectedHeader.kid) return { ok: false, reason: 'no key id' };
    const sub = payload.sub ?? '';
    if (trustDomainOf(sub) !== o.trustDomain) {
      return { ok: false, reason: `sub is not a SPIFFE ID of trust domain ${o.trustDomain}` };
    }
    return { ok: true, spiffeId: sub, claims: payload };
  } catch (err) {
    return { ok: false, reason: reasonOf(err) };
  }
}
